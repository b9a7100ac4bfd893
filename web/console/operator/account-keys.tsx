import { useState } from 'preact/hooks';
import { useLoad } from '../../shared/use-load';
import { ActionNotice, type CallAdmin, Card, LoadError, useAction } from './parts';
import { t } from './strings';
import { type ApiKey, showInstant } from './types';

/** The account's API keys: issue one (shown this once only) or revoke one. */
export function AccountKeys(props: { call: CallAdmin; accountId: number }) {
  const { call, accountId } = props;
  const keys = useLoad(() => call<ApiKey[]>('keys/list', { query: { accountId } }), [call, accountId]);
  const [issued, setIssued] = useState<string | null>(null);
  const action = useAction();
  const issue = () =>
    action.run(async () => {
      const answer = await call<{ key: string; apiKey: ApiKey }>('keys/issue', { body: { accountId } });
      setIssued(answer.key);
      keys.reload();
      return undefined;
    });
  const revoke = (key: ApiKey) =>
    action.run(async () => {
      await call('keys/revoke', { body: { accountId, keyId: key.keyId } });
      keys.reload();
      return t('keyRevoked', { prefix: key.prefix });
    });
  return (
    <Card
      id="keys-heading"
      title={t('keys')}
      tools={
        <button type="button" class="button primary" disabled={action.busy} onClick={issue}>
          {t('issueKey')}
        </button>
      }
    >
      {issued && (
        <div class="notice success secret-once" role="status">
          <span>{t('keyIssued')}</span>
          <label for="new-key">{t('newKey')}</label>
          <input id="new-key" type="text" class="secret-value" readOnly value={issued} onFocus={(event) => event.currentTarget.select()} />
          <div>
            <button type="button" class="button small" onClick={() => setIssued(null)}>
              {t('keyCopied')}
            </button>
          </div>
        </div>
      )}
      <ActionNotice action={action} />
      <LoadError error={keys.error} />
      {keys.data?.length === 0 && <p class="empty">{t('noKeys')}</p>}
      {keys.data && keys.data.length > 0 && (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">{t('keyPrefix')}</th>
                <th scope="col">{t('keyId')}</th>
                <th scope="col">{t('created')}</th>
                <th scope="col">{t('status')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.keyId}>
                  <td class="code">{key.prefix}…</td>
                  <td class="sub">{key.keyId}</td>
                  <td class="time">{showInstant(key.createdAt)}</td>
                  <td>
                    {key.revokedAt ? (
                      <span class="badge muted">{t('revokedAt', { at: showInstant(key.revokedAt) })}</span>
                    ) : (
                      <span class="badge good">{t('active')}</span>
                    )}
                  </td>
                  <td class="row-actions">
                    {!key.revokedAt && (
                      <button
                        type="button"
                        class="button small danger"
                        disabled={action.busy}
                        aria-label={t('revokeKeyNamed', { prefix: key.prefix })}
                        onClick={() => revoke(key)}
                      >
                        {t('revoke')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
