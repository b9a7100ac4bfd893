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

/**
 * A batch's events as its claim stores them, a few bytes a click (the claim is written for
 * every batch, so its size is a share of every click's cost): the first minute, then per
 * account its id, the zone its buckets were computed in, and its events as
 * `<link id><kind><minutes after the first>` (numbers in base 36; kind `+` a redirected human
 * click, `-` a human click not sent on, `*` a bot). Buckets are minutes, so the second a
 * click came in is not kept.
 */
export function packClicks(events: ClickEvent[], zoneOf: (accountId: number) => string): string {
  const first = Math.min(...events.map((event) => minuteOf(event.at)));
  const byAccount = new Map<number, string[]>();
  for (const event of events) {
    const kind = event.visitor === 'bot' ? '*' : event.redirected ? '+' : '-';
    const after = minuteOf(event.at) - first;
    const packed = `${event.linkId.toString(36)}${kind}${after === 0 ? '' : after.toString(36)}`;
    const account = byAccount.get(event.accountId);
    if (account) account.push(packed);
    else byAccount.set(event.accountId, [packed]);
  }
  const accounts = [...byAccount].map(([accountId, packed]) => `${accountId.toString(36)} ${zoneOf(accountId)} ${packed.join(',')}`);
  return [first.toString(36), ...accounts].join('|');
}

/** What a batch packed by packClicks adds to each link, as sumClicks gave it. */
export function deltasOfPacked(packed: string): LinkDelta[] {
  const [first = '0', ...accounts] = packed.split('|');
  const start = Number.parseInt(first, 36);
  const events: ClickEvent[] = [];
  const zones = new Map<number, string>();
  for (const account of accounts) {
    // The zone sits between the first and the last space (zone names have none).
    const accountId = Number.parseInt(account.slice(0, account.indexOf(' ')), 36);
    zones.set(accountId, account.slice(account.indexOf(' ') + 1, account.lastIndexOf(' ')));
    for (const click of account.slice(account.lastIndexOf(' ') + 1).split(',')) {
      const [, link = '', kind = '', after = ''] = /^([0-9a-z]+)([-+*])([0-9a-z]*)$/.exec(click) ?? [];
      const at = new Date((start + (after === '' ? 0 : Number.parseInt(after, 36))) * 60_000).toISOString();
      events.push({ linkId: Number.parseInt(link, 36), accountId, at, visitor: kind === '*' ? 'bot' : 'human', redirected: kind === '+' });
    }
  }
  return sumClicks(events, (accountId) => zones.get(accountId) ?? 'UTC');
}

function minuteOf(at: string): number {
  return Math.floor(Date.parse(at) / 60_000);
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
