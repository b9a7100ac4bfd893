import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import type { Store } from '../../shared/store/client';
import { type Condition, countRanges, type Entry, type IndexRange, readMerged, readPage, scanRanges } from '../../shared/store/index-reader';
import { compareSortValues, compareText } from '../../shared/store/sort-order';
import { startTestStore } from '../support/dynamo';

let store: Store;
let close: () => Promise<void>;

// Three partitions of a string-keyed index (gsi2) and of a number-keyed one (gsi3), with
// sort keys unique in a partition (as the list keys are: they end in the id) but tied
// across partitions, non-ASCII text, and numbers beyond 2^53. Two projected attributes
// carry the row's oddness (campaignId 1 or 0) and its text (from), for conditions.
const PARTITIONS = ['P#a', 'P#b', 'P#c'];
const TEXT_KEYS = ['', 'a', 'a#1', 'a#2', 'b', 'B', 'é', 'Я', 'z', '😀', '\uffff'];
const BIG = 10n ** 15n;

interface Row {
  pk: string;
  partition: string;
  text: string;
  number: number | bigint;
  odd: boolean;
}

const rows: Row[] = [];

beforeAll(async () => {
  ({ store, close } = await startTestStore());
  for (let i = 0; i < 240; i++) {
    const partition = PARTITIONS[i % 3] as string;
    const j = Math.floor(i / 3);
    const clicks = BigInt((j * 7) % 13);
    const big = clicks * BIG + BigInt(j);
    rows.push({
      pk: `ITEM#${String(i).padStart(3, '0')}`,
      partition,
      text: `${TEXT_KEYS[(j * 5) % TEXT_KEYS.length]}#${String(j).padStart(2, '0')}`,
      number: big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big,
      odd: i % 2 === 1,
    });
  }
  for (let start = 0; start < rows.length; start += 25) {
    await store.db.send(
      new BatchWriteCommand({
        RequestItems: {
          [store.tableName]: rows.slice(start, start + 25).map((row) => ({
            PutRequest: {
              Item: {
                pk: row.pk,
                sk: '#ROW',
                odd: row.odd,
                campaignId: row.odd ? 1 : 0,
                from: row.text,
                gsi2pk: row.partition,
                gsi2sk: row.text,
                gsi3pk: row.partition,
                gsi3sk: row.number,
              },
            },
          })),
        },
      }),
    );
  }
}, 60_000);
afterAll(() => close());

/** The same read done on the rows in memory: the expected answer. */
function expected(index: 'gsi2' | 'gsi3', partitions: string[], forward: boolean, keepOdd: boolean): string[] {
  const value = (row: Row) => (index === 'gsi2' ? row.text : row.number);
  const sorted = rows
    .filter((row) => partitions.includes(row.partition) && (!keepOdd || row.odd))
    .sort((a, b) => {
      const difference = compareSortValues(value(a), value(b));
      return (difference || compareText(a.pk, b.pk)) * (forward ? 1 : -1);
    });
  return sorted.map((row) => row.pk);
}

const pks = (entries: Entry[]) => entries.map((entry) => String(entry.pk));

/** The entries the store sends back to Query calls until `stop`. */
function sentEntries(): { entries: Entry[]; stop: () => void } {
  const entries: Entry[] = [];
  const send = store.db.send.bind(store.db);
  const spy = jest.spyOn(store.db, 'send').mockImplementation((async (command: unknown) => {
    const output = await (send as (c: unknown) => Promise<{ Items?: Entry[] }>)(command);
    entries.push(...(output.Items ?? []));
    return output;
  }) as never);
  return { entries, stop: () => spy.mockRestore() };
}
const rangesOf = (index: 'gsi2' | 'gsi3', partitions: string[]): IndexRange[] => partitions.map((pk) => ({ index, pk }));

