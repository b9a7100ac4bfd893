import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { resultCodeOf } from '../../shared/api/result-codes';
import { AppError } from '../../shared/domain/errors';
import { type CampaignState, listMessages, type MessageQuery } from '../../shared/domain/message-listing';
import type { Message } from '../../shared/domain/messages';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { withoutNulls } from '../../shared/store/items';
import { keys } from '../../shared/store/keys';
import { MessageChanges } from '../../shared/store/message-changes';
import { IndexedMessageLists } from '../../shared/store/message-lists';
import { messageUpgrade } from '../../shared/store/message-migration';
import { MessageRecipients } from '../../shared/store/message-recipients';
import { MessagesRepository } from '../../shared/store/messages-repo';
import { migrate } from '../../shared/store/migration';
import { createCampaignOf } from '../support/before-text-counts';
import { sendBeforeToCounts } from '../support/before-to-counts';
import { crashingStore } from '../support/crashing-store';
import { startTestStore } from '../support/dynamo';
import { aMessage } from '../support/fixtures';

/**
 * criteria[to]'s totals from the counts of numbers' starts and ends (`MESSAGES#TO#…`,
 * `MESSAGES#OT#…`), kept by the counted write of a message's creation; its page, alone in the
 * default order, from creation order or from the matches, as those counts say is cheaper;
 * and `admin migrate` counting the messages written before, once.
 */
let store: Store;
let close: () => Promise<void>;

beforeEach(async () => {
  ({ store, close } = await startTestStore());
});
afterEach(() => close());

const counted = (on: Store) => new CountedWrites(on, () => ulid());
const repositories = (on: Store) => {
  const changes = new MessageChanges(on, counted(on));
  return { changes, campaigns: new CampaignsRepository(on, changes), messages: new MessagesRepository(on, changes) };
};
const lists = () => new IndexedMessageLists(store, counted(store));
const byTo = (to: string, currentPage = 0): MessageQuery => ({ to, sort: [], pagination: { pageSize: 25, currentPage } });
const T0 = Date.parse('2026-11-20T10:00:00.000Z');

function newMessage(id: number, accountId: number, to: string): Message {
  return aMessage({
    id,
    campaignId: id,
    accountId,
    to,
    status: 'NEW',
    // Every third one shares its creation time with the one before.
    createdAt: new Date(T0 + (id - (id % 3 === 0 ? 1 : 0)) * 1000).toISOString(),
    startSendAt: null,
    statusUpdatedAt: null,
  });
}

/** Sent as SendSmsMessage sends it: its campaign, then the message. */
async function send(message: Message, on = store): Promise<void> {
  await createCampaignOf(store, message);
  await repositories(on).messages.create(message, { status: 'NEW', deferred: false });
}

/** What the rule says of the account's messages as stored now. */
async function expected(accountId: number, ids: number[], query: MessageQuery) {
  const { messages, campaigns } = repositories(store);
  const stored = (await messages.getMany(ids)).filter((message) => message.accountId === accountId);
  const states = new Map<number, CampaignState>((await campaigns.getMany(ids)).map((c) => [c.id, { status: c.status, deferred: false }]));
  return listMessages(stored, states, query);
}

