import type { JSX } from 'preact';
import { useCallback } from 'preact/hooks';
import { AdminError, callAdmin } from '../../shared/api';
import { Header } from '../../shared/layout';
import { useLocation } from '../../shared/router';
import { useLoad } from '../../shared/use-load';
import { AccountPage } from './account-page';
import { AccountsPage } from './accounts';
import { AmbiguousPage } from './ambiguous';
import { AuditPage } from './audit';
import { ModerationPage } from './moderation';
import type { CallAdmin } from './parts';
import { t } from './strings';
import './operator.css';

const SECTIONS = ['accounts', 'moderation', 'messages', 'audit'] as const;
type Section = (typeof SECTIONS)[number];

/**
 * The operator's view of the console, mounted by the shell once an operator token signed
 * in: accounts with their keys, signatures, tariffs and webhooks; the moderation queue;
 * ambiguous messages; the audit log. Each at its own path under /console/operator/.
 */
export function OperatorApp(props: { token: string; onSignOut(): void }): JSX.Element {
  const { token, onSignOut } = props;
  const { path } = useLocation();
  const call: CallAdmin = useCallback(
    async <T,>(adminPath: string, options?: Parameters<CallAdmin>[1]) => {
      try {
        return await callAdmin<T>(token, adminPath, options);
      } catch (error) {
        // The token was revoked while the console was open: back to the sign-in page.
        if (error instanceof AdminError && error.status === 401) onSignOut();
        throw error;
      }
    },
    [token, onSignOut],
  );
  const who = useLoad(() => call<{ tokenId: string; name: string }>('operators/whoami'), [call]);
  const [, , , part, idPart] = path.split('/');
  const section: Section = SECTIONS.find((name) => name === part) ?? 'accounts';
  const id = Number(idPart);
  const nav = [
    { href: '/console/operator/accounts', label: t('navAccounts'), current: section === 'accounts' },
    { href: '/console/operator/moderation', label: t('navModeration'), current: section === 'moderation' },
    { href: '/console/operator/messages', label: t('navAmbiguous'), current: section === 'messages' },
    { href: '/console/operator/audit', label: t('navAudit'), current: section === 'audit' },
  ];
  let page = <AccountsPage call={call} />;
  if (section === 'accounts' && id > 0) page = <AccountPage key={id} call={call} id={id} />;
  else if (section === 'moderation') page = <ModerationPage call={call} />;
  else if (section === 'messages') page = <AmbiguousPage call={call} />;
  else if (section === 'audit') page = <AuditPage call={call} />;
  const badge = who.data ? t('operatorBadge', { name: who.data.name }) : t('operator');
  return (
    <>
      <Header nav={nav} badge={badge} onSignOut={onSignOut} />
      {page}
    </>
  );
}
