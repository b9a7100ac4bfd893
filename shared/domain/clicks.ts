import { createHash } from 'node:crypto';
import { isbot } from 'isbot';

/**
 * A request for an existing link's short URL, as the redirect reports it. A click is a
 * human request whatever its outcome; a redirect is a click sent on to the full link;
 * bots and link-preview fetchers are counted apart and in neither.
 */
export interface ClickEvent {
  linkId: number;
  accountId: number;
  /** ISO-8601 UTC instant of the request. */
  at: string;
  visitor: 'human' | 'bot';
  redirected: boolean;
}

/**
 * The event as the click queue carries it: JSON, written out directly because it is on
 * the redirect's path (every field is a number, a boolean, a fixed word or an ISO time,
 * none of which needs escaping). bench:redirect, warm cache, 2026-11-24: with this, the hit
 * answered without a promise and the lazy event headers made plain, 74 and 77 µs CPU/req
 * against 59–72 µs with them.
 */
export function clickEventBody(click: ClickEvent): string {
  return `{"linkId":${click.linkId},"accountId":${click.accountId},"at":"${click.at}","visitor":"${click.visitor}","redirected":${click.redirected}}`;
}

/** Browsers always send a User-Agent; an empty one is a script. */
export function visitorOf(userAgent: string | undefined): ClickEvent['visitor'] {
  if (!userAgent) return 'bot';
  let visitor = visitorsByAgent.get(userAgent);
  if (visitor === undefined) {
    visitor = isbot(userAgent) ? 'bot' : 'human';
    // A handful of agent strings make up most traffic; remembering them spares the
    // detector's large pattern on the redirect path.
    if (visitorsByAgent.size >= 1000) visitorsByAgent.clear();
    visitorsByAgent.set(userAgent, visitor);
  }
  return visitor;
}

const visitorsByAgent = new Map<string, ClickEvent['visitor']>();

export interface Counts {
  clicks: number;
  redirects: number;
}

/** A short, stable fingerprint of a queue message id, as the ledger remembers it. */
export function messageFingerprint(messageId: string): string {
  return createHash('sha256').update(messageId).digest('base64url').slice(0, 12);
}

/** The same set of messages always gives the same batch key, whatever their order. */
export function batchKeyOf(fingerprints: string[]): string {
  return createHash('sha256')
    .update([...fingerprints].sort().join(','))
    .digest('base64url')
    .slice(0, 22);
}
