import { useCallback } from 'preact/hooks';
import { ApiError, AUTH_FAILED, callService, type Fields } from '../../shared/api';
import { t } from '../../shared/i18n';
import { Header } from '../../shared/layout';
import { useLocation } from '../../shared/router';
import { LinkPage } from './link-page';
import { LinksPage } from './links';
import { MessagePage } from './message-page';
import { MessagesPage } from './messages';
import { SendPage } from './send';

/** Calls one operation of the public API as the signed-in account. */
export type CallApi = <T>(operation: string, fields?: Fields) => Promise<T>;

/** The account's view: links, messages and the send form, each at its own path under /console/. */
export function AccountApp(props: { apiKey: string; onSignOut(): void }) {
  const { path } = useLocation();
  const { apiKey, onSignOut } = props;
  const call: CallApi = useCallback(
    async <T,>(operation: string, fields?: Fields) => {
      try {
        return await callService<T>(apiKey, operation, fields);
      } catch (error) {
        // The key was revoked while the console was open: back to the sign-in page.
        if (error instanceof ApiError && error.code === AUTH_FAILED) onSignOut();
        throw error;
      }
    },
    [apiKey, onSignOut],
  );
  const section = path.split('/')[2] || 'links';
  const id = Number(path.split('/')[3]);
  const nav = [
    { href: '/console/links', label: t('navLinks'), current: section === 'links' },
    { href: '/console/messages', label: t('navMessages'), current: section === 'messages' },
    { href: '/console/send', label: t('navSend'), current: section === 'send' },
  ];
  let page = <LinksPage call={call} />;
  if (section === 'links' && id > 0) page = <LinkPage key={id} call={call} id={id} />;
  else if (section === 'messages') page = id > 0 ? <MessagePage key={id} call={call} id={id} /> : <MessagesPage call={call} />;
  else if (section === 'send') page = <SendPage call={call} />;
  return (
    <>
      <Header nav={nav} onSignOut={onSignOut} />
      {page}
    </>
  );
}
