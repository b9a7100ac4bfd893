import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { type Entry, type IndexRange, indexShape, queryOf, rangeKeyOf, type SortValue } from './index-query';
import { compareSortValues, compareText } from './sort-order';

export { type Condition, type Entry, type IndexRange, queryOf, type SortValue, TABLE } from './index-query';

/**
 * Reads of the list indexes: one or several ranges of an index read as one sequence in
 * sort-key order, paged with growing Limits so that a read costs about the entries it
 * needs (skip + take), never the partition. The list planners (link-lists.ts,
 * message-lists.ts) build on these.
 */

/** A read's first page asks for this much more than its share of the entries wanted foretells, so that one read mostly suffices. */
export const EXPECT_MARGIN = 1.25;

/**
 * Entries to read for `wanted` matches where a `share` (0–1] of the entries match, by the
 * counts: the expected number, a quarter more, and two standard deviations of it (the
 * entries before the `wanted`-th match are negative-binomial), so that a share that varies a
 * little along the index still mostly needs one read, not a second round trip (which asks
 * for twice as many again).
 */
export function entriesFor(wanted: number, share: number): number {
  if (wanted <= 0) return 0;
  const p = Math.min(1, Math.max(share, 1e-9));
  return Math.ceil((wanted / p) * EXPECT_MARGIN + (2 * Math.sqrt(wanted * (1 - p))) / p);
}

export interface ReadOptions {
  /** Sort key ascending. */
  forward: boolean;
  skip: number;
  take: number;
  /** Filter applied in memory; skip and take count kept entries only. */
  keep?: (entry: Entry) => boolean;
  /** Stop once this many entries have been read (whole pages: it may read a page past it); the answer then says `stopped`. */
  budget?: number;
}

/** The first Limit of a range read; each next page of the same range asks for twice as many. */
const FIRST_LIMIT_CAP = 1000;
const LIMIT_CAP = 10_000;
/**
 * A filtered read's next page asks for what the entries kept so far foretell (the rest it
 * needs over the share kept, a quarter more), when that is less than twice the last page:
 * a first page that fell a few entries short then costs a few more, not twice as much.
 */
const PACE_MARGIN = 1.25;
const PACED_LIMIT_FLOOR = 16;

/**
 * Several ranges of indexes with the same sort key type, read as one sequence ordered by
 * sort key. Sort keys must be unique within a range (the list keys end in the id): the
 * index's order of equal keys is unspecified. Equal keys in different ranges go by table pk.
 */
export async function readMerged(
  store: Store,
  ranges: IndexRange[],
  options: ReadOptions,
): Promise<{ entries: Entry[]; read: number; stopped?: boolean }> {
  const wanted = options.skip + options.take;
  // Filtered reads cannot know how far they go: their pages keep growing.
  const filtered = options.keep !== undefined || ranges.some((range) => range.where);
  const merged = new MergedRanges(store, ranges, options.forward, filtered ? Number.POSITIVE_INFINITY : wanted + 1);
  if (filtered) merged.keptWanted = wanted;
  const entries: Entry[] = [];
  let kept = 0;
  while (kept < wanted) {
    if (options.budget !== undefined && merged.read >= options.budget && !merged.buffered()) return { entries, read: merged.read, stopped: true };
    const entry = await merged.next();
    if (!entry) break;
    if (options.keep && !options.keep(entry)) continue;
    if (kept >= options.skip) entries.push(entry);
    merged.kept = ++kept;
  }
  return { entries, read: merged.read };
}

/**
 * The page at `offset`. With the total known (of kept entries, when `keep` is given), a page
 * past the middle is read from the other end and put back in order: the last page costs
 * what the first does, and the dearest page is the middle one.
 */
export async function readPage(
  store: Store,
  ranges: IndexRange[],
  options: { forward: boolean; offset: number; take: number; total?: number; keep?: (entry: Entry) => boolean },
): Promise<Entry[]> {
  const { forward, offset, take, total, keep } = options;
  if (total !== undefined) {
    if (offset >= total) return [];
    const fromEnd = total - offset - take;
    if (fromEnd < offset) {
      const skip = Math.max(0, fromEnd);
      const { entries } = await readMerged(store, ranges, { forward: !forward, skip, take: total - offset - skip, keep });
      return entries.reverse();
    }
  }
  return (await readMerged(store, ranges, { forward, skip: offset, take, keep })).entries;
}

