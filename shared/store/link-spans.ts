import type { Store } from './client';
import { type Entry, type IndexRange, readMerged, type SortValue, scanRanges } from './index-reader';
import { commonStart, compareSortValues } from './sort-order';
import { sortKeyNamed } from './table';

/**
 * Reads of a link index between sort keys (link-lists.ts: the runs of ties around a page).
 * dynalite checks key conditions, and a page's start key against them, in UTF-16 order;
 * DynamoDB orders keys by UTF-8 bytes. The two disagree only where characters U+E000–U+FFFF
 * meet characters beyond U+FFFF, which a key can do against a bound only where the bound has
 * a code unit of U+D800 or above (`unsafeBound`): such a bound is not sent as a condition; the
 * read starts at the bounds' common start (a condition either order keeps) and is kept to
 * the bounds here, in UTF-8 order.
 */

/** Whether a sort key may compare otherwise in UTF-16 than in UTF-8 with the keys around it. */
export const unsafeBound = (value: SortValue): boolean => typeof value === 'string' && /[\uD800-\uFFFF]/.test(value);

/** Every entry of `ranges` whose sort key lies in `span`, in order. */
export async function readSpan(
  store: Store,
  ranges: IndexRange[],
  [low, high]: [SortValue, SortValue],
  forward: boolean,
  keep?: (entry: Entry) => boolean,
): Promise<Entry[]> {
  if (!unsafeBound(low) && !unsafeBound(high)) {
    const between = ranges.map((range) => ({ ...range, sk: { between: [low, high] as [SortValue, SortValue] } }));
    return (await readMerged(store, between, { forward, skip: 0, take: Number.MAX_SAFE_INTEGER, ...(keep ? { keep } : {}) })).entries;
  }
  const sortKey = sortKeyNamed(ranges[0]?.index ?? '');
  const common = commonStart(String(low), String(high));
  const bounded = ranges.map(({ sk: _, ...range }) => (common ? { ...range, sk: { beginsWith: common } } : range));
  const [first, last] = forward ? [low, high] : [high, low];
  const direction = forward ? 1 : -1;
  const entries: Entry[] = [];
  for await (const entry of scanRanges(store, bounded, forward)) {
    if (compareSortValues(entry[sortKey], first) * direction < 0) continue;
    if (compareSortValues(entry[sortKey], last) * direction > 0) break;
    if (!keep || keep(entry)) entries.push(entry);
  }
  return entries;
}

/**
 * The entries `keep` passes that come before `start` in the read's direction (from the
 * ranges' first end): read up to it, where `start` is given, or the ranges whole (bounded
 * by their own conditions) where it is not.
 */
export async function countBefore(
  store: Store,
  ranges: IndexRange[],
  start: SortValue | undefined,
  forward: boolean,
  keep?: (entry: Entry) => boolean,
): Promise<number> {
  const sortKey = sortKeyNamed(ranges[0]?.index ?? '');
  const unbounded = start === undefined ? ranges : ranges.map(({ sk: _, ...range }) => range);
  let count = 0;
  for await (const entry of scanRanges(store, unbounded, forward)) {
    if (start !== undefined && compareSortValues(entry[sortKey], start) * (forward ? 1 : -1) >= 0) break;
    if (!keep || keep(entry)) count++;
  }
  return count;
}
