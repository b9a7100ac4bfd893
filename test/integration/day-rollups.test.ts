import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { ulidAt } from '../../shared/ids';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { SETTLE_DAYS } from '../../shared/store/day-rollups';
import { countByHours } from '../../shared/store/hour-counts';
import { queryAll } from '../../shared/store/query';
import { startTestStore } from '../support/dynamo';
import { observeStore } from '../support/store-calls';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
/** Items over 90 days ending ten days before NOW, and some in the days before it (not settled yet). */
const NOW = Date.parse('2026-12-06T12:00:00Z');
const START = NOW - 100 * DAY;
const PK = 'ACCOUNT#9#COUNTS';
const daySk = (day: string) => `MESSAGES#C#${day}`;
const STATUSES = ['A', 'B'] as const;

let store: Store;
let close: () => Promise<void>;
let now = NOW;
let counted: CountedWrites;
/** Every call the store makes (observeStore), from the start. */
let observed: ReturnType<typeof observeStore>;

/** The truth: each item's instant and status now. */
const items: { at: number; status: 'A' | 'B' }[] = [];

const cellsOf = (at: number, status: string) => {
  const hour = new Date(at).toISOString().slice(11, 13);
  return { [`h${hour}`]: 1, [`h${hour}#st#${status}`]: 1 };
};
const keyOf = (at: number) => ({ pk: PK, sk: daySk(new Date(at).toISOString().slice(0, 10)) });

/** Counts item i as its creation or status change would, at the clock's time. */
async function change(i: number, status: 'A' | 'B', creation: boolean) {
  const item = items[i]!;
  const add: Record<string, number> = {};
  if (creation) Object.assign(add, cellsOf(item.at, status));
  else
    Object.assign(add, {
      [`h${new Date(item.at).toISOString().slice(11, 13)}#st#${item.status}`]: -1,
      [`h${new Date(item.at).toISOString().slice(11, 13)}#st#${status}`]: 1,
    });
  const marked = counted.mark({ counters: [{ key: keyOf(item.at), add }] });
  await store.db.send(new PutCommand({ TableName: store.tableName, Item: { pk: `ITEM#${i}`, sk: '#ITEM', ...marked.set } }));
  await counted.finish({ pk: `ITEM#${i}`, sk: '#ITEM' }, marked);
  item.status = status;
}

const brute = (from?: number, to?: number, status?: string) =>
  items.filter(({ at, status: s }) => (from === undefined || at >= from) && (to === undefined || at <= to) && (status === undefined || s === status))
    .length;

const count = (from: number | undefined, to: number | undefined, status?: string) =>
  countByHours(counted, {
    pk: PK,
    daySk,
    cells: (hour) => [status ? `h${hour}#st#${status}` : `h${hour}`],
    from: from === undefined ? undefined : new Date(from),
    to: to === undefined ? undefined : new Date(to),
    countEdge: async (a, b) => brute(a.getTime(), b.getTime(), status),
  });

beforeAll(async () => {
  ({ store, close } = await startTestStore());
  observed = observeStore(store);
  counted = new CountedWrites(store, () => ulidAt(new Date(now)), { clock: () => new Date(now) });
  let seed = 11;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let i = 0; i < 240; i++) items.push({ at: START + Math.floor(random() * (NOW - START)), status: 'A' });
  items.sort((x, y) => x.at - y.at);
  // Each created when it happened: not late then.
  for (let i = 0; i < items.length; i++) {
    now = items[i]!.at;
    await change(i, random() < 0.3 ? 'B' : 'A', true);
  }
  now = NOW;
});
afterAll(() => close());

const bound = fc.oneof(
  fc.integer({ min: START - 2 * DAY, max: NOW + DAY }),
  fc.integer({ min: -50, max: 2500 }).map((h) => START + h * HOUR),
);
const status = fc.constantFrom(undefined, ...STATUSES);

