import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { type CampaignState, listMessages, type MessageQuery } from '../../shared/domain/message-listing';
import { MESSAGE_STATUSES } from '../../shared/domain/message-status';
import type { Message } from '../../shared/domain/messages';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { keys } from '../../shared/store/keys';
import { MessageChanges } from '../../shared/store/message-changes';
import { MessageCombinations } from '../../shared/store/message-combos';
import { IndexedMessageLists } from '../../shared/store/message-lists';
import { messageUpgrade } from '../../shared/store/message-migration';
import { MessagesRepository } from '../../shared/store/messages-repo';
import { migrate } from '../../shared/store/migration';
import { sendBeforeComboCounts } from '../support/before-combo-counts';
import { createCampaignOf } from '../support/before-text-counts';
import { crashingStore } from '../support/crashing-store';
import { startTestStore } from '../support/dynamo';
import { aMessage } from '../support/fixtures';
import { observeListReads } from '../support/store-calls';

/**
 * Message/List with status, campaign status and sender combined: totals from the cells
 * counted changes keep (MESSAGES and the sender's `MESSAGES#F#<from>`), exact after a crash
 * at any write once the sweep has run, and after `admin migrate` has counted the messages
 * written before those cells; pages read from an index in order at about the page's cost.
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
const SENDERS = ['Alerts', 'Shop', 'Bank'];
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const page = (criteria: Partial<MessageQuery>, currentPage = 0, sort: MessageQuery['sort'] = []): MessageQuery => ({
  ...criteria,
  sort,
  pagination: { pageSize: 25, currentPage },
});

function newMessage(id: number, accountId: number, fields: Partial<Message> = {}): Message {
  return aMessage({
    id,
    campaignId: id,
    accountId,
    from: SENDERS[id % SENDERS.length] as string,
    to: `4477009${String(id).padStart(5, '0')}`,
    status: 'NEW',
    createdAt: new Date(T0 + (id - (id % 4 === 0 ? 1 : 0)) * 1000).toISOString(),
    startSendAt: null,
    statusUpdatedAt: null,
    ...fields,
  });
}

async function send(message: Message, on = store): Promise<void> {
  await createCampaignOf(store, message);
  await repositories(on).messages.create(message, { status: 'NEW', deferred: false });
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

/** Every pair and the triple of a status, a campaign status and a sender, and each alone with a sort. */
function combinations(statuses: Message['status'][], campaignStatuses: MessageQuery['campaignStatus'][], senders: string[]): MessageQuery[] {
  const queries: MessageQuery[] = [];
  for (const status of statuses)
    for (const campaignStatus of campaignStatuses)
      for (const from of senders)
        queries.push(
          page({ status, from }),
          page({ status, campaignStatus }),
          page({ campaignStatus, from }),
          page({ status, campaignStatus, from }),
          page({ status, from }, 0, [{ field: 'segNum', direction: 'DESC' }]),
          page({ campaignStatus }, 0, [{ field: 'to', direction: 'ASC' }]),
        );
  return queries;
}

describe('combined totals kept by counted changes', () => {
  it('are exact after a creation, a status move or a campaign move stopped after any of its writes, once the sweep finishes it', async () => {
    for (let writes = 1; ; writes++) {
      // Prepare
      await close();
      ({ store, close } = await startTestStore());
      await send(newMessage(1, 7, { from: 'Alerts' }));
      await send(newMessage(2, 7, { from: 'Alerts' }));
      const crashing = crashingStore(store, writes);

      // Act: a third message's creation, then its status and its campaign's moves, stop after `writes` writes; the sweep runs.
      await (async () => {
        const { messages, campaigns } = repositories(crashing);
        await send(newMessage(3, 7, { from: 'Alerts' }), crashing);
        await messages.claimForSend(3, new Date(T0 + 60_000));
        await messages.markAccepted(3, 'sim', 'g3', new Date(T0 + 61_000));
        await campaigns.move(3, ['NEW'], 'RUNNING');
      })().catch(() => undefined);
      await crashing.landed();
      const later = () => new Date(Date.now() + 60_000);
      await new CountedWrites(store, () => ulid(later().getTime()), { clock: later }).recover(60_000);
      // A campaign move stopped between the message's copy and the campaign is retried until both hold (campaigns-repo.ts).
      await repositories(store).campaigns.move(3, ['NEW'], 'RUNNING');

      // Assess: every combination's total is the rule's over the messages as they stand, and comes from the cells.
      const lists = new IndexedMessageLists(store, counted(store));
      for (const query of combinations(['NEW', 'ACCEPTD'], ['NEW', 'RUNNING'], ['Alerts'])) {
        const want = await expected(7, [1, 2, 3], query);
        expect([writes, query, await lists.list(7, query)]).toEqual([writes, query, want]);
        if (query.sort.length === 0)
          expect([writes, query, await lists.combinations.page(7, query, 0, 25)]).toMatchObject([
            writes,
            query,
            { listing: { totalItemCount: want.totalItemCount } },
          ]);
      }
      if (!crashing.crashed()) break;
    }
  }, 300_000);
});

