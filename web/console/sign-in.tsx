import { useState } from 'preact/hooks';
import { AdminError, ApiError, AUTH_FAILED, callAdmin, callService } from '../shared/api';
import { t } from '../shared/i18n';
import { Header, Notice } from '../shared/layout';
import type { Session } from '../shared/session';

type Tab = 'account' | 'operator';

/**
 * Two ways in, as two tabs of one page: an account's API key or an operator's token. Each is
 * checked against its API before it is kept, so a wrong one is told at once.
 */
export function SignIn(props: { onSignIn(session: Session): void }) {
  const [tab, setTab] = useState<Tab>('account');
  const select = (next: Tab) => {
    setTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  };
  const onTabKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') select(tab === 'account' ? 'operator' : 'account');
  };
  return (
    <>
      <Header />
      <main class="sign-in" id="main">
        <div class="card sign-in-card">
          <h1>{t('signInTitle')}</h1>
          <p class="lead">{t('signInLead')}</p>
          <div class="tabs" role="tablist" aria-label={t('signIn')} onKeyDown={onTabKey}>
            {(['account', 'operator'] as const).map((name) => (
              <button
                key={name}
                type="button"
                role="tab"
                id={`tab-${name}`}
                aria-selected={tab === name}
                aria-controls={`panel-${name}`}
                tabIndex={tab === name ? 0 : -1}
                onClick={() => select(name)}
              >
                {t(name === 'account' ? 'accountTab' : 'operatorTab')}
              </button>
            ))}
          </div>
          {tab === 'account' ? <AccountForm onSignIn={props.onSignIn} /> : <OperatorForm onSignIn={props.onSignIn} />}
          <p class="hint">{t('sessionNote')}</p>
        </div>
      </main>
    </>
  );
}

function AccountForm(props: { onSignIn(session: Session): void }) {
  return (
    <SecretForm
      id="account"
      label={t('apiKey')}
      help={t('apiKeyHelp')}
      check={async (apiKey) => {
        try {
          await callService(apiKey, 'Link/List', { 'pagination[pageSize]': 25 });
        } catch (error) {
          if (error instanceof ApiError && error.code === AUTH_FAILED) throw new Error(t('wrongKey'));
          if (error instanceof ApiError && error.code === 14) throw new Error(t('blockedAccount'));
          throw error;
        }
        props.onSignIn({ kind: 'account', apiKey });
      }}
    />
  );
}

function OperatorForm(props: { onSignIn(session: Session): void }) {
  return (
    <SecretForm
      id="operator"
      label={t('operatorToken')}
      help={t('operatorTokenHelp')}
      check={async (token) => {
        try {
          await callAdmin(token, 'operators/whoami');
        } catch (error) {
          if (error instanceof AdminError && error.status === 401) throw new Error(`${t('wrongToken')} ${error.message}`.trim());
          throw error;
        }
        props.onSignIn({ kind: 'operator', token });
      }}
    />
  );
}

/** One secret, its label and help, and the reason it was refused. */
function SecretForm(props: { id: string; label: string; help: string; check(secret: string): Promise<void> }) {
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    const value = secret.trim();
    if (!value) return setError(t('required'));
    setBusy(true);
    setError(null);
    try {
      await props.check(value);
    } catch (failure) {
      setError(failure instanceof ApiError ? t('errorPrefix', { message: failure.message }) : (failure as Error).message);
      setBusy(false);
    }
  };
  const inputId = `${props.id}-secret`;
  return (
    <div role="tabpanel" id={`panel-${props.id}`} aria-labelledby={`tab-${props.id}`}>
      <form class="form" onSubmit={submit} noValidate>
        <div class="field">
          <label for={inputId}>{props.label}</label>
          <input
            id={inputId}
            name={props.id === 'account' ? 'apiKey' : 'token'}
            type="password"
            autocomplete="off"
            spellcheck={false}
            value={secret}
            aria-describedby={`${inputId}-help`}
            aria-invalid={error ? true : undefined}
            onInput={(event) => setSecret(event.currentTarget.value)}
          />
          <p class="help" id={`${inputId}-help`}>
            {props.help}
          </p>
        </div>
        {error && <Notice kind="error">{error}</Notice>}
        <button type="submit" class="button primary wide" disabled={busy}>
          {busy ? t('signingIn') : t('signIn')}
        </button>
      </form>
    </div>
  );
}