describe('month roll-ups of the day counter items', () => {
  it('count long ranges like a brute force: before any roll-up, once rolled up, and after late changes', async () => {
    const property = fc.asyncProperty(fc.option(bound, { nil: undefined }), fc.option(bound, { nil: undefined }), status, async (from, to, s) => {
      expect(await count(from, to, s)).toBe(brute(from, to, s));
    });
    // Nothing rolled up yet: the readers copy the days they need.
    await fc.assert(property, { numRuns: 60 });
    // Late changes (status moves of old items), which roll their days up.
    for (const i of [3, 40, 41, 120, 200]) await change(i, items[i]!.status === 'A' ? 'B' : 'A', false);
    await fc.assert(property, { numRuns: 60 });
    // A late change right after a read copied its day, and one to a day no reader has copied.
    expect(await count(START, NOW, 'B')).toBe(brute(START, NOW, 'B'));
    await change(7, items[7]!.status === 'A' ? 'B' : 'A', false);
    await change(items.length - 1, items.at(-1)!.status === 'A' ? 'B' : 'A', false);
    await fc.assert(property, { numRuns: 60 });
  });

  it('keeps each settled day on its month item as its day item sums it, and leaves recent days to their items', async () => {
    // Prepare: every day read once, then a late change
    await count(undefined, undefined, 'A');
    await change(50, items[50]!.status === 'A' ? 'B' : 'A', false);

    // Act
    const month = async (at: number) =>
      (
        await store.db.send(
          new GetCommand({ TableName: store.tableName, Key: { pk: PK, sk: `MESSAGES#C#M#${new Date(at).toISOString().slice(0, 7)}` } }),
        )
      ).Item;
    const day = async (at: number) => (await store.db.send(new GetCommand({ TableName: store.tableName, Key: keyOf(at) }))).Item;

    // Assess: the late change's day and another on their months, with the day item's version
    for (const at of [items[50]!.at, items[10]!.at]) {
      const dd = new Date(at).toISOString().slice(8, 10);
      const [rolled, source] = [await month(at), await day(at)];
      const sums: Record<string, number> = {};
      for (const [name, value] of Object.entries(source ?? {}))
        if (/^h\d\d/.test(name)) sums[`r${name.slice(3)}`] = (sums[`r${name.slice(3)}`] ?? 0) + Number(value);
      expect(rolled?.[`d${dd}`]).toEqual(sums);
      expect(rolled?.[`v${dd}`]).toBe(source?.rv ?? 0);
    }
    expect((await day(items[50]!.at))?.rv).toBeGreaterThanOrEqual(1);
    // A day within SETTLE_DAYS of now is not on its month item.
    const recent = NOW - (SETTLE_DAYS - 1) * DAY;
    expect((await month(recent))?.[`d${new Date(recent).toISOString().slice(8, 10)}`]).toBeUndefined();
  });

  it('keeps a late change whose copy lands before a reader copies an older state of its day', async () => {
    // Prepare: a month with no roll-up, and the reader's copy held until a late change to one of its days has rolled it up
    const i = items.findIndex(({ at }) => new Date(at).toISOString().slice(0, 7) === new Date(START + 40 * DAY).toISOString().slice(0, 7));
    const monthKey = { pk: PK, sk: `MESSAGES#C#M#${new Date(items[i]!.at).toISOString().slice(0, 7)}` };
    await store.db.send(new DeleteCommand({ TableName: store.tableName, Key: monthKey }));
    let release = () => {};
    let held: Promise<void> | undefined;
    store.db.middlewareStack.add(
      (next, context) => async (args) => {
        const sk = (args.input as { Key?: { sk?: string } }).Key?.sk;
        if (!held && /^Update(Item)?Command$/.test(context.commandName ?? '') && sk === monthKey.sk) {
          held = new Promise((resolve) => {
            release = resolve;
          });
          await held;
        }
        return next(args);
      },
      { step: 'initialize', name: 'holdMonthCopy' },
    );

    // Act: the reader reads the month's days and is held; the late change rolls its day up; the reader's copy lands
    const reading = count(START, NOW, 'B');
    while (!held) await new Promise((resolve) => setTimeout(resolve, 5));
    await change(i, items[i]!.status === 'A' ? 'B' : 'A', false);
    release();
    await reading;
    store.db.middlewareStack.remove('holdMonthCopy');

    // Assess: the late change's state stays, and the next reads count right
    expect(await count(START, NOW, 'B')).toBe(brute(START, NOW, 'B'));
    expect(await count(START, NOW, 'A')).toBe(brute(START, NOW, 'A'));
  });

  it('rolls up a change that was current when made and is finished by a renewal once its day has settled', async () => {
    // Prepare: an item created 6 days ago whose counted change stopped before its adds (a crashed writer)
    const at = NOW - 6 * DAY + 3 * HOUR;
    items.push({ at, status: 'B' });
    const i = items.length - 1;
    now = at;
    const marked = counted.mark({ counters: [{ key: keyOf(at), add: cellsOf(at, 'B') }] });
    await store.db.send(new PutCommand({ TableName: store.tableName, Item: { pk: `ITEM#${i}`, sk: '#ITEM', ...marked.set } }));
    now = NOW;
    // A reader copies the day (without the item) onto its month meanwhile.
    const from = NOW - 40 * DAY;
    expect(await count(from, NOW, 'B')).toBe(brute(from, NOW, 'B') - 1);

    // Act: the change is found and finished
    await counted.settle({ pk: `ITEM#${i}`, sk: '#ITEM' });

    // Assess
    expect(await count(from, NOW, 'B')).toBe(brute(from, NOW, 'B'));
    expect(await count(from, NOW)).toBe(brute(from, NOW));
  });

  it('reads a long range from its month items, its edge day and its recent days, not from every day item', async () => {
    // Prepare: rolled up by an earlier read
    const from = START + 5 * DAY + 3 * HOUR + 120_000;
    expect(await count(from, NOW, 'B')).toBe(brute(from, NOW, 'B'));
    const before = observed.length;

    // Act
    const total = await count(from, NOW, 'B');
    const calls = observed.slice(before);

    // Assess: the months (one Query), the first day and the unsettled days (a Query each), nothing copied; each edge
    // hour, longer than the rest of it, its day item's cell (a BatchGetItem) less that rest
    expect(total).toBe(brute(from, NOW, 'B'));
    expect(calls.map((call) => call.command).sort()).toEqual([
      'BatchGetItemCommand',
      'BatchGetItemCommand',
      'QueryCommand',
      'QueryCommand',
      'QueryCommand',
    ]);
  });

  it('writes no month item for the months of a range before the first day of the counter', async () => {
    // Prepare
    const from = Date.parse('2020-01-01T00:00:00Z');

    // Act: twice, the second finding the same days missing
    const first = await count(from, NOW, 'B');
    const before = observed.length;
    const second = await count(from, NOW, 'B');
    const calls = observed.slice(before);

    // Assess
    expect([first, second]).toEqual([brute(from, NOW, 'B'), brute(from, NOW, 'B')]);
    const months = await queryAll(store, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': 'MESSAGES#C#M#' },
    });
    expect(months.map((item) => String(item.sk).slice(-7)).sort()[0]).toBe(new Date(START).toISOString().slice(0, 7));
    // Reads only (Queries, and the last edge hour's day item).
    expect(calls.map((call) => call.command).filter((command) => !['QueryCommand', 'BatchGetItemCommand'].includes(command))).toEqual([]);
  });

  // Last: the store is then known as read-only.
  it('answers without copying where the process may only read the table (the deployed list functions)', async () => {
    // Prepare: a month with no roll-up, and every write of a month item refused as IAM refuses it
    const monthKey = { pk: PK, sk: `MESSAGES#C#M#${new Date(START + 60 * DAY).toISOString().slice(0, 7)}` };
    await store.db.send(new DeleteCommand({ TableName: store.tableName, Key: monthKey }));
    let refused = 0;
    store.db.middlewareStack.add(
      (next, context) => async (args) => {
        if (/^Update(Item)?Command$/.test(context.commandName ?? '')) {
          refused++;
          throw Object.assign(new Error('not authorized to perform: dynamodb:UpdateItem'), { name: 'AccessDeniedException' });
        }
        return next(args);
      },
      { step: 'initialize', name: 'readOnly' },
    );

    // Act
    const updates = () => refused;
    const first = await count(START, NOW, 'B');
    const triedFirst = updates();
    const second = await count(START, NOW, 'A');
    store.db.middlewareStack.remove('readOnly');

    // Assess: right answers, and copies tried by the first call only
    expect([first, second]).toEqual([brute(START, NOW, 'B'), brute(START, NOW, 'A')]);
    expect(triedFirst).toBeGreaterThanOrEqual(1);
    expect(updates()).toBe(triedFirst);
  });
});
