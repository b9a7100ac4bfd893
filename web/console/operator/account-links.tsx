import { useState } from 'preact/hooks';
import { useLoad } from '../../shared/use-load';
import { Pager } from '../account/parts';
import { LinkTable } from './link-moderation';
import { type CallAdmin, Card, LoadError } from './parts';
import { t } from './strings';
import type { Link, Paged } from './types';

type Which = 'recent' | 'blocked';

/** The account's newest links (the review queue) or its blocked ones, a page at a time. */
export function AccountLinks(props: { call: CallAdmin; accountId: number }) {
  const { call, accountId } = props;
  const [which, setWhich] = useState<Which>('recent');
  const [paging, setPaging] = useState({ page: 0, pageSize: 25 });
  const links = useLoad(
    () => call<Paged<Link>>(`links/${which}`, { query: { accountId, page: paging.page, pageSize: paging.pageSize } }),
    [call, accountId, which, paging],
  );
  const show = (next: Which) => {
    setWhich(next);
    setPaging({ ...paging, page: 0 });
  };
  return (
    <Card
      id="account-links-heading"
      title={t('links')}
      tools={
        <fieldset class="segmented">
          <legend class="visually-hidden">{t('whichLinks')}</legend>
          {(['recent', 'blocked'] as const).map((name) => (
            <button key={name} type="button" aria-pressed={which === name} onClick={() => show(name)}>
              {t(name === 'recent' ? 'recentLinks' : 'blockedLinks')}
            </button>
          ))}
        </fieldset>
      }
    >
      <LoadError error={links.error} />
      {links.data?.items.length === 0 && <p class="empty">{t(which === 'recent' ? 'noLinks' : 'noBlockedLinks')}</p>}
      {links.data && links.data.items.length > 0 && <LinkTable call={call} links={links.data.items} onChanged={links.reload} />}
      {links.loading && !links.data && <p class="empty">{t('loading')}</p>}
      <Pager
        page={paging.page}
        pageSize={paging.pageSize}
        total={links.data?.totalItemCount ?? 0}
        idPrefix="account-links"
        onPage={(page) => setPaging({ ...paging, page })}
        onPageSize={(pageSize) => setPaging({ page: 0, pageSize })}
      />
    </Card>
  );
}
