import { compareLinks, createdBounds, DEFAULT_LINK_ORDER, type LinkPage, type LinkSortField } from '../domain/link-listing';
import type { LinkListQuery } from '../domain/link-service';
import type { Link } from '../domain/links';
import type { SortOrder } from '../domain/paging';
import type { Store } from './client';
import type { CountedWrites } from './counted-writes';
import { countByHours } from './hour-counts';
import { instantCondition } from './index-query';
import { countRanges, type Entry, EXPECT_MARGIN, type IndexRange, readMerged, readPage, type SortValue, scanRanges } from './index-reader';
import { keys } from './keys';
import { readLinks, withClickItems } from './link-clicks';
import { linkCounts } from './link-counts';
import { entryId, type Flags, flagsMatching, LINK_SCHEMA, linkPartition, onceEach, SORT_INDEX, tieRangeOfKey } from './link-keys';
import { LinkMonthClicks } from './link-month-clicks';
import { LinkSearch } from './link-search';
import { countBefore, readSpan, unsafeBound } from './link-spans';
import { sortKeyNamed } from './table';

/** The planner's figures: tests move them to drive every path on small data. */
export interface ListPlan {
  /** Index entries per read unit on the list indexes (keys and a few short attributes). */
  entriesPerRru: number;
  /**
   * Default-order pages within this many pages of an end are read from gsi1, whose entries
   * are whole links (~13 a read unit, and a BatchGetItem of their click items, 0.5 a link);
   * further in, gsi7's entries (~55 a read unit) and a BatchGetItem of the page (link and
   * click items, 1 a link) read less.
   */
  wholeItemPages: number;
  /** gsi19's entries per read unit, when not entriesPerRru's (tests make them free to take the month way on small data). */
  monthEntriesPerRru?: number;
}

export const LIST_PLAN: ListPlan = { entriesPerRru: 55, wholeItemPages: 6 };

/**
 * Link/List from the indexes (docs/data-model.md, 4.1 and 4.4): a planner that picks the
 * flag partitions of the first sort field's index, reads the page from the nearer end once
 * the exact total is known (from the counters), and fetches the page's links with one
 * BatchGetItem. A createTs range is a key condition on the createTs order; with another
 * sort it is a filter on the projected createdAt, or, when the range holds few links, the
 * range is read whole and its links ordered in a bounded heap, or, for clickCnt, the range's
 * months in gsi19 (link-month-clicks.ts), whichever reads less.
 */
export class LinkLists {
  readonly #search: LinkSearch;
  readonly months: LinkMonthClicks;

  constructor(
    private readonly store: Store,
    readonly counted: CountedWrites,
    readonly plan: ListPlan = LIST_PLAN,
  ) {
    this.#search = new LinkSearch(store, this);
    this.months = new LinkMonthClicks(store, this);
  }

  async list(accountId: number, query: LinkListQuery): Promise<LinkPage> {
    if (query.query !== undefined) return this.#search.list(accountId, query);
    const flags = flagsMatching(query.status, query.moderatorStatus);
    const { from, to } = createdBounds(query);
    if (from && to && from > to) return { items: [], totalItemCount: 0 };
    const total = await this.count(accountId, flags, from, to);
    const { pageSize, currentPage } = query.pagination;
    const offset = pageSize * currentPage;
    if (offset >= total) return { items: [], totalItemCount: total };
    const order = query.sort.length > 0 ? query.sort : DEFAULT_LINK_ORDER;
    const [first] = order as [SortOrder<LinkSortField>[number]];
    const forward = first.direction === 'ASC';
    const take = Math.min(pageSize, total - offset);
    const fromEnd = Math.min(offset, total - offset - take);

    if (first.field === 'createTs') {
      if (flags.length === 4 && fromEnd <= this.plan.wholeItemPages * take) {
        const page = await this.#wholeItems(
          { index: 'gsi1', pk: keys.accountLinks(accountId), ...createdKeyRange(from, to) },
          forward,
          offset,
          take,
          total,
        );
        if (page) return { items: page, totalItemCount: total };
      }
      const ranges = flags.map((f) => ({ index: 'gsi7', pk: linkPartition(accountId, f), ...createdKeyRange(from, to) }));
      const entries = await readPage(this.store, ranges, { forward, offset, take, total });
      return { items: await this.links(entries.map((entry) => Number(entry.id))), totalItemCount: total };
    }

