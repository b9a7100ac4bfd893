import { useState } from 'preact/hooks';
import { formatNumber } from '../../shared/i18n';
import { ActionNotice, type CallAdmin, Card, TextField, useAction } from './parts';
import { t } from './strings';
import type { Account } from './types';

type AccountProps = { call: CallAdmin; account: Account; onChange(account: Account): void };

/** Sender signatures: add one, approve it, make it the default (or go back to the service's). */
export function Signatures(props: AccountProps) {
  const { account, call, onChange } = props;
  const [name, setName] = useState('');
  const action = useAction();
  const change = (path: string, body: Record<string, unknown>, done: string) =>
    action.run(async () => {
      onChange(await call<Account>(path, { body: { accountId: account.id, ...body } }));
      return done;
    });
  const signatures = Object.entries(account.sending.signatures);
  const onAdd = (event: Event) => {
    event.preventDefault();
    change('signatures/add', { name: name.trim() }, t('signatureAdded', { name: name.trim() })).then((done) => done && setName(''));
  };
  return (
    <Card id="signatures-heading" title={t('signatures')}>
      {signatures.length === 0 ? (
        <p class="empty">{t('noSignatures')}</p>
      ) : (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">{t('signature')}</th>
                <th scope="col">{t('status')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {signatures.map(([signature, { approved }]) => {
                const isDefault = account.sending.defaultSignature === signature;
                return (
                  <tr key={signature}>
                    <td class="code">{signature}</td>
                    <td>
                      {approved ? <span class="badge good">{t('approved')}</span> : <span class="badge warn">{t('awaitingApproval')}</span>}{' '}
                      {isDefault && <span class="badge info">{t('default')}</span>}
                    </td>
                    <td class="row-actions">
                      {!approved && (
                        <button
                          type="button"
                          class="button small"
                          disabled={action.busy}
                          aria-label={t('approveNamed', { name: signature })}
                          onClick={() => change('signatures/approve', { name: signature }, t('signatureApproved', { name: signature }))}
                        >
                          {t('approve')}
                        </button>
                      )}
                      {approved && !isDefault && (
                        <button
                          type="button"
                          class="button small"
                          disabled={action.busy}
                          aria-label={t('makeDefaultNamed', { name: signature })}
                          onClick={() => change('signatures/default', { name: signature }, t('defaultSet', { name: signature }))}
                        >
                          {t('makeDefault')}
                        </button>
                      )}
                      {isDefault && (
                        <button
                          type="button"
                          class="button small"
                          disabled={action.busy}
                          onClick={() => change('signatures/default', { name: null }, t('defaultCleared'))}
                        >
                          {t('clearDefault')}
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <form class="form toolbar" onSubmit={onAdd}>
        <TextField id="new-signature" label={t('newSignature')} value={name} onInput={setName} required grow maxLength={32} />
        <button type="submit" class="button" disabled={action.busy}>
          {t('add')}
        </button>
      </form>
      <ActionNotice action={action} />
    </Card>
  );
}

/** Prices of one segment by destination country (`*`: any other), in the account's currency. */
export function Tariff(props: AccountProps) {
  const { account, call, onChange } = props;
  const [country, setCountry] = useState('');
  const [price, setPrice] = useState('');
  const action = useAction();
  // Text that is not a number goes as it is, for the API to refuse with its message.
  const set = (code: string, value: number | string | null) =>
    action.run(async () => {
      onChange(await call<Account>('tariffs/set', { body: { accountId: account.id, country: code, price: value } }));
      return value === null ? t('priceCleared', { country: code }) : t('priceSet', { country: code });
    });
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const value = Number(price.trim().replace(',', '.'));
    set(country.trim().toUpperCase(), price.trim() === '' || Number.isNaN(value) ? price : value).then((done) => {
      if (!done) return;
      setCountry('');
      setPrice('');
    });
  };
  const prices = Object.entries(account.sending.tariff).sort(([a], [b]) => (a === '*' ? 1 : b === '*' ? -1 : a.localeCompare(b)));
  return (
    <Card id="tariff-heading" title={t('tariff', { currency: account.currency })}>
      {prices.length === 0 ? (
        <p class="empty">{t('noPrices')}</p>
      ) : (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">{t('country')}</th>
                <th scope="col" class="num">
                  {t('pricePerSegment')}
                </th>
                <th scope="col">
                  <span class="visually-hidden">{t('actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {prices.map(([code, value]) => (
                <tr key={code}>
                  <td class="code">{code === '*' ? t('anyOtherCountry') : code}</td>
                  <td class="num">{formatNumber(value)}</td>
                  <td class="row-actions">
                    <button
                      type="button"
                      class="button small danger"
                      disabled={action.busy}
                      aria-label={t('clearPriceNamed', { country: code })}
                      onClick={() => set(code, null)}
                    >
                      {t('clear')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form class="form toolbar" onSubmit={onSubmit}>
        <TextField id="tariff-country" label={t('country')} value={country} onInput={setCountry} required maxLength={2} help={t('countryHelp')} />
        <TextField id="tariff-price" label={t('pricePerSegment')} value={price} onInput={setPrice} required inputMode="decimal" />
        <button type="submit" class="button" disabled={action.busy}>
          {t('setPrice')}
        </button>
      </form>
      <ActionNotice action={action} />
    </Card>
  );
}
