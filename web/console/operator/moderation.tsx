import { useState } from 'preact/hooks';
import { Page } from '../../shared/layout';
import { HeldCampaigns } from './campaigns';
import { LinkTable } from './link-moderation';
import { type CallAdmin, Card, explain, TextField } from './parts';
import { t } from './strings';
import type { Link } from './types';

type FindBy = 'shortLink' | 'code' | 'id';

/** The moderation queue: a link found by its short link, code or id to block or approve; campaigns held for approval. */
export function ModerationPage(props: { call: CallAdmin }) {
  return (
    <Page title={t('moderationTitle')}>
      <FindLink call={props.call} />
      <HeldCampaigns call={props.call} />
    </Page>
  );
}

function FindLink(props: { call: CallAdmin }) {
  const [by, setBy] = useState<FindBy>('shortLink');
  const [value, setValue] = useState('');
  const [found, setFound] = useState<Link | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setFound(null);
    try {
      setFound(await props.call<Link>('links/find', { query: { [by]: value.trim() } }));
    } catch (failure) {
      setError(explain(failure as Error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card id="find-link-heading" title={t('findLink')}>
      <form class="form toolbar" onSubmit={onSubmit}>
        <div class="field">
          <label for="find-by">{t('findBy')}</label>
          <select id="find-by" value={by} onChange={(event) => setBy(event.currentTarget.value as FindBy)}>
            <option value="shortLink">{t('shortLink')}</option>
            <option value="code">{t('code')}</option>
            <option value="id">{t('linkId')}</option>
          </select>
        </div>
        <TextField
          id="find-value"
          label={t(by === 'shortLink' ? 'shortLink' : by === 'code' ? 'code' : 'linkId')}
          value={value}
          onInput={setValue}
          required
          grow
        />
        <button type="submit" class="button primary" disabled={busy}>
          {t('find')}
        </button>
      </form>
      {error && (
        <div class="notice error" role="alert">
          {t('notFoundOrRefused', { message: error })}
        </div>
      )}
      {found && <LinkTable call={props.call} links={[found]} onChanged={setFound} showAccount />}
    </Card>
  );
}
