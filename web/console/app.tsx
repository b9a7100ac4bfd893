import { useState } from 'preact/hooks';
import { t, useLanguage } from '../shared/i18n';
import { navigate } from '../shared/router';
import { loadSession, type Session, saveSession } from '../shared/session';
import { AccountApp } from './account/account-app';
import { OperatorApp } from './operator';
import { SignIn } from './sign-in';

/** The shell: signed out, the sign-in page; signed in, the account's or the operator's view. */
export function App() {
  useLanguage();
  const [session, setSession] = useState<Session | null>(loadSession);
  const signIn = (next: Session) => {
    saveSession(next);
    setSession(next);
    if (next.kind === 'operator' && !location.pathname.startsWith('/console/operator/')) navigate('/console/operator/');
    if (next.kind === 'account' && location.pathname.startsWith('/console/operator/')) navigate('/console/links');
  };
  const signOut = () => {
    saveSession(null);
    setSession(null);
    navigate('/console/');
  };
  return (
    <>
      <a class="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      {session === null ? (
        <SignIn onSignIn={signIn} />
      ) : session.kind === 'operator' ? (
        <OperatorApp token={session.token} onSignOut={signOut} />
      ) : (
        <AccountApp apiKey={session.apiKey} onSignOut={signOut} />
      )}
    </>
  );
}