/** How many entries the ranges hold (those their conditions pass): a COUNT query, unless `keep` filters, then a paged read of the entries. */
export async function countRanges(store: Store, ranges: IndexRange[], keep?: (entry: Entry) => boolean): Promise<number> {
  // The ranges are counted side by side: a call waits for the longest, not for their sum.
  const counts = await Promise.all(
    ranges.map(async (range) => {
      let count = 0;
      if (keep) {
        for await (const entry of scanRanges(store, [range], true)) if (keep(entry)) count++;
        return count;
      }
      let startKey: Entry | undefined;
      do {
        const page: QueryCommandOutput = await store.db.send(
          new QueryCommand({ ...queryOf(store, range, true), Select: 'COUNT', ExclusiveStartKey: startKey }),
        );
        count += page.Count ?? 0;
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return count;
    }),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

/** Every entry of the ranges in sort-key order, read page by page: memory holds a page per range, never the ranges. */
export async function* scanRanges(store: Store, ranges: IndexRange[], forward: boolean): AsyncIterable<Entry> {
  const merged = new MergedRanges(store, ranges, forward, Number.POSITIVE_INFINITY);
  for (let entry = await merged.next(); entry; entry = await merged.next()) yield entry;
}

/** A k-way merge over lazily paged ranges. */
class MergedRanges {
  readonly #cursors: RangeCursor[];
  readonly #forward: boolean;
  /** A filtered read's kept entries: how many it wants, and has so far (set by readMerged). */
  keptWanted: number | undefined;
  kept = 0;
  #taken = 0;
  #started = false;

  constructor(store: Store, ranges: IndexRange[], forward: boolean, wanted: number) {
    const sortKeys = new Set(ranges.map((range) => indexShape(range.index).sortKeyType));
    if (sortKeys.size > 1) throw new Error('Merged index ranges must share a sort key type');
    // Each range may supply the whole read, but most of it rarely does: start it at its share.
    const firstLimit = Math.min(FIRST_LIMIT_CAP, ranges.length === 1 ? wanted : Math.ceil(wanted / ranges.length) + 1);
    this.#cursors = ranges.map(
      (range) =>
        new RangeCursor(
          store,
          range,
          forward,
          Math.max(1, range.expect === undefined ? firstLimit : Math.min(FIRST_LIMIT_CAP, wanted, range.expect)),
          wanted,
          (cursor) => this.#paced(cursor),
        ),
    );
    this.#forward = forward;
  }

  get read(): number {
    return this.#cursors.reduce((sum, cursor) => sum + cursor.read, 0);
  }

  /** Whether every range still has entries read and not yet taken, or none left to read: the next entry costs no read. */
  buffered(): boolean {
    return this.#cursors.every((cursor) => cursor.buffered());
  }

  async next(): Promise<Entry | undefined> {
    // Every range's first page is asked for at once: a merge of n ranges starts after one round trip, not n.
    if (!this.#started) {
      this.#started = true;
      await Promise.all(this.#cursors.map((cursor) => cursor.peek()));
    }
    let best: RangeCursor | undefined;
    let bestEntry: Entry | undefined;
    for (const cursor of this.#cursors) {
      const entry = await cursor.peek();
      if (entry && (!bestEntry || this.#before(entry, cursor, bestEntry, best))) {
        best = cursor;
        bestEntry = entry;
      }
    }
    if (best) this.#taken++;
    return best?.take();
  }

  /** The Limit the kept share so far foretells for `cursor`'s next page, once something was kept. */
  #paced(cursor: RangeCursor): number | undefined {
    if (this.keptWanted === undefined || this.kept === 0 || this.#taken === 0) return undefined;
    // A range whose read checks conditions returns fewer entries than it reads: its Limit counts those read.
    if (cursor.returned === 0) return undefined;
    const more = ((this.keptWanted - this.kept) * this.#taken * PACE_MARGIN) / this.kept;
    return Math.max(PACED_LIMIT_FLOOR, Math.ceil((((more * cursor.taken) / this.#taken) * cursor.read) / cursor.returned));
  }

  #before(entry: Entry, cursor: RangeCursor, other: Entry, otherCursor: RangeCursor | undefined): boolean {
    const difference =
      compareSortValues(cursor.orderOf(entry), (otherCursor ?? cursor).orderOf(other)) || compareText(String(entry.pk), String(other.pk));
    return this.#forward ? difference < 0 : difference > 0;
  }
}

class RangeCursor {
  readonly sortKey: string;
  /** Entries read (their read units paid), and of them those returned: fewer when the range has conditions. */
  read = 0;
  returned = 0;
  taken = 0;
  #page: Entry[] = [];
  #position = 0;
  #startKey: Entry | undefined;
  #done = false;
  #limit: number;

  constructor(
    private readonly store: Store,
    private readonly range: IndexRange,
    private readonly forward: boolean,
    firstLimit: number,
    private readonly wanted: number,
    private readonly paced: (cursor: RangeCursor) => number | undefined = () => undefined,
  ) {
    this.sortKey = rangeKeyOf(indexShape(range.index));
    this.#limit = firstLimit;
  }

  orderOf(entry: Entry): SortValue {
    return this.range.order ? this.range.order(entry) : entry[this.sortKey];
  }

  async peek(): Promise<Entry | undefined> {
    while (this.#position >= this.#page.length && !this.#done) await this.#fetch();
    return this.#page[this.#position];
  }

  take(): Entry | undefined {
    this.taken++;
    return this.#page[this.#position++];
  }

  buffered(): boolean {
    return this.#position < this.#page.length || this.#done;
  }

  async #fetch(): Promise<void> {
    if (this.read > 0) this.#limit = Math.min(this.#limit, this.paced(this) ?? this.#limit);
    const result: QueryCommandOutput = await this.store.db.send(
      new QueryCommand({ ...queryOf(this.store, this.range, this.forward), Limit: this.#limit, ExclusiveStartKey: this.#startKey }),
    );
    this.#page = result.Items ?? [];
    this.#position = 0;
    this.read += result.ScannedCount ?? this.#page.length;
    this.returned += this.#page.length;
    this.#startKey = result.LastEvaluatedKey;
    this.#done = !this.#startKey;
    this.#limit = Math.min(LIMIT_CAP, Math.max(this.#limit * 2, 1), Math.max(1, this.wanted - this.read + 1));
  }
}
