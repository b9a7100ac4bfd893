import { createHash } from 'node:crypto';
import { isbot } from 'isbot';
import { bucketsOf, type StatsType } from './stats';

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

/** What one batch adds to one link: its totals and each bucket it touches. */
export interface LinkDelta extends Counts {
  linkId: number;
  accountId: number;
  bots: number;
  /** `[type, param, clicks, redirects]` per bucket. */
  buckets: [StatsType, string, number, number][];
}

/**
 * Sums a batch of click events per link and per bucket, so the aggregator writes once per
 * link per bucket however many clicks the batch holds. `zoneOf` gives each account's zone.
 */
export function sumClicks(events: ClickEvent[], zoneOf: (accountId: number) => string): LinkDelta[] {
  const links = new Map<number, { delta: LinkDelta; buckets: Map<string, [StatsType, string, number, number]> }>();
  for (const event of events) {
    let link = links.get(event.linkId);
    if (!link) {
      link = { delta: { linkId: event.linkId, accountId: event.accountId, clicks: 0, redirects: 0, bots: 0, buckets: [] }, buckets: new Map() };
      links.set(event.linkId, link);
    }
    if (event.visitor === 'bot') {
      link.delta.bots++;
      continue;
    }
    const redirects = event.redirected ? 1 : 0;
    link.delta.clicks++;
    link.delta.redirects += redirects;
    const buckets = bucketsOf(new Date(event.at), zoneOf(event.accountId));
    for (const type of Object.keys(buckets) as StatsType[]) {
      const id = `${type}#${buckets[type]}`;
      const bucket = link.buckets.get(id) ?? [type, buckets[type], 0, 0];
      bucket[2]++;
      bucket[3] += redirects;
      link.buckets.set(id, bucket);
    }
  }
  return [...links.values()].map(({ delta, buckets }) => ({ ...delta, buckets: [...buckets.values()] }));
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
