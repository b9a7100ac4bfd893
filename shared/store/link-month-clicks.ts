import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { LinkSortField } from '../domain/link-listing';
import type { Link } from '../domain/links';
import type { SortOrder } from '../domain/paging';
import type { Store } from './client';
import { instantCondition } from './index-query';
import { EXPECT_MARGIN, type IndexRange } from './index-reader';
import { keys } from './keys';
import { type Flags, monthPartition } from './link-keys';
import { createdWithin, type LinkLists } from './link-lists';
import { migrationCompleted } from './migration-progress';

/** A range over more UTC months than this is read the other ways: each month is a Query per flag partition. */
export const MAX_MONTHS = 12;

/** The planner's view of the month way: its estimated read units, and the read itself. */
export interface MonthPlan {
  cost: number;
  read(): Promise<Link[]>;
}

/**
 * `sort[clickCnt]` with a createTs range (docs/data-model.md, 4.1 and 4.4): gsi19 holds every
 * link in a partition per flags and UTC month of creation, ordered by gsi3's own key (the rank
 * pass moves both), so the range's months merged are the account's clickCnt order kept to
 * those months: the months inside the range whole, the two at its edges checked on the
 * projected creation time. "The most clicked links created last week" reads about the page
 * times a month over a week, where gsi3 read the whole account's order kept to the week (the
 * page times the account over the week's links). Links are assumed spread evenly over time to
 * ask each partition for its share; the reader paces the rest. A range of one bound is closed
 * at the account's oldest or newest link (one entry of gsi1). Relied on only once the
 * migration has completed (every link in gsi19); past MAX_MONTHS months, undefined: the
 * planner reads the other ways.
 */
export class LinkMonthClicks {
  /** Pages answered from gsi19, for tests that check the path is taken. */
  pages = 0;
  #ready = false;

  constructor(
    private readonly store: Store,
    private readonly lists: LinkLists,
  ) {}

  /**
   * The plan for the page of `order` (clickCnt first) among the links with `flags` (their shares
   * `perFlag` of the account) created in [from, to], `total` of them, `offset` and `take` asked.
   */
  async plan(
    accountId: number,
    query: { flags: Flags[]; perFlag: number[]; from?: Date; to?: Date; order: SortOrder<LinkSortField> },
    page: { offset: number; take: number; total: number },
  ): Promise<MonthPlan | undefined> {
    const { flags, perFlag, order } = query;
    if ((!query.from && !query.to) || order[0]?.field !== 'clickCnt') return undefined;
    this.#ready ||= await migrationCompleted(this.store);
    if (!this.#ready) return undefined;
    const from = query.from ?? (await this.#createdAtEnd(accountId, 'oldest'));
    const to = query.to ?? (await this.#createdAtEnd(accountId, 'newest'));
    if (!from || !to) return undefined;
    const months = monthsOf(from, to);
    if (months.length > MAX_MONTHS) return undefined;
    const all = Math.max(
      1,
      perFlag.reduce((sum, n) => sum + n, 0),
    );
    const needed = Math.min(page.offset, page.total - page.offset - page.take) + page.take;
    const span = Math.max(to.getTime() - from.getTime(), 1);
    const where = [instantCondition('createdAt', from, to)];
    const ranges: IndexRange[] = months.flatMap(({ month, start, end }) => {
      const length = end - start;
      const inside = Math.min(end, to.getTime() + 1) - Math.max(start, from.getTime());
      // Its share of the range's links (`inside` / `span`), kept at a density of `inside` / `length`.
      const scanned = (needed * length) / span;
      return flags.flatMap((f, i) => {
        const share = (perFlag[i] ?? 0) / all;
        if (share === 0) return [];
        const expect = Math.max(Math.ceil((length / Math.max(inside, 1)) * EXPECT_MARGIN), Math.ceil(scanned * share * EXPECT_MARGIN)) + 1;
        const whole = start >= from.getTime() && end <= to.getTime() + 1;
        return [{ index: 'gsi19', pk: monthPartition(accountId, f, month), expect, ...(whole ? {} : { where }) }];
      });
    });
    const entries = ranges.reduce((sum, range) => sum + (range.expect ?? 0), 0);
    return {
      cost: entries / (this.lists.plan.monthEntriesPerRru ?? this.lists.plan.entriesPerRru) + page.take / 2,
      read: async () => {
        this.pages++;
        return this.lists.ordered(ranges, order, { ...page, keep: createdWithin(from, to) });
      },
    };
  }

  /** The creation time of the account's oldest or newest link: the first entry of gsi1 from that end. */
  async #createdAtEnd(accountId: number, end: 'oldest' | 'newest'): Promise<Date | undefined> {
    const { Items } = await this.store.db.send(
      new QueryCommand({
        TableName: this.store.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.accountLinks(accountId) },
        ProjectionExpression: 'createdAt',
        ScanIndexForward: end === 'oldest',
        Limit: 1,
      }),
    );
    const createdAt = Items?.[0]?.createdAt;
    return typeof createdAt === 'string' ? new Date(createdAt) : undefined;
  }
}

/** The UTC months [from, to] touches, each with its first instant and the next month's (ms). */
function monthsOf(from: Date, to: Date): { month: string; start: number; end: number }[] {
  const months = [];
  // Date.UTC carries a month past December into the next year.
  for (let month = from.getUTCMonth(); months.length <= MAX_MONTHS; month++) {
    const start = Date.UTC(from.getUTCFullYear(), month, 1);
    if (start > to.getTime()) break;
    months.push({ month: new Date(start).toISOString().slice(0, 7), start, end: Date.UTC(from.getUTCFullYear(), month + 1, 1) });
  }
  return months;
}
