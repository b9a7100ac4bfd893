import type { ComponentChildren } from 'preact';
import { LANGUAGES, language, setLanguage, t } from './i18n';
import { onLinkClick } from './router';

export interface NavItem {
  href: string;
  label: string;
  /** Whether the current page belongs to this item (marked with aria-current). */
  current: boolean;
}

/** The console's header: the name, the view's navigation, the language switch and signing out. */
export function Header(props: { nav?: readonly NavItem[]; onSignOut?: () => void; badge?: string }) {
  return (
    <header class="header">
      <div class="header-inner">
        <a class="brand" href="/console/" onClick={onLinkClick}>
          <span class="brand-mark" aria-hidden="true">
            ↗
          </span>
          <span>{t('appName')}</span>
          {props.badge && <span class="brand-badge">{props.badge}</span>}
        </a>
        {props.nav && (
          <nav class="nav" aria-label={t('navMain')}>
            {props.nav.map((item) => (
              <a key={item.href} href={item.href} onClick={onLinkClick} aria-current={item.current ? 'page' : undefined}>
                {item.label}
              </a>
            ))}
          </nav>
        )}
        <div class="header-tools">
          <LanguageSwitch />
          {props.onSignOut && (
            <button type="button" class="button ghost" onClick={props.onSignOut}>
              {t('signOut')}
            </button>
          )}
        </div>
      </div>
    </header>
  );
}

function LanguageSwitch() {
  return (
    <fieldset class="lang-switch">
      <legend class="visually-hidden">{t('language')}</legend>
      {LANGUAGES.map((code) => (
        <button key={code} type="button" lang={code} aria-pressed={language() === code} onClick={() => setLanguage(code)}>
          {code.toUpperCase()}
        </button>
      ))}
    </fieldset>
  );
}

/** A page's main area: its title, actions beside it, and its content. */
export function Page(props: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  return (
    <main class="page" id="main">
      <div class="page-head">
        <h1>{props.title}</h1>
        {props.actions && <div class="page-actions">{props.actions}</div>}
      </div>
      {props.children}
    </main>
  );
}

/** A message to the user about what just happened; read out by screen readers. */
export function Notice(props: { kind: 'error' | 'success' | 'info'; children: ComponentChildren }) {
  return (
    <div class={`notice ${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}