    const ranges = this.sortRanges(accountId, flags, first.field);
    if (!from && !to) return { items: await this.ordered(ranges, order, { offset, take, total }), totalItemCount: total };
    const perFlag = await this.flagCounts(accountId, flags);
    const all = perFlag.reduce((sum, n) => sum + n, 0);
    // Reading the sort's order and keeping the range's links reads about (page + nearer end) × all / total
    // entries; reading the range whole reads its links once each (BatchGetItem, ~0.5 RRU a link).
    const bySort = this.filteredReadCost(fromEnd + take, all, total) + take / 2;
    // The clickCnt order of the range's months (gsi19), unless it reads more than either.
    const byMonths = await this.months.plan(accountId, { flags, perFlag, from, to, order }, { offset, take, total });
    if (byMonths && byMonths.cost <= Math.min(bySort, total / 2)) return { items: await byMonths.read(), totalItemCount: total };
    if (total / 2 < bySort) {
      const created = flags.map((f) => ({ index: 'gsi7', pk: linkPartition(accountId, f), ...createdKeyRange(from, to) }));
      return { items: await this.best(created, order, offset, take), totalItemCount: total };
    }
    const keep = createdWithin(from, to);
    // The read checks the range itself: the entries outside it are not sent.
    const where = [instantCondition('createdAt', from, to)];
    const expected = this.expecting(
      ranges.map((range) => ({ ...range, where })),
      perFlag,
      this.expectedReads(fromEnd + take, all, total),
      this.expectedReads(1, all, total),
    );
    return { items: await this.ordered(expected, order, { offset, take, total, keep }), totalItemCount: total };
  }

  /**
   * The flag partitions, each expected to supply its share of a filtered read's `expect`
   * entries by its count: the reader's first page of each asks for that (blocked links' small
   * partitions little), not for a fixed thousand; but at least `floor`, what finding one kept
   * entry takes: a small partition read under a condition is then read in one request, not in
   * pages doubling from one or two that the condition leaves empty.
   */
  expecting(ranges: IndexRange[], perFlag: number[], expect: number, floor = 1): IndexRange[] {
    const all = Math.max(
      1,
      perFlag.reduce((sum, n) => sum + n, 0),
    );
    return ranges.map((range, i) => ({ ...range, expect: Math.max(floor, Math.ceil((expect * (perFlag[i] ?? 0)) / all) + 1) }));
  }

  /**
   * A page near an end from gsi1, whose entries are whole links: read from the nearer end
   * without a filter. gsi1 also holds links written before schema 2, which lists do not
   * show until migrated: when the read meets one, undefined (the caller reads gsi7).
   */
  async #wholeItems(range: IndexRange, forward: boolean, offset: number, take: number, total: number): Promise<Link[] | undefined> {
    const fromEnd = Math.min(offset, total - offset - take);
    const nearStart = fromEnd === offset;
    const { entries } = await readMerged(this.store, [range], { forward: nearStart ? forward : !forward, skip: 0, take: fromEnd + take });
    if (entries.length < fromEnd + take || entries.some((entry) => entry.schema !== LINK_SCHEMA)) return undefined;
    const page = await withClickItems(this.store, entries.slice(fromEnd));
    return nearStart ? page : page.reverse();
  }

  /**
   * Read units a filtered read costs for a page (`needed` kept entries from the nearer end,
   * `kept` of `all` entries kept): in proportion to how rare the kept entries are.
   */
  filteredReadCost(needed: number, all: number, kept: number): number {
    return this.expectedReads(needed, all, kept) / this.plan.entriesPerRru;
  }

  /** The entries a filtered read is expected to read to keep `needed` (with a margin): the reader's first pages ask for as many. */
  expectedReads(needed: number, all: number, kept: number): number {
    return Math.min(all, Math.ceil(((needed * all) / Math.max(1, kept)) * EXPECT_MARGIN)) + 1;
  }

  /** The flag partitions of a sort field's index. */
  sortRanges(accountId: number, flags: Flags[], field: LinkSortField): IndexRange[] {
    return flags.map((f) => ({ index: SORT_INDEX[field], pk: linkPartition(accountId, f) }));
  }

  /**
   * The page of an index order, with later sort fields applied: each run of links equal in
   * the first field that touches the page is read whole and ordered in memory, so a
   * secondary sort costs the runs at the page's edges (and a count of the entries before).
   * `distinct`: a link may be in several ranges (a comment word item each), with the same
   * key: each read keeps it once.
   */
  async ordered(
    ranges: IndexRange[],
    order: SortOrder<LinkSortField>,
    page: { offset: number; take: number; total: number; keep?: ((entry: Entry) => boolean) | undefined; distinct?: boolean },
  ): Promise<Link[]> {
    const [first, ...rest] = order as [SortOrder<LinkSortField>[number], ...SortOrder<LinkSortField>];
    const forward = first.direction === 'ASC';
    // A fresh filter for each read: what one read kept says nothing of the next.
    const keeping = () => (page.distinct ? onceEach(page.keep) : page.keep);
    const entries = await readPage(this.store, ranges, { forward, offset: page.offset, take: page.take, total: page.total, keep: keeping() });
    const sortKey = sortKeyNamed(ranges[0]?.index ?? '');
    const head = entries[0];
    const tail = entries.at(-1);
    const firstRun = head && tieRangeOfKey(first.field, head[sortKey]);
    const lastRun = tail && tieRangeOfKey(first.field, tail[sortKey]);
    if (rest.length === 0 || !firstRun || !lastRun) return this.links(entries.map(entryId));
    const span: [SortValue, SortValue] = forward ? [firstRun[0], lastRun[1]] : [lastRun[0], firstRun[1]];
    const start = forward ? firstRun[0] : firstRun[1];
    const earlier = ranges.map((range) => ({ ...range, sk: forward ? { to: below(start) } : { from: above(start) } }));
    // Counted in one merged read when a link may be in two ranges: a count per range would count it twice.
    const once = page.distinct ? onceEach(page.keep) : undefined;
    const before = unsafeBound(start)
      ? await countBefore(this.store, ranges, start, forward, once ?? page.keep)
      : once
        ? await countBefore(this.store, earlier, undefined, forward, once)
        : await countRanges(this.store, earlier, page.keep);
    const runs = await readSpan(this.store, ranges, span, forward, keeping());
    const links = (await this.links(runs.map(entryId))).sort(compareLinks(order));
    return links.slice(page.offset - before, page.offset - before + page.take);
  }

  /** The page of the links in `ranges` by the whole order, keeping only the best offset + take in memory. */
  async best(ranges: IndexRange[], order: SortOrder<LinkSortField>, offset: number, take: number): Promise<Link[]> {
    const compare = compareLinks(order);
    let kept: Link[] = [];
    let batch: number[] = [];
    const fold = async () => {
      kept.push(...(await this.links(batch)));
      batch = [];
      if (kept.length > 2 * (offset + take)) kept = kept.sort(compare).slice(0, offset + take);
    };
    for await (const entry of scanRanges(this.store, ranges, true)) {
      batch.push(Number(entry.id));
      if (batch.length === 100) await fold();
    }
    await fold();
    return kept.sort(compare).slice(offset, offset + take);
  }

  /** Links by id in the order given, with their totals; deleted ones are left out. */
  async links(ids: number[]): Promise<Link[]> {
    if (ids.length === 0) return [];
    const byId = await readLinks(this.store, ids, (item) => !item.deleted && item.schema === LINK_SCHEMA);
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** The account's links with each of the flags, from the counters. */
  async flagCounts(accountId: number, flags: Flags[]): Promise<number[]> {
    const [cells = {}] = await this.counted.read([linkCounts.all(accountId)], true);
    return flags.map((f) => cells[f] ?? 0);
  }

  /** The account's links with the given flags, created within [from, to] when given: from the counters and the edges. */
  async count(accountId: number, flags: Flags[], from?: Date, to?: Date): Promise<number> {
    if (!from && !to) return (await this.flagCounts(accountId, flags)).reduce((sum, n) => sum + n, 0);
    return countByHours(this.counted, {
      pk: linkCounts.pk(accountId),
      daySk: linkCounts.daySk,
      cells: (hour) => flags.map((f) => linkCounts.hourCell(hour, f)),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      countEdge: (edgeFrom, edgeTo) =>
        countRanges(
          this.store,
          flags.map((f) => ({ index: 'gsi7', pk: linkPartition(accountId, f), ...createdKeyRange(edgeFrom, edgeTo) })),
        ),
    });
  }
}

/** The key condition of creation instants [from, to] on a `<createdAt>#<id>` sort key. */
export function createdKeyRange(from?: Date, to?: Date): Pick<IndexRange, 'sk'> {
  const low = from?.toISOString();
  const high = to && `${to.toISOString()}#~`;
  if (low && high) return { sk: { between: [low, high] } };
  if (low) return { sk: { from: low } };
  if (high) return { sk: { to: high } };
  return {};
}

/** A filter on the projected createdAt, for orders other than creation. */
export function createdWithin(from?: Date, to?: Date): (entry: Entry) => boolean {
  const low = from?.toISOString();
  const high = to?.toISOString();
  return (entry: Entry) => (low === undefined || String(entry.createdAt) >= low) && (high === undefined || String(entry.createdAt) <= high);
}

/** The greatest key below a run's first key (string keys there end in a separator, so the run's start itself is no key). */
function below(key: SortValue): SortValue {
  return typeof key === 'string' ? key : narrow(BigInt(key) - 1n);
}

function above(key: SortValue): SortValue {
  return typeof key === 'string' ? key : narrow(BigInt(key) + 1n);
}

function narrow(value: bigint): number | bigint {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}
