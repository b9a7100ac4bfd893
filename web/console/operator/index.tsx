import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { callAdmin } from '../../shared/api';
import { t } from '../../shared/i18n';
import { Header, Notice, Page } from '../../shared/layout';

/** The operator's view of the console, mounted by the shell once an operator token signed in. */
export function OperatorApp(props: { token: string; onSignOut(): void }): JSX.Element {
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    callAdmin<{ tokenId: string; name: string }>(props.token, 'operators/whoami')
      .then((who) => setName(who.name))
      .catch(() => setName(null));
  }, [props.token]);
  return (
    <>
      <Header badge={t('operatorTab')} onSignOut={props.onSignOut} />
      <Page title={t('operatorTab')}>
        {name && <p>{t('signedInAs', { name })}</p>}
        <Notice kind="info">{t('operatorPending')}</Notice>
      </Page>
    </>
  );
}