/** Entries each index reads for the list calls and those it sends them, and the sort keys of the number counters written. */
function observe(on: Store): { entries: Record<string, number>; sent: Record<string, number>; numberCounterWrites: string[] } {
  const seen = { entries: {} as Record<string, number>, sent: {} as Record<string, number>, numberCounterWrites: [] as string[] };
  on.db.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { IndexName?: string; Key?: { pk?: string; sk?: string } };
      const result = await next(args);
      if (context.commandName === 'QueryCommand' && input.IndexName) {
        const output = result.output as { ScannedCount?: number; Items?: unknown[] };
        seen.entries[input.IndexName] = (seen.entries[input.IndexName] ?? 0) + (output.ScannedCount ?? 0);
        seen.sent[input.IndexName] = (seen.sent[input.IndexName] ?? 0) + (output.Items?.length ?? 0);
      }
      const sk = String(input.Key?.sk ?? '');
      if (context.commandName === 'UpdateItemCommand' && (sk.startsWith('MESSAGES#TO#') || sk.startsWith('MESSAGES#OT#')))
        seen.numberCounterWrites.push(sk);
      return result;
    },
    { step: 'initialize', name: 'observeNumberCounts' },
  );
  return seen;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('criteria[to] totals from the number counts', () => {
  it('are written by a creation only, a third as many items as the number has digits on each side, and answer as the rule does', async () => {
    // Prepare: numbers and the counter items a message to each writes: its starts of 1, 4, 7, …
    // digits (each item counts three lengths), and so its ends but those that are also its
    // start (the whole number, and `12` of `12312`, `1` of `12321`).
    const items: Record<string, number> = {
      '447700900123': 4 + 4,
      '447700900124': 4 + 4,
      '4477009': 3 + 2,
      '12312': 2 + 2,
      '12321': 2 + 2,
      '491511234567': 4 + 4,
      '4915112345678': 5 + 4,
    };
    const seen = observe(store);
    let id = 0;
    await send(newMessage(++id, 8, '447700900123'));
    expect(seen.numberCounterWrites.sort()).toEqual(
      ['TO#4', 'TO#4477', 'TO#4477009', 'TO#4477009001', 'OT#3', 'OT#3210', 'OT#3210090', 'OT#3210090077']
        .flatMap((sk) => [`MESSAGES#${sk}`, `MESSAGES#${sk}`])
        .sort(),
    );
    seen.numberCounterWrites.length = 0;
    for (const to of Object.keys(items)) for (let i = 0; i < 3; i++) await send(newMessage(++id, 7, to));
    // Each counter item is written twice: its add, and the forget of the change's id.
    expect(seen.numberCounterWrites).toHaveLength(Object.values(items).reduce((sum, n) => sum + 3 * 2 * n, 0));

    // Act: the messages live their lives, campaigns move
    seen.numberCounterWrites.length = 0;
    const { messages, campaigns } = repositories(store);
    for (const n of [1, 4, 7, 10]) {
      await messages.claimForSend(n, new Date('2026-11-20T11:00:00Z'));
      await messages.markAccepted(n, 'sim', `g${n}`, new Date('2026-11-20T11:00:01Z'));
      await messages.applyStatus(n, 'DELIVRD', new Date('2026-11-20T11:05:00Z'));
      await campaigns.move(n, ['NEW'], 'DONE', '2026-11-20T11:00:01.000Z');
    }

    // Assess
    expect(seen.numberCounterWrites).toEqual([]);
    const recipients = new MessageRecipients(store, counted(store));
    const stored = (await messages.getMany(range(1, id))).filter(({ accountId }) => accountId === 7);
    for (const digits of ['4', '44', '4477009', '447700900123', '123', '3', '12', '1', '12321', '0', '915', '5678', '678', '49151123456789']) {
      // The counts: numbers that start or end with the digits (`0` and `915` only inside them).
      const affixed = stored.filter(({ to }) => to.startsWith(digits) || to.endsWith(digits));
      expect([digits, (await recipients.count(7, digits)).total]).toEqual([digits, affixed.length]);
      expect([digits, await lists().list(7, byTo(digits))]).toEqual([digits, await expected(7, range(1, id), byTo(digits))]);
    }
    expect(await recipients.count(8, '447700900123')).toEqual({ total: 1, messages: 1 });
  }, 120_000);

  it('reads about the page from creation order for a common prefix, first page or last, and the matches for a rare number', async () => {
    // Prepare: 120 of 200 messages to numbers starting 4477009, one number three times.
    let id = 0;
    for (let i = 0; i < 200; i++) {
      const to = i % 5 < 3 ? `4477009${String(10_000 + i).slice(-5)}` : [3, 8, 13].includes(i) ? '491510000001' : `4915${String(i).padStart(8, '0')}`;
      await send(newMessage(++id, 7, to));
    }
    const seen = observe(store);
    const call = async (query: MessageQuery) => {
      seen.entries = {};
      expect(await lists().list(7, query)).toEqual(await expected(7, range(1, id), query));
      return { ...seen.entries };
    };

    // Act
    const first = await call(byTo('4477009'));
    const last = await call(byTo('4477009', 4));
    const rare = await call(byTo('491510000001'));

    // Assess: the page over the matches' share of creation order, a quarter more: 25 × 200 / 120
    // entries (42), and the last 20 read from the oldest end (34); no index entry of the matches.
    expect(first).toEqual({ gsi1: expect.any(Number) });
    expect(first.gsi1).toBeLessThanOrEqual(Math.ceil(42 * 1.25) + 1);
    expect(last).toEqual({ gsi1: expect.any(Number) });
    expect(last.gsi1).toBeLessThanOrEqual(Math.ceil(34 * 1.25) + 1);
    // Three matches: read from gsi6 and gsi7 (three entries each), not creation order.
    expect(rare).toEqual({ gsi6: 3, gsi7: 3 });
  }, 180_000);

  it('reads the matches when creation order does not reach the page within its budget', async () => {
    // Prepare: 30 messages to 4477009…, then 51 newer to other numbers. The counts foretell 68
    // entries of creation order for the 25 newest matches, within its budget (30 / 6 + 2.5 × 25
    // = 68), but the matches all lie behind the 51.
    let id = 0;
    for (let i = 0; i < 30; i++) await send(newMessage(++id, 7, `4477009${String(i).padStart(5, '0')}`));
    for (let i = 0; i < 51; i++) await send(newMessage(++id, 7, `4915${String(i).padStart(8, '0')}`));
    const seen = observe(store);

    // Act
    const listed = await lists().list(7, byTo('4477009'));

    // Assess
    expect(listed).toEqual(await expected(7, range(1, id), byTo('4477009')));
    expect(seen.entries.gsi1).toBe(68);
    expect(seen.entries.gsi6).toBe(30);
  }, 120_000);

  it('reads every number for digits found only inside them, and is sent only those that hold them', async () => {
    // Prepare: 20 numbers with 7700 inside (none starts or ends with it), 20 without
    let id = 0;
    for (let i = 0; i < 20; i++) await send(newMessage(++id, 7, `4477009000${String(i).padStart(2, '0')}`));
    for (let i = 0; i < 20; i++) await send(newMessage(++id, 7, `4915000000${String(i).padStart(2, '0')}`));
    const seen = observe(store);

    // Act
    const listed = await lists().list(7, byTo('7700'));

    // Assess: gsi6 read whole (counted and the page kept in one pass), only the 20 matches sent
    expect(listed).toEqual(await expected(7, range(1, id), byTo('7700')));
    expect(listed.totalItemCount).toBe(20);
    expect(seen.entries.gsi6).toBe(40);
    expect(seen.sent.gsi6).toBe(20);
  }, 120_000);

  it('answers code 12 (a limit), not a timeout, when digits found only inside numbers take longer to read than a call may', async () => {
    // Prepare: 120 numbers with 7700 inside
    for (let id = 1; id <= 120; id++) await send(newMessage(id, 7, `4477009${String(id).padStart(5, '0')}`));
    const slow = lists();
    slow.readBudgetMs = -1;

    // Act
    const refused = slow.list(7, byTo('7700')).catch((error: unknown) => error);
    const answered = await lists().list(7, byTo('7700'));

    // Assess: result code 12 with what to do; within the budget, the same query answers
    const error = (await refused) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect([resultCodeOf(error.kind), error.message]).toEqual([
      12,
      expect.stringMatching(/^Message\/List read 100 index entries .*narrow the query/),
    ]);
    expect(answered.totalItemCount).toBe(120);
  }, 120_000);

  it('with another criterion drives only where it reads less: a common prefix or digits inside numbers give way to a rare sender', async () => {
    // Prepare: 60 messages to 4477009…, 3 of them from Rare, the rest from Alerts
    let id = 0;
    for (let i = 0; i < 60; i++)
      await send({ ...newMessage(++id, 7, `4477009000${String(i).padStart(2, '0')}`), from: i % 20 === 7 ? 'Rare' : 'Alerts' });
    const seen = observe(store);
    const call = async (to: string, from: string) => {
      const query = { ...byTo(to), from };
      seen.entries = {};
      expect([to, from, await lists().list(7, query)]).toEqual([to, from, await expected(7, range(1, id), query)]);
      return { ...seen.entries };
    };

    // Act
    const prefix = await call('4477009', 'Rare');
    const inside = await call('7700', 'Rare');
    const whole = await call('447700900047', 'Alerts');

    // Assess: the sender's three entries, not the 60 numbers (each query's to is checked on
    // them), beside one entry of gsi6 or none of gsi6 and gsi7 that say whether some number
    // starts or ends with the digits; a whole number's one match still drives, not the 57 from Alerts.
    expect(prefix).toEqual({ gsi6: 1, gsi9: 3 });
    expect(inside).toEqual({ gsi6: 0, gsi7: 0, gsi9: 3 });
    expect(whole).toEqual({ gsi6: 2, gsi7: 1 });
  }, 120_000);

  it('counts a creation stopped after any of its writes once, when the sweep finishes it', async () => {
    for (let writes = 1; ; writes++) {
      // Prepare
      await close();
      ({ store, close } = await startTestStore());
      await send(newMessage(1, 7, '447700900123'));
      const crashing = crashingStore(store, writes);

      // Act: the second message's creation stops after `writes` writes; the sweep runs.
      await send(newMessage(2, 7, '447700900124'), crashing).catch(() => undefined);
      await crashing.landed();
      const later = () => new Date(Date.now() + 60_000);
      await new CountedWrites(store, () => ulid(later().getTime()), { clock: later }).recover(60_000);

      // Assess
      const recipients = new MessageRecipients(store, counted(store));
      const totals = await Promise.all(['4477', '447700900124', '123', '4'].map(async (digits) => (await recipients.count(7, digits)).total));
      expect([writes, totals]).toEqual([writes, [2, 1, 1, 2]]);
      expect((await lists().list(7, byTo('4477'))).items.map(({ message }) => message.id)).toEqual([2, 1]);
      // And in its sender's combination cells (message-combos.ts), the second item a creation counts in besides MESSAGES.
      const combined = await lists().combinations.page(
        7,
        { status: 'NEW', from: 'Shop', sort: [], pagination: { pageSize: 25, currentPage: 0 } },
        0,
        25,
      );
      expect([writes, combined]).toMatchObject([writes, { listing: { totalItemCount: 2 } }]);
      if (!crashing.crashed()) break;
    }
  }, 180_000);
});

