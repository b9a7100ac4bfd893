import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulidAt } from '../../shared/ids';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { lastSettledDay } from '../../shared/store/day-rollups';
import { countByHours } from '../../shared/store/hour-counts';
import { keys } from '../../shared/store/keys';
import { messageCounters, senderDayPrefix } from '../../shared/store/message-keys';
import { RollupPass } from '../../shared/store/rollup-pass';
import { startTestStore } from '../support/dynamo';
import { observeStore } from '../support/store-calls';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
const START = Date.parse('2026-08-03T00:00:00Z');
const DAYS = 100;
const NOW = START + DAYS * DAY + 12 * HOUR;
const ACCOUNTS = Array.from({ length: 12 }, (_, i) => i + 1);
/** Two of the fixed per-day counters, and a sender's day items (found by the pass through the sender's counter item). */
const SENDER = 'Alerts';
const PREFIXES = ['MESSAGES#U#', 'LINKS#D#', senderDayPrefix(SENDER)];
type Prefix = string;

let store: Store;
let close: () => Promise<void>;
let now = START;
let counted: CountedWrites;
let pass: RollupPass;
let refuseUpdates = false;
let refused = 0;
let calls: { command: string; pk: string }[] = [];
/** What account 2's months held, mid-way through its quiet weeks, of a day 12 days in and of one 38 days in. */
const quietSeen: { early?: unknown; late?: unknown } = {};

/** The truth: each counted item's account, counter, instant and status now. */
const items: { account: number; prefix: Prefix; at: number; status: 'A' | 'B' }[] = [];

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);
const hourOf = (at: number) => new Date(at).toISOString().slice(11, 13);
const dayKey = (account: number, prefix: Prefix, at: number) => ({ pk: keys.accountCounts(account), sk: `${prefix}${dayOf(at)}` });

/** Counts a new item, or item i's status change, as a counted change would at the clock's time. */
async function create(account: number, prefix: Prefix, at: number, status: 'A' | 'B') {
  items.push({ account, prefix, at, status });
  await apply(items.length - 1, { [`h${hourOf(at)}`]: 1, [`h${hourOf(at)}#st#${status}`]: 1 });
}
async function flip(i: number) {
  const item = items[i]!;
  const to = item.status === 'A' ? 'B' : 'A';
  await apply(i, { [`h${hourOf(item.at)}#st#${item.status}`]: -1, [`h${hourOf(item.at)}#st#${to}`]: 1 });
  item.status = to;
}
async function apply(i: number, add: Record<string, number>) {
  const item = items[i]!;
  const marked = counted.mark({ counters: [{ key: dayKey(item.account, item.prefix, item.at), add }] });
  await store.db.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { pk: `ITEM#${i}`, sk: '#ITEM' },
      UpdateExpression: `SET ${Object.keys(marked.set)
        .map((_name, n) => `#n${n} = :v${n}`)
        .join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(Object.keys(marked.set).map((name, n) => [`#n${n}`, name])),
      ExpressionAttributeValues: Object.fromEntries(Object.values(marked.set).map((value, n) => [`:v${n}`, value])),
    }),
  );
  await counted.finish({ pk: `ITEM#${i}`, sk: '#ITEM' }, marked);
}

const brute = (account: number, prefix: Prefix, from: number, to: number, status?: string) =>
  items.filter(
    (item) => item.account === account && item.prefix === prefix && item.at >= from && item.at <= to && (!status || item.status === status),
  ).length;

const count = (account: number, prefix: Prefix, from: number, to: number, status?: string) =>
  countByHours(counted, {
    pk: keys.accountCounts(account),
    daySk: (day) => `${prefix}${day}`,
    cells: (hour) => [status ? `h${hour}#st#${status}` : `h${hour}`],
    from: new Date(from),
    to: new Date(to),
    countEdge: async (a, b) => brute(account, prefix, a.getTime(), b.getTime(), status),
  });

const month = async (account: number, prefix: Prefix, at: number) =>
  (
    await store.db.send(
      new GetCommand({ TableName: store.tableName, Key: { pk: keys.accountCounts(account), sk: `${prefix}M#${dayOf(at).slice(0, 7)}` } }),
    )
  ).Item;

/** Whether account `account` is active on day d (of the DAYS): account 1 on weekdays, 2 before day 12 and from day 60, the others now and then. */
const active = (account: number, d: number) => {
  const weekday = new Date(START + d * DAY).getUTCDay();
  if (account === 1) return weekday !== 0 && weekday !== 6;
  if (account === 2) return d < 12 || d >= 60;
  return (d * 7 + account * 13) % 23 === 0;
};

