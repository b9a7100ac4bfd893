import type { Account } from './accounts';
import type { Counts } from './clicks';
import type { LinkStore } from './link-service';
import { type StatsType, statsInterval } from './stats';
import type { Clock } from './time';

export interface BucketReader {
  buckets(linkId: number, type: StatsType, fromParam: string, toParam: string): Promise<Map<string, Counts>>;
}

export const MAX_STATS_IDS = 5;

/** One row of Link/GetStats: `param` plus `clicksN` / `redirectsN` per requested id. */
export type StatsItem = { param: string } & Record<string, number | string>;

export class StatsService {
  constructor(private readonly deps: { links: LinkStore; buckets: BucketReader; clock: Clock }) {}

  /**
   * Link/GetStats. Ids are reported in request order (N = position); ids that are not the
   * account's, or not links at all, read as links without clicks. Every period of the
   * interval has an item, zero-filled.
   */
  async linkStats(
    account: Account,
    ids: (number | undefined)[],
    type: StatsType,
    from: Date | undefined,
    to: Date | undefined,
  ): Promise<{ items: StatsItem[]; totals: string }> {
    const interval = statsInterval(type, from, to, this.deps.clock(), account.timeZone);
    const [first] = interval.params;
    const last = interval.params.at(-1);
    // The operation refuses dateTo before dateFrom, so the interval touches a bucket at least.
    if (first === undefined || last === undefined) return { items: [], totals: '0' };
    const perLink = await Promise.all(
      ids.map(async (id) => {
        if (id === undefined) return new Map<string, Counts>();
        const link = await this.deps.links.get(id, { consistent: false, counts: false });
        if (!link || link.accountId !== account.id) return new Map<string, Counts>();
        return this.deps.buckets.buckets(id, type, first, last);
      }),
    );
    let total = 0;
    const items = interval.params.map((param) => {
      const item: StatsItem = { param };
      perLink.forEach((buckets, position) => {
        const counts = buckets.get(param) ?? { clicks: 0, redirects: 0 };
        item[`clicks${position}`] = counts.clicks;
        item[`redirects${position}`] = counts.redirects;
        total += counts.clicks;
      });
      return item;
    });
    return { items, totals: String(total) };
  }
}
