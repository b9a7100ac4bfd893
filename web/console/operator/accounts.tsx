import { useState } from 'preact/hooks';
import { formatNumber } from '../../shared/i18n';
import { Page } from '../../shared/layout';
import { navigate, onLinkClick } from '../../shared/router';
import { useLoad } from '../../shared/use-load';
import { ActionNotice, type CallAdmin, Card, LoadError, TextField, TimeZoneList, useAction } from './parts';
import { t } from './strings';
import { type Account, showInstant } from './types';

/** Every account, and a form to create one. */
export function AccountsPage(props: { call: CallAdmin }) {
  const accounts = useLoad(() => props.call<Account[]>('accounts/list'), [props.call]);
  return (
    <Page
      title={t('accountsTitle')}
      actions={
        <button type="button" class="button ghost" onClick={accounts.reload}>
          {t('refresh')}
        </button>
      }
    >
      <CreateAccountForm call={props.call} />
      <Card id="accounts-heading" title={accounts.data ? t('accountsCount', { count: formatNumber(accounts.data.length) }) : t('accountsTitle')}>
        <LoadError error={accounts.error} />
        {accounts.data?.length === 0 && <p class="empty">{t('noAccounts')}</p>}
        {accounts.data && accounts.data.length > 0 && (
          <div class="table-wrap">
            <table class="table" aria-busy={accounts.loading}>
              <thead>
                <tr>
                  <th scope="col" class="num">
                    {t('id')}
                  </th>
                  <th scope="col">{t('name')}</th>
                  <th scope="col">{t('status')}</th>
                  <th scope="col">{t('timeZone')}</th>
                  <th scope="col">{t('currency')}</th>
                  <th scope="col">{t('moderation')}</th>
                  <th scope="col">{t('rateLimit')}</th>
                  <th scope="col">{t('created')}</th>
                </tr>
              </thead>
              <tbody>
                {accounts.data.map((account) => (
                  <tr key={account.id}>
                    <td class="num">{account.id}</td>
                    <td>
                      <a href={`/console/operator/accounts/${account.id}`} onClick={onLinkClick}>
                        {account.name}
                      </a>
                    </td>
                    <td>
                      <AccountStatus account={account} />
                    </td>
                    <td>{account.timeZone}</td>
                    <td>{account.currency}</td>
                    <td>{t(account.sending.moderation === 'all' ? 'moderationAll' : 'moderationNone')}</td>
                    <td>{rateLimitText(account.rateLimit)}</td>
                    <td class="time">{showInstant(account.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {accounts.loading && !accounts.data && <p class="empty">{t('loading')}</p>}
      </Card>
    </Page>
  );
}

export function AccountStatus(props: { account: Pick<Account, 'status'> }) {
  return props.account.status === 'blocked' ? <span class="badge bad">{t('blocked')}</span> : <span class="badge good">{t('active')}</span>;
}

export function rateLimitText(rateLimit: number | null): string {
  if (rateLimit === null) return t('rateLimitDefault');
  return rateLimit === 0 ? t('rateLimitNone') : t('perSecond', { count: formatNumber(rateLimit) });
}

function CreateAccountForm(props: { call: CallAdmin }) {
  const [name, setName] = useState('');
  const [timeZone, setTimeZone] = useState('');
  const [currency, setCurrency] = useState('');
  const action = useAction();
  const onSubmit = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      const account = await props.call<Account>('accounts/create', {
        body: { name: name.trim(), ...(timeZone.trim() && { timeZone: timeZone.trim() }), ...(currency.trim() && { currency: currency.trim() }) },
      });
      navigate(`/console/operator/accounts/${account.id}`);
      return undefined;
    });
  };
  return (
    <Card id="new-account-heading" title={t('newAccount')}>
      <form class="form toolbar" onSubmit={onSubmit}>
        <TextField id="new-account-name" label={t('name')} value={name} onInput={setName} required grow maxLength={100} />
        <TextField id="new-account-zone" label={t('timeZone')} value={timeZone} onInput={setTimeZone} list="time-zones" placeholder="Europe/Moscow" />
        <TextField id="new-account-currency" label={t('currency')} value={currency} onInput={setCurrency} placeholder="RUB" maxLength={3} />
        <button type="submit" class="button primary" disabled={action.busy}>
          {t('createAccount')}
        </button>
      </form>
      <TimeZoneList id="time-zones" />
      <p class="hint">{t('newAccountHint')}</p>
      <ActionNotice action={action} />
    </Card>
  );
}