describe('index reader', () => {
  it('reads merged ranges in sort-key order, any page, either direction, unfiltered or filtered in memory, in the Query, or both', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('gsi2' as const, 'gsi3' as const),
        fc.subarray(PARTITIONS, { minLength: 1 }),
        fc.boolean(),
        fc.constantFrom('none', 'keep', 'condition', 'both'),
        fc.nat(250),
        fc.integer({ min: 1, max: 100 }),
        async (index, partitions, forward, filter, skip, take) => {
          // Prepare: the odd rows, by a filter in memory, a condition the Query checks, or both
          const keep = filter === 'keep' || filter === 'both' ? (entry: Entry) => Number(String(entry.pk).slice(5)) % 2 === 1 : undefined;
          const where = filter === 'condition' || filter === 'both' ? [{ attribute: 'campaignId', equals: 1 }] : undefined;
          const sent = sentEntries();

          // Act
          const ranges = rangesOf(index, partitions).map((range) => (where ? { ...range, where } : range));
          const { entries, read } = await readMerged(store, ranges, { forward, skip, take, keep });
          sent.stop();

          // Assess: the same entries; with a condition, only odd rows sent, though more may be read
          expect(pks(entries)).toEqual(expected(index, partitions, forward, filter !== 'none').slice(skip, skip + take));
          if (where) expect(sent.entries.every((entry) => entry.campaignId === 1)).toBe(true);
          expect(read).toBeGreaterThanOrEqual(sent.entries.length);
        },
      ),
      { numRuns: 80 },
    );
  }, 120_000);

  it('reads the same with expected counts per range and stops at a budget, what it kept so far in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(PARTITIONS, { minLength: 1 }),
        fc.boolean(),
        fc.nat(120),
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 3, maxLength: 3 }),
        fc.option(fc.integer({ min: 1, max: 300 })),
        async (partitions, forward, skip, take, expects, budget) => {
          // Act
          const keep = (entry: Entry) => Number(String(entry.pk).slice(5)) % 2 === 1;
          const ranges = rangesOf('gsi2', partitions).map((range, i) => ({ ...range, expect: expects[i] }));
          const read = await readMerged(store, ranges, { forward, skip, take, keep, ...(budget !== null && { budget }) });

          // Assess
          const all = expected('gsi2', partitions, forward, true).slice(skip, skip + take);
          if (read.stopped) {
            expect(read.read).toBeGreaterThanOrEqual(budget ?? 0);
            expect(all.slice(0, read.entries.length)).toEqual(pks(read.entries));
          } else expect(pks(read.entries)).toEqual(all);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('asks first for the entries a filtered range is expected to need, not for a thousand', async () => {
    // Prepare
    const spy = jest.spyOn(store.db, 'send');

    // Act
    await readMerged(store, [{ ...rangesOf('gsi2', ['P#a'])[0], expect: 12 } as IndexRange], { forward: true, skip: 0, take: 5, keep: () => true });
    const limits = spy.mock.calls.map(([command]) => (command as { input: { Limit?: number } }).input.Limit);
    spy.mockRestore();

    // Assess
    expect(limits).toEqual([12]);
  });

  it('asks a filtered read that fell short for about the rest it needs, not for twice its first page', async () => {
    // Prepare: half the entries are kept; a first page of 30 keeps about 15 of the 20 wanted.
    const keep = (entry: Entry) => Number(String(entry.pk).slice(5)) % 2 === 1;
    const order = expected('gsi2', ['P#a'], true, false);
    const keptFirst = order.slice(0, 30).filter((pk) => Number(pk.slice(5)) % 2 === 1).length;
    const spy = jest.spyOn(store.db, 'send');

    // Act
    const read = await readMerged(store, [{ ...rangesOf('gsi2', ['P#a'])[0], expect: 30 } as IndexRange], { forward: true, skip: 0, take: 20, keep });
    const limits = spy.mock.calls.map(([command]) => (command as { input: { Limit?: number } }).input.Limit);
    spy.mockRestore();

    // Assess: the second page asks for the rest over the kept share, a quarter more (at least 16), not 60
    expect(keptFirst).toBeLessThan(20);
    expect(pks(read.entries)).toEqual(expected('gsi2', ['P#a'], true, true).slice(0, 20));
    expect(limits).toEqual([30, Math.max(16, Math.ceil(((20 - keptFirst) * 30 * 1.25) / keptFirst))]);
    expect(limits[1]).toBeLessThan(60);
  });

  it("asks for every range's first page at once, and counts ranges side by side", async () => {
    // Prepare: each Query's start and end, in order
    const events: string[] = [];
    const send = store.db.send.bind(store.db);
    const spy = jest.spyOn(store.db, 'send').mockImplementation((async (command: { input: { ExclusiveStartKey?: unknown } }) => {
      events.push('start');
      const output = await (send as (c: unknown) => Promise<unknown>)(command);
      events.push('end');
      return output;
    }) as never);

    // Act
    await readMerged(store, rangesOf('gsi2', PARTITIONS), { forward: true, skip: 0, take: 5 });
    const merged = events.splice(0);
    await countRanges(store, rangesOf('gsi3', PARTITIONS));
    const counted = events.splice(0);
    spy.mockRestore();

    // Assess: three starts before the first answer, each time
    expect(merged.slice(0, 3)).toEqual(['start', 'start', 'start']);
    expect(counted.slice(0, 3)).toEqual(['start', 'start', 'start']);
  });

  it('reads a page past the middle from the other end and gives the same page', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(PARTITIONS, { minLength: 1 }),
        fc.boolean(),
        fc.nat(250),
        fc.integer({ min: 1, max: 100 }),
        async (partitions, forward, offset, take) => {
          // Prepare
          const all = expected('gsi3', partitions, forward, false);

          // Act
          const page = await readPage(store, rangesOf('gsi3', partitions), { forward, offset, take, total: all.length });

          // Assess
          expect(pks(page)).toEqual(all.slice(offset, offset + take));
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it('costs the entries asked for, not the partition: the last page of one range reads from its end', async () => {
    // Prepare
    const range = rangesOf('gsi2', ['P#a']);
    const total = rows.filter((row) => row.partition === 'P#a').length;

    // Act
    const first = await readMerged(store, range, { forward: true, skip: 0, take: 5 });
    const spy = jest.spyOn(store.db, 'send');
    const last = await readPage(store, range, { forward: true, offset: total - 5, take: 5, total });
    const limits = spy.mock.calls.map(([command]) => (command as { input: { Limit?: number } }).input.Limit);
    spy.mockRestore();

    // Assess
    expect(first.read).toBeLessThanOrEqual(6);
    expect(last).toHaveLength(5);
    expect(limits).toEqual([6]);
  });

  it('counts ranges with and without a filter, and scans them whole in order', async () => {
    // Act
    const count = await countRanges(store, rangesOf('gsi2', PARTITIONS));
    const odd = await countRanges(store, rangesOf('gsi2', ['P#a', 'P#b']), (entry) => entry.pk && Number(String(entry.pk).slice(5)) % 2 === 1);
    const scanned: Entry[] = [];
    for await (const entry of scanRanges(store, rangesOf('gsi3', PARTITIONS), false)) scanned.push(entry);

    // Assess
    expect(count).toBe(rows.length);
    expect(odd).toBe(expected('gsi2', ['P#a', 'P#b'], true, true).length);
    expect(pks(scanned)).toEqual(expected('gsi3', PARTITIONS, false, false));
  });

  it('paces a read with conditions by the entries it read, not those it was sent', async () => {
    // Prepare: as the filtered read above, half the entries pass, now by a condition; 30 wanted
    const order = expected('gsi2', ['P#a'], true, false);
    const keptFirst = order.slice(0, 30).filter((pk) => Number(pk.slice(5)) % 2 === 1).length;
    const spy = jest.spyOn(store.db, 'send');

    // Act
    const range = { ...rangesOf('gsi2', ['P#a'])[0], expect: 30, where: [{ attribute: 'campaignId', equals: 1 }] } as IndexRange;
    const read = await readMerged(store, [range], { forward: true, skip: 0, take: 30 });
    const limits = spy.mock.calls.map(([command]) => (command as { input: { Limit?: number } }).input.Limit);
    spy.mockRestore();

    // Assess: the same Limits as when the entries are filtered in memory (the rest over the share passed), not the rest alone
    expect(pks(read.entries)).toEqual(expected('gsi2', ['P#a'], true, true).slice(0, 30));
    expect(limits).toEqual([30, Math.ceil(((30 - keptFirst) * 30 * 1.25) / keptFirst)]);
    expect(limits[1]).toBeGreaterThan((30 - keptFirst) * 1.25 + 1);
  });

  it('counts and scans ranges with conditions: equal, containing, from and to', async () => {
    // Prepare
    const label = (...where: Condition[]) => rangesOf('gsi2', PARTITIONS).map((range) => ({ ...range, where }));
    const sent = sentEntries();

    // Act
    const containing = await countRanges(store, label({ attribute: 'from', contains: 'a#' }));
    const between = await countRanges(store, label({ attribute: 'from', from: 'B', to: 'b~' }, { attribute: 'campaignId', equals: 0 }));
    const open = await countRanges(store, label({ attribute: 'from', to: 'a~' }));
    const scanned: Entry[] = [];
    for await (const entry of scanRanges(store, label({ attribute: 'from', from: 'z' }), true)) scanned.push(entry);
    sent.stop();

    // Assess
    const labels = (test: (row: Row) => boolean) => rows.filter(test).length;
    expect(containing).toBe(labels((row) => row.text.includes('a#')));
    expect(between).toBe(labels((row) => !row.odd && compareText(row.text, 'B') >= 0 && compareText(row.text, 'b~') <= 0));
    expect(open).toBe(labels((row) => compareText(row.text, 'a~') <= 0));
    expect(pks(scanned).sort()).toEqual(rows.filter((row) => compareText(row.text, 'z') >= 0).map((row) => row.pk));
    expect(sent.entries).toHaveLength(scanned.length);
  });

  it('reads sort key conditions: prefix, between, from and to', async () => {
    // Act
    const prefix = await readMerged(store, [{ index: 'gsi2', pk: 'P#a', sk: { beginsWith: 'a#' } }], { forward: true, skip: 0, take: 100 });
    const between = await readMerged(store, [{ index: 'gsi3', pk: 'P#b', sk: { between: [BIG, 3n * BIG] } }], { forward: true, skip: 0, take: 100 });
    const from = await countRanges(store, [{ index: 'gsi3', pk: 'P#b', sk: { from: 12n * BIG } }]);
    const to = await countRanges(store, [{ index: 'gsi2', pk: 'P#c', sk: { to: 'a' } }]);

    // Assess
    const inB = rows.filter((row) => row.partition === 'P#b');
    expect(pks(prefix.entries).sort()).toEqual(rows.filter((row) => row.partition === 'P#a' && row.text.startsWith('a#')).map((row) => row.pk));
    expect(between.entries.map((entry) => BigInt(entry.gsi3sk))).toEqual(
      inB
        .map((row) => BigInt(row.number))
        .filter((n) => n >= BIG && n <= 3n * BIG)
        .sort((a, b) => (a < b ? -1 : 1)),
    );
    expect(from).toBe(inB.filter((row) => BigInt(row.number) >= 12n * BIG).length);
    expect(to).toBe(rows.filter((row) => row.partition === 'P#c' && compareText(row.text, 'a') <= 0).length);
  });
});
