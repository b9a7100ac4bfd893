import { PutCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { ulidAt } from '../../shared/ids';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { countByHours } from '../../shared/store/hour-counts';
import { startTestStore } from '../support/dynamo';
import { observeStore } from '../support/store-calls';

let store: Store;
let close: () => Promise<void>;
let counted: CountedWrites;

const HOUR = 60 * 60_000;
const START = Date.parse('2026-11-21T22:00:00Z');
const END = Date.parse('2026-11-25T02:00:00Z');
const PK = 'ACCOUNT#9#COUNTS';
const daySk = (day: string) => `T#D#${day}`;
const cells = (hour: string) => [`h${hour}`];

/** Items' instants: random ones over four days, and some on the edges of their hours. */
const instants: number[] = [];

beforeAll(async () => {
  ({ store, close } = await startTestStore());
  counted = new CountedWrites(store, () => ulidAt(new Date()));
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let i = 0; i < 50; i++) instants.push(START + Math.floor(random() * (END - START)));
  for (const hour of [START + 3 * HOUR, START + 30 * HOUR, END - HOUR]) instants.push(hour, hour - 1, hour + HOUR - 1);
  // Each item counted as its creation would be: +1 in its hour's cell of its day's item;
  // a second kind of item in other cells (`x<HH>`), which the count must leave out.
  for (const [i, at] of instants.entries()) {
    const iso = new Date(at).toISOString();
    const marked = counted.mark({
      counters: [{ key: { pk: PK, sk: daySk(iso.slice(0, 10)) }, add: { [`h${iso.slice(11, 13)}`]: 1, [`x${iso.slice(11, 13)}`]: 2 } }],
    });
    await store.db.send(new PutCommand({ TableName: store.tableName, Item: { pk: `ITEM#${i}`, sk: '#ITEM', ...marked.set } }));
    await counted.finish({ pk: `ITEM#${i}`, sk: '#ITEM' }, marked);
  }
  // Counter items of the partition outside the days' sk range.
  for (const sk of ['T#C', 'T#E', 'T#ALL']) {
    await store.db.send(new PutCommand({ TableName: store.tableName, Item: { pk: PK, sk, h10: 1000 } }));
  }
});
afterAll(() => close());

/** The truth: items in [from, to]. */
const brute = (from?: number, to?: number) => instants.filter((at) => (from === undefined || at >= from) && (to === undefined || at <= to)).length;

/** A bound: any instant near the data, or an hour's first or last millisecond. */
const bound = fc.oneof(
  fc.integer({ min: START - 2 * HOUR, max: END + 2 * HOUR }),
  fc.integer({ min: -2, max: 80 }).map((h) => START + h * HOUR),
  fc.integer({ min: -2, max: 80 }).map((h) => START + h * HOUR - 1),
);

describe('countByHours', () => {
  it('counts like a brute force over the items, open bounds and edges included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(bound, { nil: undefined }), fc.option(bound, { nil: undefined }), async (from, to) => {
        const edges: [number, number][] = [];
        const countEdge = async (a: Date, b: Date) => {
          edges.push([a.getTime(), b.getTime()]);
          return brute(a.getTime(), b.getTime());
        };

        const count = await countByHours(counted, {
          pk: PK,
          daySk,
          cells,
          from: from === undefined ? undefined : new Date(from),
          to: to === undefined ? undefined : new Date(to),
          countEdge,
        });

        expect(count).toBe(brute(from, to));
        // Edges are parts of one hour, never a whole hour (those come from the cells): each inside the
        // range, or the rest of an edge hour outside it (that hour's cell less the rest).
        for (const [a, b] of edges) {
          expect(Math.floor(a / HOUR)).toBe(Math.floor(b / HOUR));
          expect(a % HOUR === 0 && b % HOUR === HOUR - 1).toBe(false);
          const inside = a >= (from ?? a) && b <= (to ?? b);
          const outside = (to !== undefined && a > to) || (from !== undefined && b < from);
          expect(inside || outside).toBe(true);
        }
        expect(edges.length).toBeLessThanOrEqual(3);
      }),
      { numRuns: 150 },
    );
  });

  it('reads the days of a range with one Query, and the edges from the caller', async () => {
    // Prepare
    const calls = observeStore(store);
    const edges: string[] = [];

    // Act: four days, with partial hours at both ends, each no longer than the rest of its hour
    const count = await countByHours(counted, {
      pk: PK,
      daySk,
      cells,
      from: new Date(START + 90 * 60_000),
      to: new Date(END - 31 * 60_000),
      countEdge: async (a, b) => {
        edges.push(`${a.toISOString()} ${b.toISOString()}`);
        return brute(a.getTime(), b.getTime());
      },
    });

    // Assess
    expect(count).toBe(brute(START + 90 * 60_000, END - 31 * 60_000));
    expect(calls.map((call) => call.command)).toEqual(['QueryCommand']);
    expect(edges.sort()).toEqual(['2026-11-21T23:30:00.000Z 2026-11-21T23:59:59.999Z', '2026-11-25T01:00:00.000Z 2026-11-25T01:29:00.000Z']);
  });

  it("counts an edge longer than the rest of its hour as the hour's cell less the rest: a range until now reads nothing of its last hour", async () => {
    // Prepare: now is 20 minutes into the data's last hour (items at its start and at its last millisecond)
    const lastHour = END - HOUR;
    const now = new Date(lastHour + 20 * 60_000);
    const at = new CountedWrites(store, () => ulidAt(now), { clock: () => now });
    const asked = [
      { from: START + 90 * 60_000, to: now.getTime() },
      // In the past: 50 minutes of an hour, its first 10 the rest.
      { from: START + 3 * HOUR + 10 * 60_000, to: START + 5 * HOUR },
    ];
    for (const { from, to } of asked) {
      const edges: string[] = [];

      // Act
      const count = await countByHours(at, {
        pk: PK,
        daySk,
        cells,
        from: new Date(from),
        to: new Date(to),
        countEdge: async (a, b) => {
          edges.push(`${a.toISOString()} ${b.toISOString()}`);
          return brute(a.getTime(), b.getTime());
        },
      });

      // Assess: exact; the rest of the hour read instead of the edge (the other edge, no longer than its rest, read itself)
      expect(count).toBe(brute(from, to));
      expect(edges.length).toBe(2);
      expect(edges).toContain(
        from === asked[0]?.from
          ? `${new Date(now.getTime() + 1).toISOString()} ${new Date(END - 1).toISOString()}`
          : `${new Date(START + 3 * HOUR).toISOString()} ${new Date(from - 1).toISOString()}`,
      );
    }
    expect(brute(lastHour, now.getTime())).toBeGreaterThan(0);
    expect(brute(START + 3 * HOUR, START + 3 * HOUR + 10 * 60_000 - 1)).toBeGreaterThan(0);
  });
});
