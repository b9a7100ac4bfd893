import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { type CampaignState, listMessages, type MessageQuery } from '../../shared/domain/message-listing';
import type { Message } from '../../shared/domain/messages';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { keys } from '../../shared/store/keys';
import { MessageChanges, messageCreation } from '../../shared/store/message-changes';
import { IndexedMessageLists } from '../../shared/store/message-lists';
import { messageUpgrade } from '../../shared/store/message-migration';
import { MessagesRepository } from '../../shared/store/messages-repo';
import { migrate } from '../../shared/store/migration';
import { createCampaignOf } from '../support/before-text-counts';
import { crashingStore } from '../support/crashing-store';
import { startTestStore } from '../support/dynamo';
import { aMessage } from '../support/fixtures';
import { observeListReads } from '../support/store-calls';

/**
 * Message/List with a status and a campaignCreateTs, startSendTs (campaignSentTs) or
 * statusUpdateTs range: totals from the hourly cells per status that counted changes keep on
 * the C, S and U day items, exact after a
 * crash at any write once the sweep has run, and after `admin migrate` has counted the
 * messages written before those cells; pages at about the page's cost.
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
  return { campaigns: new CampaignsRepository(on, changes), messages: new MessagesRepository(on, changes) };
};
const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const MINUTE = 60_000;
const at = (minutes: number) => new Date(T0 + minutes * MINUTE);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const page = (criteria: Partial<MessageQuery>, currentPage = 0): MessageQuery => ({
  ...criteria,
  sort: [],
  pagination: { pageSize: 25, currentPage },
});

/** Message `id`, created `id` minutes after T0 (every third from Alerts, the others from Shop), sent (if past NEW) 5 minutes later, its status reported 20 minutes after creation. */
function newMessage(id: number, accountId: number, status: Message['status']): Message {
  const sent = status !== 'NEW';
  return aMessage({
    id,
    campaignId: id,
    accountId,
    from: id % 3 === 0 ? 'Alerts' : 'Shop',
    status,
    to: `4477009${String(id).padStart(5, '0')}`,
    createdAt: at(id).toISOString(),
    startSendAt: sent ? at(id + 5).toISOString() : null,
    statusUpdatedAt: sent ? at(id + 20).toISOString() : null,
  });
}

async function send(message: Message, on = store): Promise<void> {
  await createCampaignOf(store, message);
  await repositories(on).messages.create(message, { status: 'NEW', deferred: false });
}

/** The hourly cells per status of each kind of day item, and the flag that says a message is counted in them. */
const STATUS_HOURS = {
  statusHoursCounted: /^MESSAGES#[CU]#/,
  sentStatusCounted: /^MESSAGES#S#/,
} as const;

/**
 * A message as the version before some hourly cells per status wrote it: counted in everything else, not in those
 * (the C and U day items' and the S day item's, or the S day item's only), without their flags.
 */
async function sendBeforeStatusHours(message: Message, flags: (keyof typeof STATUS_HOURS)[] = ['statusHoursCounted', 'sentStatusCounted']) {
  await createCampaignOf(store, message);
  const { item, op } = messageCreation(message, { status: 'NEW', deferred: false });
  const before = Object.fromEntries(Object.entries(item).filter(([name]) => !(flags as string[]).includes(name)));
  const uncounted = (sk: string, cell: string) => /^h\d\d#st#/.test(cell) && flags.some((flag) => STATUS_HOURS[flag].test(sk));
  const counters = op.counters
    .map(({ key, add }) => ({ key, add: Object.fromEntries(Object.entries(add).filter(([cell]) => !uncounted(key.sk, cell))) }))
    .filter(({ add }) => Object.keys(add).length > 0);
  const writes = counted(store);
  const marked = writes.mark({ counters });
  await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...before, ...marked.set } }));
  await writes.finish(keys.message(message.id), marked);
}

/** What the rule says of the account's messages as stored now. */
async function expected(accountId: number, ids: number[], query: MessageQuery) {
  const { messages, campaigns } = repositories(store);
  const stored = (await messages.getMany(ids)).filter((message) => message.accountId === accountId);
  const states = new Map<number, CampaignState>(
    (await campaigns.getMany(ids)).map((c) => [c.id, { status: c.status, deferred: c.deferredTo !== null }]),
  );
  return listMessages(stored, states, query);
}