beforeAll(async () => {
  ({ store, close } = await startTestStore());
  counted = new CountedWrites(store, () => ulidAt(new Date(now)), { clock: () => new Date(now) });
  pass = new RollupPass(
    store,
    async () => ACCOUNTS,
    () => new Date(now),
  );
  calls = observeStore(store);
  store.db.middlewareStack.add(
    (next, context) => async (args) => {
      if (refuseUpdates && /^Update(Item)?Command$/.test(context.commandName ?? '')) {
        refused++;
        throw Object.assign(new Error('not authorized to perform: dynamodb:UpdateItem'), { name: 'AccessDeniedException' });
      }
      return next(args);
    },
    { step: 'initialize', name: 'refuseUpdates' },
  );
  // Each account's sender, named by its counter item.
  for (const account of ACCOUNTS)
    await store.db.send(
      new PutCommand({ TableName: store.tableName, Item: { ...messageCounters.sender(account, SENDER), entity: 'Count', all: 1 } }),
    );
  // Every day's items created that day (not late), and a pass every other day, as the sweep would run it.
  for (let d = 0; d < DAYS; d++) {
    for (const account of ACCOUNTS) {
      if (!active(account, d)) continue;
      for (const [n, prefix] of PREFIXES.entries()) {
        const at = START + d * DAY + ((account * 5 + n * 7 + d) % 24) * HOUR + 1_000;
        now = at;
        await create(account, prefix, at, (d + n) % 3 === 0 ? 'B' : 'A');
      }
    }
    now = START + d * DAY + 23 * HOUR;
    if (d % 2 === 1) await pass.run();
    if (d === 55) {
      quietSeen.early = (await month(2, 'LINKS#D#', START + 12 * DAY))?.[`d${dayOf(START + 12 * DAY).slice(8)}`];
      quietSeen.late = (await month(2, 'LINKS#D#', START + 50 * DAY))?.[`d${dayOf(START + 50 * DAY).slice(8)}`];
    }
  }
  now = NOW;
  await pass.run();
}, 120_000);
afterAll(() => close());

/** The store calls made by `work`, with every table write refused as IAM refuses the deployed list functions'. */
async function readOnly<T>(work: () => Promise<T>): Promise<{ result: T; commands: string[] }> {
  const before = calls.length;
  refuseUpdates = true;
  try {
    const result = await work();
    return { result, commands: calls.slice(before).map((call) => call.command) };
  } finally {
    refuseUpdates = false;
  }
}

