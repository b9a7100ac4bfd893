import type { TargetedMouseEvent } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * The console's routes are plain paths under /console/ (no hash): history.pushState moves
 * between them and the server answers the console's page for any of them.
 */
const NAVIGATED = 'console:navigate';

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (path === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  dispatchEvent(new Event(NAVIGATED));
  window.scrollTo(0, 0);
}

/** The current path and query; the component re-renders when they change. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const changed = () => setVersion((version) => version + 1);
    addEventListener('popstate', changed);
    addEventListener(NAVIGATED, changed);
    return () => {
      removeEventListener('popstate', changed);
      removeEventListener(NAVIGATED, changed);
    };
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** A link within the console: an ordinary `<a href>` (open in a new tab works) that moves without a reload. */
export function onLinkClick(event: TargetedMouseEvent<HTMLAnchorElement>): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(event.currentTarget.getAttribute('href') ?? '/console/');
}
