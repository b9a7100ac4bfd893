/**
 * Who is signed in: an account by its API key or an operator by its token. Kept in
 * sessionStorage only (gone with the tab), never in localStorage, a cookie or a URL.
 */
export type Session = { kind: 'account'; apiKey: string } | { kind: 'operator'; token: string };

const STORAGE_KEY = 'shortsms.session';

export function loadSession(): Session | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Session | null;
    if (saved?.kind === 'account' && typeof saved.apiKey === 'string') return saved;
    if (saved?.kind === 'operator' && typeof saved.token === 'string') return saved;
  } catch {
    // A damaged entry is the same as none.
  }
  return null;
}

export function saveSession(session: Session | null): void {
  if (session) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(STORAGE_KEY);
}
