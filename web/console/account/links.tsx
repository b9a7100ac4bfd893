import { useState } from 'preact/hooks';
import { formatNumber, t } from '../../shared/i18n';
import { Notice, Page } from '../../shared/layout';
import { onLinkClick } from '../../shared/router';
import { useLoad } from '../../shared/use-load';
import type { CallApi } from './account-app';
import { CreateLinkForm, DeleteLinkDialog, EditLinkDialog } from './link-forms';
import { Pager, StatusBadge } from './parts';
import { type Link, type Page as ListPage, showTime } from './types';

/** The fields Link/List sorts by (interface spec §4.6). */
const SORT_FIELDS = ['createTs', 'clickCnt', 'code', 'fullLink', 'expirationDate'] as const;
type SortField = (typeof SORT_FIELDS)[number];
const SORT_LABELS = { createTs: 'created', clickCnt: 'clicks', code: 'code', fullLink: 'fullLink', expirationDate: 'expires' } as const;

interface Query {
  search: string;
  sort: SortField;
  order: 'ASC' | 'DESC';
  page: number;
  pageSize: number;
}

/** The account's links: create, search, sort, page, and each link's edit and delete. */
export function LinksPage(props: { call: CallApi }) {
  const [query, setQuery] = useState<Query>({ search: '', sort: 'createTs', order: 'DESC', page: 0, pageSize: 25 });
  const [typed, setTyped] = useState('');
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [editing, setEditing] = useState<Link | null>(null);
  const [deleting, setDeleting] = useState<Link | null>(null);
  const list = useLoad(
    () =>
      props.call<ListPage<Link>>('Link/List', {
        'criteria[query]': query.search || undefined,
        [`sort[${query.sort}]`]: query.order,
        'pagination[pageSize]': query.pageSize,
        'pagination[currentPage]': query.page,
      }),
    [query],
  );
  const change = (next: Partial<Query>) => setQuery({ ...query, page: 0, ...next });
  const done = (text: string) => {
    setNotice({ kind: 'success', text });
    list.reload();
  };
  const total = list.data?.totalItemCount ?? 0;
  return (
    <Page
      title={t('linksTitle')}
      actions={
        <button type="button" class="button ghost" onClick={list.reload}>
          {t('refresh')}
        </button>
      }
    >
      <CreateLinkForm call={props.call} onCreated={(link) => done(t('linkCreated', { shortLink: link.shortLink }))} />
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      <section class="card" aria-labelledby="links-heading">
        <div class="card-head">
          <h2 id="links-heading">{list.data ? t('linksCount', { count: total }) : t('linksTitle')}</h2>
        </div>
        <form
          class="toolbar"
          onSubmit={(event) => {
            event.preventDefault();
            change({ search: typed.trim() });
          }}
        >
          <div class="field grow">
            <label for="links-search">{t('search')}</label>
            <input
              id="links-search"
              type="search"
              value={typed}
              placeholder={t('searchHelp')}
              onInput={(event) => setTyped(event.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="links-sort">{t('sortBy')}</label>
            <select id="links-sort" value={query.sort} onChange={(event) => change({ sort: event.currentTarget.value as SortField })}>
              {SORT_FIELDS.map((field) => (
                <option key={field} value={field}>
                  {t(SORT_LABELS[field])}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="links-order">{t('order')}</label>
            <select id="links-order" value={query.order} onChange={(event) => change({ order: event.currentTarget.value as 'ASC' | 'DESC' })}>
              <option value="DESC">{t('descending')}</option>
              <option value="ASC">{t('ascending')}</option>
            </select>
          </div>
          <button type="submit" class="button">
            {t('search')}
          </button>
        </form>
        {list.error && <Notice kind="error">{t('errorPrefix', { message: list.error.message })}</Notice>}
        {list.data && list.data.items.length === 0 && <p class="empty">{query.search ? t('noMatches') : t('noLinks')}</p>}
        {list.data && list.data.items.length > 0 && (
          <div class="table-wrap">
            <table class="table" aria-busy={list.loading}>
              <thead>
                <tr>
                  <th scope="col">{t('code')}</th>
                  <th scope="col">{t('fullLink')}</th>
                  <th scope="col" class="num">
                    {t('clicks')}
                  </th>
                  <th scope="col">{t('status')}</th>
                  <th scope="col">{t('created')}</th>
                  <th scope="col">{t('expires')}</th>
                  <th scope="col">
                    <span class="visually-hidden">{t('actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((link) => (
                  <tr key={link.id}>
                    <td>
                      <a class="code" href={`/console/links/${link.id}`} onClick={onLinkClick}>
                        {link.code}
                      </a>
                      {link.comment && <div class="sub">{link.comment}</div>}
                    </td>
                    <td class="url" title={link.fullLink}>
                      {link.fullLink}
                    </td>
                    <td class="num">{formatNumber(link.clickCnt)}</td>
                    <td>
                      <StatusBadge link={link} />
                    </td>
                    <td class="time">{showTime(link.createTs)}</td>
                    <td class="time">{link.expirationDate ?? t('never')}</td>
                    <td class="row-actions">
                      <button type="button" class="button small" onClick={() => setEditing(link)} aria-label={t('editLink', { code: link.code })}>
                        {t('edit')}
                      </button>
                      <button type="button" class="button small danger" onClick={() => setDeleting(link)} aria-label={`${t('delete')} ${link.code}`}>
                        {t('delete')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {list.loading && !list.data && <p class="empty">{t('loading')}</p>}
        <Pager
          page={query.page}
          pageSize={query.pageSize}
          total={total}
          onPage={(page) => setQuery({ ...query, page })}
          onPageSize={(pageSize) => change({ pageSize })}
          idPrefix="links"
        />
      </section>
      {editing && (
        <EditLinkDialog
          call={props.call}
          link={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            done(t('linkSaved'));
          }}
        />
      )}
      {deleting && (
        <DeleteLinkDialog
          call={props.call}
          link={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setDeleting(null);
            done(t('linkDeleted', { code: deleting.code }));
          }}
        />
      )}
    </Page>
  );
}
