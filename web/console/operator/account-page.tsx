import { useState } from 'preact/hooks';
import { Page } from '../../shared/layout';
import { onLinkClick } from '../../shared/router';
import { useLoad } from '../../shared/use-load';
import { AccountKeys } from './account-keys';
import { AccountLinks } from './account-links';
import { Signatures, Tariff } from './account-sending';
import { AccountWebhooks } from './account-webhooks';
import { AccountStatus, rateLimitText } from './accounts';
import { ActionNotice, type CallAdmin, Card, LoadError, TextField, TimeZoneList, useAction } from './parts';
import { t } from './strings';
import { type Account, showInstant } from './types';

/** One account: its settings and status, keys, sending settings, webhooks and links. */
export function AccountPage(props: { call: CallAdmin; id: number }) {
  const { call, id } = props;
  const loaded = useLoad(() => call<Account>('accounts/get', { query: { id } }), [call, id]);
  const [account, setAccount] = useState<Account | null>(null);
  const current = account ?? loaded.data;
  return (
    <Page title={current ? t('accountTitle', { name: current.name, id }) : t('accountTitle', { name: '…', id })}>
      <p class="crumb">
        <a href="/console/operator/accounts" onClick={onLinkClick}>
          {t('backToAccounts')}
        </a>
      </p>
      <LoadError error={loaded.error} />
      {current && (
        <>
          <div class="operator-columns">
            <Settings key={`${current.id}`} call={call} account={current} onChange={setAccount} />
            <StatusAndModeration call={call} account={current} onChange={setAccount} />
          </div>
          <AccountKeys call={call} accountId={id} />
          <div class="operator-columns">
            <Signatures call={call} account={current} onChange={setAccount} />
            <Tariff call={call} account={current} onChange={setAccount} />
          </div>
          <AccountWebhooks call={call} accountId={id} />
          <AccountLinks call={call} accountId={id} />
        </>
      )}
    </Page>
  );
}

type AccountProps = { call: CallAdmin; account: Account; onChange(account: Account): void };

/** Name, time zone, currency and rate limit (accounts/update). */
function Settings(props: AccountProps) {
  const { account } = props;
  const [name, setName] = useState(account.name);
  const [timeZone, setTimeZone] = useState(account.timeZone);
  const [currency, setCurrency] = useState(account.currency);
  const [limitKind, setLimitKind] = useState<'default' | 'none' | 'custom'>(
    account.rateLimit === null ? 'default' : account.rateLimit === 0 ? 'none' : 'custom',
  );
  const [limit, setLimit] = useState(account.rateLimit ? String(account.rateLimit) : '');
  const action = useAction();
  const onSubmit = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      const rateLimit = limitKind === 'default' ? null : limitKind === 'none' ? 0 : Number(limit);
      const saved = await props.call<Account>('accounts/update', {
        body: { id: account.id, name: name.trim(), timeZone: timeZone.trim(), currency: currency.trim(), rateLimit },
      });
      props.onChange(saved);
      return t('settingsSaved');
    });
  };
  return (
    <Card id="settings-heading" title={t('settings')}>
      <form class="form" onSubmit={onSubmit}>
        <TextField id="account-name" label={t('name')} value={name} onInput={setName} required maxLength={100} />
        <TextField
          id="account-zone"
          label={t('timeZone')}
          value={timeZone}
          onInput={setTimeZone}
          required
          list="time-zones"
          help={t('timeZoneHelp')}
        />
        <TimeZoneList id="time-zones" />
        <TextField id="account-currency" label={t('currency')} value={currency} onInput={setCurrency} required maxLength={3} />
        <div class="field">
          <label for="account-limit-kind">{t('rateLimit')}</label>
          <select id="account-limit-kind" value={limitKind} onChange={(event) => setLimitKind(event.currentTarget.value as typeof limitKind)}>
            <option value="default">{t('rateLimitDefault')}</option>
            <option value="none">{t('rateLimitNone')}</option>
            <option value="custom">{t('rateLimitCustom')}</option>
          </select>
        </div>
        {limitKind === 'custom' && (
          <TextField
            id="account-limit"
            label={t('requestsPerSecond')}
            inputMode="numeric"
            value={limit}
            onInput={setLimit}
            required
            help={t('rateLimitHelp')}
          />
        )}
        <div>
          <button type="submit" class="button primary" disabled={action.busy}>
            {t('save')}
          </button>
        </div>
      </form>
      <ActionNotice action={action} />
    </Card>
  );
}

/** Blocking (every API call refused with code 14) and the moderation policy of its campaigns. */
function StatusAndModeration(props: AccountProps) {
  const { account, call, onChange } = props;
  const action = useAction();
  const [policy, setPolicy] = useState(account.sending.moderation);
  const blocked = account.status === 'blocked';
  const toggle = () =>
    action.run(async () => {
      onChange(await call<Account>(blocked ? 'accounts/unblock' : 'accounts/block', { body: { id: account.id } }));
      return t(blocked ? 'accountUnblocked' : 'accountBlocked');
    });
  const savePolicy = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      onChange(await call<Account>('moderation/set', { body: { accountId: account.id, moderation: policy } }));
      return t('moderationSaved');
    });
  };
  return (
    <Card id="status-heading" title={t('statusTitle')}>
      <dl class="details">
        <dt>{t('status')}</dt>
        <dd>
          <AccountStatus account={account} />
        </dd>
        <dt>{t('rateLimit')}</dt>
        <dd>{rateLimitText(account.rateLimit)}</dd>
        <dt>{t('created')}</dt>
        <dd>{showInstant(account.createdAt)}</dd>
      </dl>
      <p>
        <button type="button" class={blocked ? 'button' : 'button danger'} disabled={action.busy} onClick={toggle}>
          {t(blocked ? 'unblockAccount' : 'blockAccount')}
        </button>
      </p>
      <form class="form toolbar" onSubmit={savePolicy}>
        <div class="field grow">
          <label for="moderation-policy">{t('moderationPolicy')}</label>
          <select id="moderation-policy" value={policy} onChange={(event) => setPolicy(event.currentTarget.value as typeof policy)}>
            <option value="none">{t('moderationNoneLong')}</option>
            <option value="all">{t('moderationAllLong')}</option>
          </select>
        </div>
        <button type="submit" class="button" disabled={action.busy}>
          {t('save')}
        </button>
      </form>
      <ActionNotice action={action} />
    </Card>
  );
}