describe('admin migrate and the number counts', () => {
  /** A message of the version before the indexes: gsi1 only, no schema, not counted. */
  async function sendBeforeIndexes(message: Message): Promise<void> {
    await createCampaignOf(store, message);
    const item = {
      ...keys.message(message.id),
      ...keys.messageIndex(message.accountId, message.createdAt, message.id),
      entity: 'Message',
      ...withoutNulls(message),
    };
    await store.db.send(new PutCommand({ TableName: store.tableName, Item: item }));
  }

  it('counts every message written before the counts once, and they are relied on only once the migration has completed', async () => {
    // Prepare: a table upgraded from the version before the counts, its migration not yet run.
    const numbers = ['447700900123', '447700900124', '4477009', '12312', '491511234567'];
    const ids = range(1, 30);
    for (const id of ids) {
      const message = newMessage(id, 9, numbers[id % numbers.length] as string);
      if (id <= 10) await send(message);
      else if (id <= 25) await sendBeforeToCounts(store, message);
      else await sendBeforeIndexes(message);
    }
    await store.db.send(new DeleteCommand({ TableName: store.tableName, Key: keys.migration() }));
    // A change by this version counts the message it changes (and the migration then skips it).
    await repositories(store).messages.claimForSend(12, new Date('2026-11-20T11:00:00Z'));
    const queries = ['4477', '4477009', '447700900123', '123', '3', '12312', '9', '7009'].flatMap((to) => [byTo(to), byTo(to, 1)]);
    const recipients = new MessageRecipients(store, counted(store));
    const answers = () => new IndexedMessageLists(store, counted(store), undefined, undefined, recipients);
    // Not yet: without the migration's counts, the matches are read and counted (messages written before the indexes aside).
    for (const query of queries) expect(await answers().list(9, query)).toEqual(await expected(9, range(1, 25), query));
    expect(await recipients.page(9, '4477', 0, 25)).toBeUndefined();
    const upgrades = [messageUpgrade(store, counted(store))];

    // Act
    const first = await migrate(store, upgrades);
    const second = await migrate(store, upgrades);

    // Assess
    expect([first.completed, first.upgraded, second.completed, second.upgraded]).toEqual([true, 19, true, 0]);
    const afterwards = new IndexedMessageLists(store, counted(store));
    const stored = await repositories(store).messages.getMany(ids);
    for (const query of queries) {
      expect(await afterwards.list(9, query)).toEqual(await expected(9, ids, query));
      const digits = String(query.to);
      const affixed = stored.filter(({ to }) => to.startsWith(digits) || to.endsWith(digits));
      expect([digits, (await recipients.count(9, digits)).total]).toEqual([digits, affixed.length]);
    }
    // The counts now answer (a page from creation order: 18 of 30 start with 4477).
    expect(await recipients.page(9, '4477', 0, 25)).toMatchObject({ listing: { totalItemCount: 18 } });
  }, 120_000);

  it('counts each message once when a run stopped after any number of its writes is run again, its unfinished changes finished by the sweep', async () => {
    const numbers = ['447700900123', '4477009', '12312', '491511234567'];
    for (const writes of [1, 4, 9, 15, 22, 30, 41, 55]) {
      // Prepare
      await close();
      ({ store, close } = await startTestStore());
      for (const id of range(1, 6)) await sendBeforeToCounts(store, newMessage(id, 9, numbers[id % numbers.length] as string));
      await store.db.send(new DeleteCommand({ TableName: store.tableName, Key: keys.migration() }));
      const crashing = crashingStore(store, writes);

      // Act: the run stops after `writes` writes; the sweep finishes what it left marked; the run again.
      await migrate(crashing, [messageUpgrade(crashing, counted(crashing))]).catch(() => undefined);
      // What the stopped run had sent lands, as requests in flight do before a change is renewed (counted-writes.ts).
      await crashing.landed();
      const later = () => new Date(Date.now() + 60_000);
      await new CountedWrites(store, () => ulid(later().getTime()), { clock: later }).recover(60_000);
      const resumed = await migrate(store, [messageUpgrade(store, counted(store))]);

      // Assess
      expect([writes, resumed.completed]).toEqual([writes, true]);
      const stored = await repositories(store).messages.getMany(range(1, 6));
      const recipients = new MessageRecipients(store, counted(store));
      for (const digits of ['4', '4477', '447700900123', '123', '12', '2', '7']) {
        const affixed = stored.filter(({ to }) => to.startsWith(digits) || to.endsWith(digits)).length;
        expect([writes, digits, (await recipients.count(9, digits)).total]).toEqual([writes, digits, affixed]);
      }
      if (!crashing.crashed()) break;
    }
  }, 180_000);
});
