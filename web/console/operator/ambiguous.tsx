import { useState } from 'preact/hooks';
import { Page } from '../../shared/layout';
import { onLinkClick } from '../../shared/router';
import { useLoad } from '../../shared/use-load';
import { MessageStatus } from '../account/parts';
import { type CallAdmin, Card, explain, LoadError, TextField } from './parts';
import { t } from './strings';
import { type Message, showInstant } from './types';

/** Messages whose submit ended without a clear answer, to check against the gateway; and any message by its id. */
export function AmbiguousPage(props: { call: CallAdmin }) {
  const messages = useLoad(() => props.call<Message[]>('messages/ambiguous'), [props.call]);
  return (
    <Page
      title={t('ambiguousTitle')}
      actions={
        <button type="button" class="button ghost" onClick={messages.reload}>
          {t('refresh')}
        </button>
      }
    >
      <p class="lead">{t('ambiguousLead')}</p>
      <Card id="ambiguous-heading" title={t('ambiguousMessages')}>
        <LoadError error={messages.error} />
        {messages.data?.length === 0 && <p class="empty">{t('noAmbiguous')}</p>}
        {messages.data && messages.data.length > 0 && <MessageTable messages={messages.data} />}
      </Card>
      <FindMessage call={props.call} />
    </Page>
  );
}

function MessageTable(props: { messages: Message[] }) {
  return (
    <div class="table-wrap">
      <table class="table">
        <thead>
          <tr>
            <th scope="col" class="num">
              {t('message')}
            </th>
            <th scope="col">{t('account')}</th>
            <th scope="col">{t('to')}</th>
            <th scope="col">{t('from')}</th>
            <th scope="col">{t('status')}</th>
            <th scope="col">{t('gateway')}</th>
            <th scope="col">{t('problem')}</th>
            <th scope="col">{t('created')}</th>
          </tr>
        </thead>
        <tbody>
          {props.messages.map((message) => (
            <tr key={message.id}>
              <td class="num">
                {message.id}
                <div class="sub">{t('campaignNumber', { id: message.campaignId })}</div>
              </td>
              <td>
                <a href={`/console/operator/accounts/${message.accountId}`} onClick={onLinkClick}>
                  {message.accountId}
                </a>
              </td>
              <td class="code">{message.to}</td>
              <td>{message.from}</td>
              <td>
                <MessageStatus status={message.status} />
              </td>
              <td>
                {message.gateway ?? '—'}
                {message.gatewayMessageId && <div class="sub">{message.gatewayMessageId}</div>}
              </td>
              <td class="text">{message.submitProblem ?? (message.submitState === 'ambiguous' ? t('ambiguous') : '—')}</td>
              <td class="time">{showInstant(message.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function FindMessage(props: { call: CallAdmin }) {
  const [id, setId] = useState('');
  const [found, setFound] = useState<Message | null>(null);
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setFound(null);
    try {
      setFound(await props.call<Message>('messages/get', { query: { id: id.trim() } }));
    } catch (failure) {
      setError(explain(failure as Error));
    }
  };
  return (
    <Card id="find-message-heading" title={t('findMessage')}>
      <form class="form toolbar" onSubmit={onSubmit}>
        <TextField id="message-id" label={t('messageId')} value={id} onInput={setId} required inputMode="numeric" />
        <button type="submit" class="button">
          {t('find')}
        </button>
      </form>
      {error && (
        <div class="notice error" role="alert">
          {t('notFoundOrRefused', { message: error })}
        </div>
      )}
      {found && (
        <>
          <MessageTable messages={[found]} />
          <p class="message-text">{found.text}</p>
        </>
      )}
    </Card>
  );
}
