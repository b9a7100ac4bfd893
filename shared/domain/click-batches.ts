import type { ClickEvent, Counts } from './clicks';
import { bucketsOf, type StatsType } from './stats';

/*
 * A batch of clicks as the aggregator writes it: what it adds to each link and bucket, and
 * the batch packed in its claim. Kept apart from clicks.ts (the redirect's event and its bot
 * detector) so that what stores and reads batches does not bundle the detector.
 */

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
