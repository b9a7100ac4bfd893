import { formatNumber, t } from '../../shared/i18n';
import { Notice, Page } from '../../shared/layout';
import { onLinkClick } from '../../shared/router';
import { useLoad } from '../../shared/use-load';
import type { CallApi } from './account-app';
import { explain } from './link-forms';
import { MessageStatus } from './parts';
import { type Page as ListPage, type Message, type StatusRecord, showTime } from './types';

/**
 * What the console already knows of a message (the list it came from, or the send form): its
 * text and recipient, which Message/GetSMSStatus does not return.
 */
export const knownMessages = new Map<number, Pick<Message, 'to' | 'text' | 'from' | 'campaignId'>>();

/** One message's delivery status (Message/GetSMSStatus), refreshed on request. */
export function MessagePage(props: { call: CallApi; id: number }) {
  const record = useLoad(async () => {
    const [found] = await props.call<StatusRecord[]>('Message/GetSMSStatus', { ids: [props.id] });
    return found ?? null;
  }, [props.id]);
  // The message as the service keeps it (its text after link shortening) when its campaign is known.
  const campaignId = knownMessages.get(props.id)?.campaignId;
  const listed = useLoad(
    async () =>
      campaignId === undefined
        ? undefined
        : (await props.call<ListPage<Message>>('Message/List', { 'criteria[campaignIds]': campaignId })).items.find((item) => item.id === props.id),
    [props.id, campaignId],
  );
  const known = listed.data ?? knownMessages.get(props.id);
  return (
    <Page
      title={t('messageTitle', { id: props.id })}
      actions={
        <>
          <a class="button ghost" href="/console/messages" onClick={onLinkClick}>
            {t('back')}
          </a>
          <button type="button" class="button" onClick={record.reload} aria-busy={record.loading}>
            {t('refresh')}
          </button>
        </>
      }
    >
      {record.error && <Notice kind="error">{explain(record.error)}</Notice>}
      {record.data === null && <Notice kind="info">{t('notFound')}</Notice>}
      {record.data && (
        <section class="card" aria-labelledby="message-heading">
          <div class="card-head">
            <h2 id="message-heading">{t('status')}</h2>
            <output class="status-big" aria-live="polite">
              <MessageStatus status={record.data.status} />
            </output>
          </div>
          <dl class="details">
            {known && (
              <>
                <dt>{t('recipient')}</dt>
                <dd>+{known.to}</dd>
                {known.from && (
                  <>
                    <dt>{t('sender')}</dt>
                    <dd>{known.from}</dd>
                  </>
                )}
                <dt>{t('campaign')}</dt>
                <dd>{known.campaignId}</dd>
              </>
            )}
            <dt>{t('segments')}</dt>
            <dd>{formatNumber(record.data.segNum)}</dd>
            <dt>{t('sent')}</dt>
            <dd>{record.data.startSendTs ? showTime(record.data.startSendTs) : t('notSentYet')}</dd>
            <dt>{t('updated')}</dt>
            <dd>{showTime(record.data.statusUpdateTs)}</dd>
          </dl>
          {known && <p class="message-text">{known.text}</p>}
          <p class="help">{t('timeInZone')}</p>
        </section>
      )}
    </Page>
  );
}