/** Each status with each range kind: whole hours, partial ones, open ends; a campaign's sending time with a message's. */
function statusTimeQueries(statuses: Message['status'][]): MessageQuery[] {
  const ranges: [Date | undefined, Date | undefined][] = [
    [at(-60), at(600)],
    [at(7), at(95)],
    [at(30), undefined],
    [undefined, at(61)],
  ];
  return statuses.flatMap((status) => [
    ...['campaignCreated', 'statusUpdate', 'startSend', 'campaignSent'].flatMap((name) =>
      ranges.map(([from, to]) => page({ status, ...(from && { [`${name}From`]: from }), ...(to && { [`${name}To`]: to }) })),
    ),
    page({ status, startSendFrom: at(30), campaignSentFrom: at(7), campaignSentTo: at(300), startSendTo: at(61) }),
    // A sender with a creation range: its own day items' cells of the status.
    ...['Shop', 'Alerts'].flatMap((from) =>
      ranges.map(([start, end]) => page({ status, from, ...(start && { campaignCreatedFrom: start }), ...(end && { campaignCreatedTo: end }) })),
    ),
  ]);
}

describe('status and time totals kept by counted changes', () => {
  it('are exact after a creation or a status move stopped after any of its writes, once the sweep finishes it', async () => {
    for (let writes = 1; ; writes++) {
      // Prepare
      await close();
      ({ store, close } = await startTestStore());
      await send(newMessage(1, 7, 'DELIVRD'));
      await send(newMessage(70, 7, 'UNDELIV'));
      const crashing = crashingStore(store, writes);

      // Act: a third message's creation, claim, acceptance and report stop after `writes` writes; the sweep runs.
      await (async () => {
        const { messages } = repositories(crashing);
        await send(newMessage(40, 7, 'NEW'), crashing);
        await messages.claimForSend(40, at(41));
        await messages.markAccepted(40, 'sim', 'g40', at(41));
        await messages.applyStatus(40, 'DELIVRD', at(100));
      })().catch(() => undefined);
      await crashing.landed();
      const later = () => new Date(Date.now() + 60_000);
      await new CountedWrites(store, () => ulid(later().getTime()), { clock: later }).recover(60_000);

      // Assess: every total is the rule's over the messages as they stand, and comes from the cells.
      const lists = new IndexedMessageLists(store, counted(store));
      for (const query of statusTimeQueries(['NEW', 'ENQUEUD', 'ACCEPTD', 'DELIVRD', 'UNDELIV'])) {
        const want = await expected(7, [1, 40, 70], query);
        expect([writes, query, await lists.list(7, query)]).toEqual([writes, query, want]);
        expect([writes, query, await lists.statusTimes.page(7, query, 0, 25)]).toMatchObject([
          writes,
          query,
          { listing: { totalItemCount: want.totalItemCount } },
        ]);
      }
      if (!crashing.crashed()) break;
    }
    // Ten minutes: T0 is weeks back, so every change here is late and rolls its days up (day-rollups.ts), more writes to
    // stop after; about 140 s alone here, past 300 s in a full run on a loaded machine. The test checks the answers, not the time.
  }, 600_000);
});

describe('admin migrate and the status and time totals', () => {
  it('counts every message written before the cells once, and they are relied on only once the migration has completed', async () => {
    // Prepare: a table upgraded from the versions before the cells (none of them, or only the sending hour's), its migration not yet run.
    const ids = range(1, 30);
    const statusOf = (id: number): Message['status'] => (id % 4 === 0 ? 'UNDELIV' : id % 5 === 0 ? 'NEW' : 'DELIVRD');
    for (const id of ids) {
      if (id <= 6) await send(newMessage(id * 4, 9, statusOf(id)));
      else if (id <= 18) await sendBeforeStatusHours(newMessage(id * 4, 9, statusOf(id)));
      else await sendBeforeStatusHours(newMessage(id * 4, 9, statusOf(id)), ['sentStatusCounted']);
    }
    await store.db.send(new DeleteCommand({ TableName: store.tableName, Key: keys.migration() }));
    // A change by this version counts the message it changes (and the migration then skips it).
    await repositories(store).messages.applyStatus(40, 'EXPIRED', at(130));
    await repositories(store).messages.claimForSend(100, at(101));
    await repositories(store).messages.markAccepted(100, 'sim', 'g100', at(102));
    const stored = ids.map((id) => id * 4);
    const queries = statusTimeQueries(['DELIVRD', 'UNDELIV', 'EXPIRED', 'NEW']);
    const answers = () => new IndexedMessageLists(store, counted(store));
    // Not yet: without the migration's counts, the matches are read and counted.
    for (const query of queries) expect([query, await answers().list(9, query)]).toEqual([query, await expected(9, stored, query)]);
    expect(await answers().statusTimes.page(9, page({ status: 'DELIVRD', statusUpdateFrom: at(0) }), 0, 25)).toBeUndefined();
    expect(await answers().statusTimes.page(9, page({ status: 'DELIVRD', startSendFrom: at(0) }), 0, 25)).toBeUndefined();
    const upgrades = [messageUpgrade(store, counted(store))];

    // Act
    const first = await migrate(store, upgrades);
    const second = await migrate(store, upgrades);

    // Assess: the 24 written before, but the two changed since, upgraded once; every query as the rule says, from the cells.
    expect([first.completed, first.upgraded, second.completed, second.upgraded]).toEqual([true, 22, true, 0]);
    const afterwards = answers();
    for (const query of queries) {
      const want = await expected(9, stored, query);
      expect([query, await afterwards.list(9, query)]).toEqual([query, want]);
      expect([query, await afterwards.statusTimes.page(9, query, 0, 25)]).toMatchObject([
        query,
        { listing: { totalItemCount: want.totalItemCount } },
      ]);
    }
  }, 180_000);
});

