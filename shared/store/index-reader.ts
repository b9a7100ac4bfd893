import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { queryAll } from './query';

// Index ranges read whole and merged in memory (the paged reader comes next).
export type Entry = Record<string, NativeAttributeValue>;
export type SortValue = string | number | bigint;
export interface IndexRange {
  index: string;
  pk: string;
  sk?: { beginsWith: string } | { between: [SortValue, SortValue] } | { from: SortValue } | { to: SortValue };
}
export interface ReadOptions {
  forward: boolean;
  skip: number;
  take: number;
  keep?: (entry: Entry) => boolean;
}

async function readAll(store: Store, ranges: IndexRange[], forward: boolean, keep?: (entry: Entry) => boolean): Promise<Entry[]> {
  const all: Entry[] = [];
  for (const range of ranges) {
    const values: Record<string, NativeAttributeValue> = { ':pk': range.pk };
    let condition = `${range.index}pk = :pk`;
    const sk = `${range.index}sk`;
    if (range.sk && 'beginsWith' in range.sk) {
      condition += ` AND begins_with(${sk}, :a)`;
      values[':a'] = range.sk.beginsWith;
    } else if (range.sk && 'between' in range.sk) {
      condition += ` AND ${sk} BETWEEN :a AND :b`;
      [values[':a'], values[':b']] = range.sk.between;
    } else if (range.sk && 'from' in range.sk) {
      condition += ` AND ${sk} >= :a`;
      values[':a'] = range.sk.from;
    } else if (range.sk && 'to' in range.sk) {
      condition += ` AND ${sk} <= :a`;
      values[':a'] = range.sk.to;
    }
    const entries = await queryAll(store, { IndexName: range.index, KeyConditionExpression: condition, ExpressionAttributeValues: values });
    all.push(...entries.map((entry) => ({ ...entry, '@sk': entry[sk], '@pk': range.pk })));
  }
  const compare = (a: Entry, b: Entry) => {
    const x = a['@sk'];
    const y = b['@sk'];
    const bySk =
      typeof x === 'string' ? Buffer.compare(Buffer.from(x), Buffer.from(String(y))) : BigInt(x) < BigInt(y) ? -1 : BigInt(x) > BigInt(y) ? 1 : 0;
    return bySk !== 0 ? bySk : String(a['@pk']) < String(b['@pk']) ? -1 : 1;
  };
  all.sort((a, b) => (forward ? compare(a, b) : compare(b, a)));
  return all.filter((entry) => !keep || keep(entry)).map(({ '@sk': _, '@pk': __, ...entry }) => entry);
}

export async function readMerged(store: Store, ranges: IndexRange[], options: ReadOptions): Promise<{ entries: Entry[]; read: number }> {
  const all = await readAll(store, ranges, options.forward, options.keep);
  return { entries: all.slice(options.skip, options.skip + options.take), read: all.length };
}

export async function readPage(
  store: Store,
  ranges: IndexRange[],
  options: { forward: boolean; offset: number; take: number; total?: number; keep?: (e: Entry) => boolean },
): Promise<Entry[]> {
  return (await readMerged(store, ranges, { forward: options.forward, skip: options.offset, take: options.take, keep: options.keep })).entries;
}

export async function countRanges(store: Store, ranges: IndexRange[], keep?: (entry: Entry) => boolean): Promise<number> {
  return (await readAll(store, ranges, true, keep)).length;
}

export async function* scanRanges(store: Store, ranges: IndexRange[], forward: boolean): AsyncIterable<Entry> {
  yield* await readAll(store, ranges, forward);
}
