import { useState } from 'preact/hooks';
import { useLoad } from '../../shared/use-load';
import { ActionNotice, type CallAdmin, Card, LoadError, TextField, useAction } from './parts';
import { t } from './strings';
import { showInstant, type Webhook } from './types';

/** Where the account's delivery reports are posted: add one (its secret shown once) or remove one. */
export function AccountWebhooks(props: { call: CallAdmin; accountId: number }) {
  const { call, accountId } = props;
  const webhooks = useLoad(() => call<Webhook[]>('webhooks/list', { query: { accountId } }), [call, accountId]);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [added, setAdded] = useState<Webhook | null>(null);
  const action = useAction();
  const onAdd = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      const webhook = await call<Webhook>('webhooks/add', { body: { accountId, url: url.trim(), ...(secret && { secret }) } });
      setAdded(webhook);
      setUrl('');
      setSecret('');
      webhooks.reload();
      return undefined;
    });
  };
  const remove = (webhook: Webhook) =>
    action.run(async () => {
      await call('webhooks/remove', { body: { accountId, webhookId: webhook.id } });
      setAdded(null);
      webhooks.reload();
      return t('webhookRemoved', { url: webhook.url });
    });
  return (
    <Card id="webhooks-heading" title={t('webhooks')}>
      {added?.secret && (
        <div class="notice success secret-once" role="status">
          <span>{t('webhookAdded', { url: added.url })}</span>
          <label for="webhook-secret-value">{t('webhookSecret')}</label>
          <input
            id="webhook-secret-value"
            type="text"
            class="secret-value"
            readOnly
            value={added.secret}
            onFocus={(event) => event.currentTarget.select()}
          />
        </div>
      )}
      <ActionNotice action={action} />
      <LoadError error={webhooks.error} />
      {webhooks.data?.length === 0 && <p class="empty">{t('noWebhooks')}</p>}
      {webhooks.data && webhooks.data.length > 0 && (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">{t('url')}</th>
                <th scope="col">{t('created')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {webhooks.data.map((webhook) => (
                <tr key={webhook.id}>
                  <td class="url">{webhook.url}</td>
                  <td class="time">{showInstant(webhook.createdAt)}</td>
                  <td class="row-actions">
                    <button
                      type="button"
                      class="button small danger"
                      disabled={action.busy}
                      aria-label={t('removeNamed', { name: webhook.url })}
                      onClick={() => remove(webhook)}
                    >
                      {t('remove')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form class="form toolbar" onSubmit={onAdd}>
        <TextField
          id="webhook-url"
          label={t('url')}
          value={url}
          onInput={setUrl}
          required
          grow
          inputMode="url"
          placeholder="https://example.com/sms-reports"
        />
        <TextField id="webhook-secret" label={t('secretOptional')} value={secret} onInput={setSecret} help={t('secretHelp')} />
        <button type="submit" class="button" disabled={action.busy}>
          {t('addWebhook')}
        </button>
      </form>
    </Card>
  );
}