describe('admin migrate and the combined totals', () => {
  it('counts every message written before the cells once, and they are relied on only once the migration has completed', async () => {
    // Prepare: a table upgraded from the version before the cells, its migration not yet run.
    const ids = range(1, 36);
    const { campaigns } = repositories(store);
    for (const id of ids) {
      const status = MESSAGE_STATUSES[id % 4 === 0 ? 1 : id % 3 === 0 ? 5 : 4] as Message['status'];
      const message = newMessage(id, 9, { status, startSendAt: new Date(T0 + id * 1000 + 500).toISOString() });
      if (id <= 8) await send(message);
      else await sendBeforeComboCounts(store, message);
    }
    await store.db.send(new DeleteCommand({ TableName: store.tableName, Key: keys.migration() }));
    // Changes by this version count the messages they change (and the migration then skips them).
    for (const id of [10, 11, 12]) await campaigns.move(id, ['NEW'], 'MODERATION');
    await repositories(store).messages.applyStatus(16, 'DELIVRD', new Date(T0 + 120_000));
    const queries = combinations(['DELIVRD', 'UNDELIV', 'ENQUEUD'], ['NEW', 'MODERATION', 'NOT_YET_SENT'], SENDERS);
    const answers = () => new IndexedMessageLists(store, counted(store));
    // Not yet: without the migration's counts, the matches are read and counted.
    for (const query of queries) expect([query, await answers().list(9, query)]).toEqual([query, await expected(9, ids, query)]);
    expect(await new MessageCombinations(store, counted(store)).page(9, page({ status: 'DELIVRD', from: 'Shop' }), 0, 25)).toBeUndefined();
    const upgrades = [messageUpgrade(store, counted(store))];

    // Act
    const first = await migrate(store, upgrades);
    const second = await migrate(store, upgrades);

    // Assess: the 28 written before, but the 4 changed since, upgraded once; every combination as the rule says, from the cells.
    expect([first.completed, first.upgraded, second.completed, second.upgraded]).toEqual([true, 24, true, 0]);
    const afterwards = answers();
    for (const query of queries) {
      const want = await expected(9, ids, query);
      expect([query, await afterwards.list(9, query)]).toEqual([query, want]);
      if (query.sort.length === 0)
        expect([query, await afterwards.combinations.page(9, query, 0, 25)]).toMatchObject([
          query,
          { listing: { totalItemCount: want.totalItemCount } },
        ]);
    }
  }, 180_000);
});

describe('pages of a common combination', () => {
  it('read about the page, first or last, not every match of the narrower criterion', async () => {
    // Prepare: 300 messages, half from Alerts, every tenth (all from Alerts) undelivered: 120 delivered from Alerts.
    const ids = range(1, 300);
    const { messages } = repositories(store);
    for (const id of ids) {
      const message = newMessage(id, 5, { from: id % 2 === 0 ? 'Alerts' : 'Shop', status: id % 10 === 0 ? 'UNDELIV' : 'DELIVRD' });
      await createCampaignOf(store, message);
      await messages.create(message, { status: 'NEW', deferred: false });
    }
    const lists = new IndexedMessageLists(store, counted(store));
    const seen = observeListReads(store);

    for (const currentPage of [0, 4]) {
      // Act
      seen.entries = 0;
      seen.messages = 0;
      const query = page({ status: 'DELIVRD', from: 'Alerts' }, currentPage);
      const listed = await lists.list(5, query);
      const reads = { ...seen };

      // Assess: ~26 × 300 / 120 entries (the first Limit's margin: a quarter more and two standard deviations, 102 in all) of gsi1
      // (whole messages, nothing more to read), from the nearer end; the matches of `from` alone would be 150 entries and as many messages.
      expect(listed).toEqual(await expected(5, ids, query));
      expect([currentPage, listed.totalItemCount, listed.items.length]).toEqual([currentPage, 120, currentPage === 0 ? 25 : 20]);
      // BatchGetItem reads only the total's two counter items (MESSAGES and MESSAGES#F#Alerts).
      expect([currentPage, reads.entries <= 102, reads.messages]).toEqual([currentPage, true, 2]);
    }

    // A rare sender with a campaign status every message has: its own range of gsi9, each message read to check the campaign status.
    const rare = range(301, 305);
    for (const id of rare) {
      const message = newMessage(id, 5, { from: 'Rare', status: 'DELIVRD' });
      await createCampaignOf(store, message);
      await messages.create(message, { status: 'NEW', deferred: false });
    }
    seen.entries = 0;
    seen.messages = 0;
    const query = page({ from: 'Rare', campaignStatus: 'NEW' });
    expect(await lists.combinations.page(5, query, 0, 25)).toMatchObject({ driven: 'from', listing: { totalItemCount: 5 } });
    expect(await lists.list(5, query)).toEqual(await expected(5, [...ids, ...rare], query));
    expect(seen.entries).toBeLessThanOrEqual(2 * 7);
  }, 120_000);
});
