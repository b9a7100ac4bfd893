import { useState } from 'preact/hooks';
import { formatNumber, t } from '../../shared/i18n';
import { Notice, Page } from '../../shared/layout';
import { onLinkClick } from '../../shared/router';
import { useLoad } from '../../shared/use-load';
import type { CallApi } from './account-app';
import { explain } from './link-forms';
import { knownMessages } from './message-page';
import { MessageStatus, Pager } from './parts';
import { type Page as ListPage, MESSAGE_STATUSES, type Message, showTime } from './types';

interface Filters {
  status: string;
  to: string;
  /** `YYYY-MM-DDTHH:MM` from the datetime-local inputs, in the account's zone as the API reads it. */
  sentFrom: string;
  sentUntil: string;
}

const NO_FILTERS: Filters = { status: '', to: '', sentFrom: '', sentUntil: '' };

/** A datetime-local value as the API's request layout, `YYYY-MM-DD HH:MM:SS`. */
const requestTime = (value: string) => (value ? `${value.replace('T', ' ')}:00`.slice(0, 19) : undefined);

/** The account's messages, newest campaign first, filtered by status, recipient and send time. */
export function MessagesPage(props: { call: CallApi }) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [paging, setPaging] = useState({ page: 0, pageSize: 25 });
  const list = useLoad(async () => {
    const found = await props.call<ListPage<Message>>('Message/List', {
      'criteria[status]': filters.status || undefined,
      'criteria[to]': filters.to || undefined,
      'criteria[startSendTsFrom]': requestTime(filters.sentFrom),
      'criteria[startSendTsTo]': requestTime(filters.sentUntil),
      'sort[campaignId]': 'DESC',
      'pagination[pageSize]': paging.pageSize,
      'pagination[currentPage]': paging.page,
    });
    for (const message of found.items) knownMessages.set(message.id, message);
    return found;
  }, [filters, paging]);
  const apply = (next: Filters) => {
    setDraft(next);
    setFilters(next);
    setPaging({ ...paging, page: 0 });
  };
  const edit = (field: keyof Filters) => (event: { currentTarget: { value: string } }) => setDraft({ ...draft, [field]: event.currentTarget.value });
  const total = list.data?.totalItemCount ?? 0;
  return (
    <Page
      title={t('messagesTitle')}
      actions={
        <button type="button" class="button ghost" onClick={list.reload}>
          {t('refresh')}
        </button>
      }
    >
      <section class="card" aria-labelledby="messages-heading">
        <div class="card-head">
          <h2 id="messages-heading">{list.data ? t('messagesCount', { count: total }) : t('messagesTitle')}</h2>
        </div>
        <form
          class="filters"
          onSubmit={(event) => {
            event.preventDefault();
            apply(draft);
          }}
        >
          <div class="field">
            <label for="filter-status">{t('status')}</label>
            <select id="filter-status" value={draft.status} onChange={edit('status')}>
              <option value="">{t('anyStatus')}</option>
              {MESSAGE_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="filter-to">{t('recipientContains')}</label>
            <input id="filter-to" type="search" inputMode="tel" value={draft.to} onInput={edit('to')} />
          </div>
          <div class="field">
            <label for="filter-from">{t('sentFrom')}</label>
            <input id="filter-from" type="datetime-local" value={draft.sentFrom} onInput={edit('sentFrom')} />
          </div>
          <div class="field">
            <label for="filter-until">{t('sentUntil')}</label>
            <input id="filter-until" type="datetime-local" value={draft.sentUntil} onInput={edit('sentUntil')} />
          </div>
          <button type="submit" class="button primary">
            {t('apply')}
          </button>
          <button type="button" class="button ghost" onClick={() => apply(NO_FILTERS)}>
            {t('reset')}
          </button>
        </form>
        <p class="help">{t('timeInZone')}</p>
        {list.error && <Notice kind="error">{explain(list.error)}</Notice>}
        {list.data && list.data.items.length === 0 && <p class="empty">{filters === NO_FILTERS ? t('noMessages') : t('noMatches')}</p>}
        {list.data && list.data.items.length > 0 && (
          <div class="table-wrap">
            <table class="table" aria-busy={list.loading}>
              <thead>
                <tr>
                  <th scope="col">ID</th>
                  <th scope="col">{t('recipient')}</th>
                  <th scope="col">{t('text')}</th>
                  <th scope="col" class="num">
                    {t('segments')}
                  </th>
                  <th scope="col">{t('status')}</th>
                  <th scope="col">{t('sent')}</th>
                  <th scope="col">{t('updated')}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((message) => (
                  <tr key={message.id}>
                    <td>
                      <a class="code" href={`/console/messages/${message.id}`} onClick={onLinkClick}>
                        {message.id}
                      </a>
                    </td>
                    <td class="time">+{message.to}</td>
                    <td class="text" title={message.text}>
                      {message.text}
                      <div class="sub">{message.from}</div>
                    </td>
                    <td class="num">{formatNumber(message.segNum)}</td>
                    <td>
                      <MessageStatus status={message.status} />
                    </td>
                    <td class="time">{showTime(message.startSendTs)}</td>
                    <td class="time">{showTime(message.statusUpdateTs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {list.loading && !list.data && <p class="empty">{t('loading')}</p>}
        <Pager
          page={paging.page}
          pageSize={paging.pageSize}
          total={total}
          idPrefix="messages"
          onPage={(page) => setPaging({ ...paging, page })}
          onPageSize={(pageSize) => setPaging({ page: 0, pageSize })}
        />
      </section>
    </Page>
  );
}