describe('the scheduled roll-up pass', () => {
  it('copies every settled day of every account, so a read-only reader of a long range reads its months, one edge day and the recent days', async () => {
    for (const account of [1, 2, 5]) {
      for (const prefix of PREFIXES) {
        // Prepare: from a little after the account's first day (account 5 starts late)
        const firstDay = Date.parse(dayOf(items.find((item) => item.account === account && item.prefix === prefix)!.at));
        const from = firstDay + 2 * DAY + 5 * HOUR + 30_000;

        for (const status of [undefined, 'B']) {
          // Act
          const { result, commands } = await readOnly(() => count(account, prefix, from, NOW, status));

          // Assess: right totals from three Queries, nothing missing to copy (beside them, only the edge hours'
          // day items, BatchGetItem: each edge, longer than the rest of its hour, is its cell less that rest)
          expect(result).toBe(brute(account, prefix, from, NOW, status));
          expect(commands.filter((command) => command !== 'BatchGetItemCommand')).toEqual(['QueryCommand', 'QueryCommand', 'QueryCommand']);
        }
      }
    }
    expect(refused).toBe(0);
  });

  it('copies the quiet days between active ones empty, leaves the days before an account starts, and a month-long quiet until it ends', async () => {
    // Account 2 is quiet from day 12 to day 59 (copied as they settled for a month, the rest once it was active again); account 1 at weekends
    expect(quietSeen).toEqual({ early: {}, late: undefined });
    const quiet = await month(2, 'MESSAGES#U#', START + 40 * DAY);
    const weekend = await month(1, 'LINKS#D#', START + 5 * DAY);
    expect(quiet?.[`d${dayOf(START + 40 * DAY).slice(8)}`]).toEqual({});
    expect(weekend?.[`d${dayOf(START + 5 * DAY).slice(8)}`]).toEqual({});
    expect(new Date(START + 5 * DAY).getUTCDay()).toBe(6);
    // Account 3 starts after the first days: its months start at its first day item.
    const first = items.find((item) => item.account === 3 && item.prefix === 'LINKS#D#')!.at;
    const before = await month(3, 'LINKS#D#', first - DAY);
    expect(before?.[`d${dayOf(first - DAY).slice(8)}`]).toBeUndefined();
    expect((await month(3, 'LINKS#D#', first))?.[`d${dayOf(first).slice(8)}`]).toEqual({
      r: 1,
      [`r#st#${items.find((item) => item.at === first)!.status}`]: 1,
    });
  });

  it('works a budget at a time, resumes where it stopped, and does nothing once every account is through the last settled day', async () => {
    // Prepare: every day to copy again
    await pass.restart();

    // Act: a zero budget copies one group of accounts a run
    const first = await pass.run(0);
    const position = (await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.setting('rollup-pass'), ConsistentRead: true })))
      .Item;
    const second = await pass.run(0);
    const done = (await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.setting('rollup-pass'), ConsistentRead: true }))).Item;
    const before = calls.length;
    const third = await pass.run(0);

    // Assess
    expect(first).toBeGreaterThan(0);
    expect(position).toMatchObject({ after: 8, to: lastSettledDay(new Date(NOW)) });
    expect(position?.through).toBeUndefined();
    expect(second).toBeGreaterThan(0);
    expect(done).toMatchObject({ through: lastSettledDay(new Date(NOW)) });
    expect(done?.after).toBeUndefined();
    expect(third).toBe(0);
    expect(calls.slice(before).map((call) => call.command)).toEqual(['GetItemCommand']);
  });

  it('keeps its position after each group of accounts, so a run cut off by a crash is resumed after the last group done', async () => {
    // Prepare: every day to copy again, and the store failing on account 9's counters (the second group)
    await pass.restart();
    store.db.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as { ExpressionAttributeValues?: Record<string, unknown> };
        if (input.ExpressionAttributeValues?.[':pk'] === keys.accountCounts(9)) throw new Error('the function timed out');
        return next(args);
      },
      { step: 'initialize', name: 'crashOnAccount9' },
    );

    // Act
    const crashed = await pass.run().then(
      () => undefined,
      (error: Error) => error.message,
    );
    store.db.middlewareStack.remove('crashOnAccount9');
    const position = (await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.setting('rollup-pass'), ConsistentRead: true })))
      .Item;
    await pass.run();
    const done = (await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.setting('rollup-pass'), ConsistentRead: true }))).Item;

    // Assess
    expect(crashed).toBe('the function timed out');
    expect(position).toMatchObject({ after: 8, to: lastSettledDay(new Date(NOW)) });
    expect(done).toMatchObject({ through: lastSettledDay(new Date(NOW)) });
  });

  it('mends a month item that holds an older state of a day at the same version when it copies every day again', async () => {
    // Prepare: a day's summary on its month item made wrong, as a late change of a version without roll-ups leaves it
    const at = items.find((item) => item.account === 1 && item.prefix === 'MESSAGES#U#' && item.at > START + 30 * DAY)!.at;
    const dd = dayOf(at).slice(8);
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { pk: keys.accountCounts(1), sk: `MESSAGES#U#M#${dayOf(at).slice(0, 7)}` },
        UpdateExpression: 'SET #d = :wrong',
        ExpressionAttributeNames: { '#d': `d${dd}` },
        ExpressionAttributeValues: { ':wrong': { r: 7 } },
      }),
    );
    const from = START + 20 * DAY + 1;
    expect(await count(1, 'MESSAGES#U#', from, NOW)).not.toBe(brute(1, 'MESSAGES#U#', from, NOW));

    // Act
    await pass.restart();
    await pass.run();

    // Assess
    expect(await count(1, 'MESSAGES#U#', from, NOW)).toBe(brute(1, 'MESSAGES#U#', from, NOW));
  });

  it('copies the other days of a month whose copy a late change of one of its days got ahead of', async () => {
    // Prepare: the months of account 4 gone, and the pass's first copy of its first month held until a late change to that month rolls its day up
    const i = items.findIndex((item) => item.account === 4 && item.prefix === 'LINKS#D#');
    const monthSk = `LINKS#D#M#${dayOf(items[i]!.at).slice(0, 7)}`;
    await deleteMonths(4);
    await pass.restart();
    let release = () => {};
    let held: Promise<void> | undefined;
    store.db.middlewareStack.add(
      (next, context) => async (args) => {
        const key = (args.input as { Key?: { pk?: string; sk?: string } }).Key;
        if (!held && /^Update(Item)?Command$/.test(context.commandName ?? '') && key?.pk === keys.accountCounts(4) && key.sk === monthSk) {
          held = new Promise((resolve) => {
            release = resolve;
          });
          await held;
        }
        return next(args);
      },
      { step: 'initialize', name: 'holdMonthCopy' },
    );

    // Act
    const running = pass.run();
    while (!held) await new Promise((resolve) => setTimeout(resolve, 5));
    await flip(i);
    release();
    await running;
    store.db.middlewareStack.remove('holdMonthCopy');

    // Assess: a read-only reader finds every day, the late change's state among them
    const from = Date.parse(dayOf(items[i]!.at)) + 5 * HOUR + 30_000;
    for (const status of ['A', 'B']) {
      const { result, commands } = await readOnly(() => count(4, 'LINKS#D#', from, NOW, status));
      expect(result).toBe(brute(4, 'LINKS#D#', from, NOW, status));
      // Beside the three Queries, only the edge hours' day items (BatchGetItem).
      expect(commands.filter((command) => command !== 'BatchGetItemCommand')).toEqual(['QueryCommand', 'QueryCommand', 'QueryCommand']);
    }
    expect(refused).toBe(0);
  });
});

async function deleteMonths(account: number) {
  for (let m = START; m <= NOW + 31 * DAY; m += 28 * DAY) {
    for (const prefix of PREFIXES) {
      await store.db.send(
        new DeleteCommand({ TableName: store.tableName, Key: { pk: keys.accountCounts(account), sk: `${prefix}M#${dayOf(m).slice(0, 7)}` } }),
      );
    }
  }
}