describe('pages of a status in a time range', () => {
  it('read about the page, not every match of the narrower criterion', async () => {
    // Prepare: 400 messages over nearly seven hours, every fourth undelivered, each sent 5 and reported 20 minutes after its creation.
    const ids = range(1, 400);
    for (const id of ids) await send(newMessage(id, 5, id % 4 === 0 ? 'UNDELIV' : 'DELIVRD'));
    const lists = new IndexedMessageLists(store, counted(store));
    const seen = observeListReads(store);
    // Whole hours: the totals come from the cells alone; the counters' BatchGetItem reads one item. Driving from the
    // narrower criterion read every message of the range (240 created, 180 updated, 240 sent) or of the status (100
    // undelivered) to check it and count it.
    const cases: [Partial<MessageQuery>, number, { entries: number; messages: number }][] = [
      [{ status: 'DELIVRD', campaignCreatedFrom: at(120), campaignCreatedTo: at(360 - 1 / MINUTE) }, 180, { entries: 35, messages: 25 }],
      [{ status: 'DELIVRD', statusUpdateFrom: at(240), statusUpdateTo: at(420 - 1 / MINUTE) }, 135, { entries: 110, messages: 1 }],
      [{ status: 'UNDELIV', statusUpdateFrom: at(240), statusUpdateTo: at(420 - 1 / MINUTE) }, 45, { entries: 110, messages: 30 }],
      [{ status: 'DELIVRD', startSendFrom: at(120), startSendTo: at(360 - 1 / MINUTE) }, 180, { entries: 110, messages: 1 }],
      [{ status: 'DELIVRD', campaignSentFrom: at(120), campaignSentTo: at(360 - 1 / MINUTE) }, 180, { entries: 110, messages: 1 }],
      [{ status: 'UNDELIV', startSendFrom: at(120), startSendTo: at(360 - 1 / MINUTE) }, 60, { entries: 110, messages: 30 }],
      // A sender too: the sender's day items' cells, its page from the status's entries kept to it, the first read sized by the
      // sender's share of the status with a margin (26 of 2/3: 59 entries; the sender's and the account's counter items beside
      // the page's messages). Driving from the range or the sender read their 240 or 267 matches.
      [
        { status: 'DELIVRD', from: 'Shop', campaignCreatedFrom: at(120), campaignCreatedTo: at(360 - 1 / MINUTE) },
        120,
        { entries: 60, messages: 27 },
      ],
      // A third of the status (the first read 124 entries for 26) and partial edge hours: their shorter sides' entries, and
      // the edge hours' day items (BatchGetItem, 2 more).
      [{ status: 'DELIVRD', from: 'Alerts', campaignCreatedFrom: at(130), campaignCreatedTo: at(350) }, 54, { entries: 140, messages: 29 }],
    ];
    for (const [criteria, total, most] of cases) {
      // Act
      seen.entries = 0;
      seen.messages = 0;
      const query = page(criteria);
      const listed = await lists.list(5, query);
      const reads = { ...seen };

      // Assess
      expect(listed).toEqual(await expected(5, ids, query));
      expect([criteria, listed.totalItemCount, listed.items.length]).toEqual([criteria, total, 25]);
      expect([criteria, reads.entries <= most.entries, reads.messages <= most.messages]).toEqual([criteria, true, true]);
    }
  }, 300_000);

  it('count the last hour of a range until now from its cell, reading only the rest of that hour, which has not happened yet, and a first hour from the shorter side', async () => {
    // Prepare: now is 11:40; 80 messages sent and reported by then, every fourth undelivered, and one stamped 11:50 by a
    // clock ahead (created 11:45, sent 11:50, reported 12:05)
    const now = at(100);
    const ids = [...range(1, 80), 105];
    for (const id of ids) await send(newMessage(id, 8, id % 4 === 0 ? 'UNDELIV' : 'DELIVRD'));
    const lists = new IndexedMessageLists(store, new CountedWrites(store, () => ulid(), { clock: () => now }));
    const seen = observeListReads(store);
    // BatchGetItem reads at most: the page's messages where they are read one by one (the rare status), the counter
    // items (the totals item, the last hour's day item) and the one message in the rest of the hour. Counted from
    // their messages, the sending ranges' last hours read 26 more (27 and 47).
    const cases: [Partial<MessageQuery>, number, number][] = [
      [{ status: 'DELIVRD', startSendFrom: at(0), startSendTo: now }, 60, 3],
      // From 10:10: its first hour is that hour's cell less 10:00–10:09 (4 messages), not the 50 sent from 10:10.
      [{ status: 'DELIVRD', startSendFrom: at(10), startSendTo: now }, 57, 8],
      [{ status: 'UNDELIV', startSendFrom: at(0), startSendTo: now }, 20, 23],
      [{ status: 'DELIVRD', statusUpdateFrom: at(0), statusUpdateTo: now }, 60, 2],
      [{ status: 'DELIVRD', campaignCreatedFrom: at(0), campaignCreatedTo: now }, 60, 26],
    ];
    for (const [criteria, total, most] of cases) {
      // Act
      seen.messages = 0;
      const query = page(criteria);
      const listed = await lists.list(8, query);
      const messages = seen.messages;

      // Assess
      expect(listed).toEqual(await expected(8, ids, query));
      expect([criteria, listed.totalItemCount, messages <= most]).toEqual([criteria, total, true]);
    }
  }, 300_000);

  it.each([
    ['status-update', 'statusUpdate', 'gsi4sk', [30, 31, 32, 36, 210, 211, 214, 218]],
    ['sending', 'startSend', 'gsi2sk', [45, 46, 47, 51, 228, 232]],
  ] as const)(
    'count the partial edge hours of a %s range from the entries, whose keys end with the status, and check on their messages only entries written before',
    async (_, kind, sortKey, legacy) => {
      // Prepare: 240 messages over four hours, every fourth undelivered; a range from 10:50 to 13:49:59.999 (edges of 10
      // and 50 minutes; read are 10:50–10:59 and 13:50–13:59, the shorter sides: updates of messages 30–39 and 210–219,
      // sendings of 45–54 and 225–234, where the entries written the previous way are, in counts of each status that
      // differ between the two edges: leaving them out would not cancel between the first edge and the last hour's cell)
      const ids = range(1, 240);
      for (const id of ids) await send(newMessage(id, 6, id % 4 === 0 ? 'UNDELIV' : 'DELIVRD'));
      const lists = new IndexedMessageLists(store, counted(store));
      const seen = observeListReads(store);
      const queries = (['DELIVRD', 'UNDELIV'] as const).map((status) =>
        page({ status, [`${kind}From`]: at(50), [`${kind}To`]: at(230 - 1 / MINUTE) }),
      );
      const read = async (query: MessageQuery) => {
        seen.messages = 0;
        const listed = await lists.list(6, query);
        return { listed, messages: seen.messages };
      };

      // Act: keys as written now; then some entries in the edges as the previous version wrote them (no status)
      const now = [await read(queries[0]!), await read(queries[1]!)];
      for (const id of legacy) {
        const { Item } = await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.message(id) }));
        await store.db.send(
          new PutCommand({ TableName: store.tableName, Item: { ...Item, [sortKey]: String(Item?.[sortKey]).replace(/#[A-Z]+$/, '') } }),
        );
      }
      const before = [await read(queries[0]!), await read(queries[1]!)];

      // Assess: exact totals and pages. BatchGetItem reads the page's messages (up to 30 for the rare status, whose own
      // index is read newest created first and checked), the counter item of the status's share, the day item whose
      // 13:00 cell counts the last hour less 13:50–13:59 (the shorter side), and the legacy entries' messages; the
      // edges' 60 messages were all read before (fails for sendings when gsi2's keys do not carry the status).
      for (const [i, query] of queries.entries()) {
        const want = await expected(6, ids, query);
        expect(now[i]!.listed).toEqual(want);
        expect(before[i]!.listed).toEqual(want);
        expect(now[i]!.messages).toBeLessThanOrEqual(32);
        expect(before[i]!.messages).toBeLessThanOrEqual(32 + legacy.length);
      }
      expect(now.map(({ listed }) => listed.totalItemCount)).toEqual([135, 45]);
    },
    300_000,
  );
});
