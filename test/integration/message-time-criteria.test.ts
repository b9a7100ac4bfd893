import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { type CampaignState, listMessages, type MessageQuery } from '../../shared/domain/message-listing';
import type { Message } from '../../shared/domain/messages';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { keys } from '../../shared/store/keys';
import { MessageChanges } from '../../shared/store/message-changes';
import { messageCounters } from '../../shared/store/message-keys';
import { IndexedMessageLists } from '../../shared/store/message-lists';
import { messageUpgrade } from '../../shared/store/message-migration';
import { MessagesRepository } from '../../shared/store/messages-repo';
import { migrate } from '../../shared/store/migration';
import { sendBeforeSenderDays } from '../support/before-sender-days';
import { createCampaignOf } from '../support/before-text-counts';
import { startTestStore } from '../support/dynamo';
import { aMessage } from '../support/fixtures';
import { observeListReads } from '../support/store-calls';

/**
 * Message/List with a campaignCreateTs range and another criterion, or a sort: read in
 * proportion to the matches in the range (or the page), not to the criterion's matches over
 * all time nor to the range's messages each read twice.
 */
let store: Store;
let close: () => Promise<void>;
let seen: { entries: number; messages: number };

beforeAll(async () => {
  ({ store, close } = await startTestStore());
  seen = observeListReads(store);
});
afterAll(() => close());

const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const MINUTE = 60_000;
const at = (minutes: number) => new Date(T0 + minutes * MINUTE);
const ids = Array.from({ length: 400 }, (_, i) => i + 1);
/** A number 80 messages are sent to, and no other number starts or ends with. */
const SHARED_NUMBER = '447700900999';

/** Message `id`, created `id` minutes after T0: every fourth from Shop, the rest from Alerts; every other one says Hi; every fifth to one number. */
function newMessage(id: number): Message {
  const at0 = at(id).toISOString();
  return aMessage({
    id,
    campaignId: id,
    accountId: 7,
    from: id % 4 === 0 ? 'Shop' : 'Alerts',
    text: id % 2 === 0 ? 'Hi' : 'Hello',
    to: id % 5 === 0 ? SHARED_NUMBER : `4477009${String(id).padStart(5, '0')}`,
    segNum: (id % 3) + 1,
    createdAt: at0,
    startSendAt: at0,
    statusUpdatedAt: at(id + 20).toISOString(),
  });
}

const page = (criteria: Partial<MessageQuery>, sort: MessageQuery['sort'] = [], currentPage = 0): MessageQuery => ({
  ...criteria,
  sort,
  pagination: { pageSize: 25, currentPage },
});

describe('a creation range with another criterion or a sort', () => {
  let messages: MessagesRepository;
  let campaigns: CampaignsRepository;

  beforeAll(async () => {
    const changes = new MessageChanges(store, new CountedWrites(store, () => ulid()));
    messages = new MessagesRepository(store, changes);
    campaigns = new CampaignsRepository(store, changes);
    for (const id of ids) {
      const message = newMessage(id);
      await createCampaignOf(store, message);
      await messages.create(message, { status: 'NEW', deferred: false });
    }
  }, 120_000);

  async function expected(query: MessageQuery) {
    const stored = await messages.getMany(ids);
    const states = new Map<number, CampaignState>(
      (await campaigns.getMany(ids)).map((c) => [c.id, { status: c.status, deferred: c.deferredTo !== null }]),
    );
    return listMessages(stored, states, query);
  }

  it('reads the matches in the range, not those of the criterion over all time', async () => {
    const lists = new IndexedMessageLists(store, new CountedWrites(store, () => ulid()));
    // One hour: 60 messages. Before, each was read from the criterion's matches over the 400 minutes (200
    // saying Hi, 80 to the number, 400 not sent yet, each checked on its message for a sending time) or the
    // hour's messages whole, and all of them counted; now the matches in the hour, as small entries, and the page
    // (BatchGetItem: its messages and, for some criteria, a counter item of the total).
    const hour = { campaignCreatedFrom: at(100), campaignCreatedTo: at(159) };
    const cases: [Partial<MessageQuery>, MessageQuery['sort'], number, { entries: number; messages: number }][] = [
      // A sender's total from its day items: the edge hours' entries of the sender (20 minutes each side) and the page, not the range's 45 (80 before).
      [{ ...hour, from: 'Alerts' }, [], 45, { entries: 56, messages: 26 }],
      [{ ...hour, from: 'Alerts' }, [{ field: 'from', direction: 'ASC' }], 45, { entries: 56, messages: 26 }],
      // Whole hours (11:00–13:59, 135 from Alerts): the page and one Query of the sender's day item, nothing counted from the index.
      [{ campaignCreatedFrom: at(60), campaignCreatedTo: new Date(at(240).getTime() - 1), from: 'Alerts' }, [], 135, { entries: 27, messages: 25 }],
      // Open at one end, or both: the whole hours from the day items, the edge hour from the entries of its shorter side.
      [{ campaignCreatedFrom: at(130), from: 'Shop' }, [], 68, { entries: 26 + 8, messages: 26 }],
      [{ campaignCreatedTo: at(329), from: 'Alerts' }, [], 247, { entries: 26 + 23, messages: 25 }],
      [{ ...hour, text: 'Hi' }, [], 30, { entries: 65, messages: 25 }],
      [{ ...hour, to: SHARED_NUMBER }, [], 12, { entries: 30, messages: 12 }],
      // The last edge (12:00–12:39) counted as its hour's cell (the day item, one item more) less 12:40–12:59: 20 minutes of entries, not 40.
      [{ ...hour, campaignStatus: 'NEW' }, [], 60, { entries: 70, messages: 27 }],
      [{ ...hour, campaignStatus: 'NOT_YET_SENT' }, [], 60, { entries: 70, messages: 27 }],
      // Sent in the hour: its 60 entries of gsi2 decide the text (projected textHash), not 200 messages read for their sending time.
      [{ startSendFrom: at(100), startSendTo: at(159), text: 'Hi' }, [], 30, { entries: 105, messages: 27 }],
    ];
    for (const [criteria, sort, total, most] of cases) {
      // Act
      seen.entries = 0;
      seen.messages = 0;
      const query = page(criteria, sort);
      const listed = await lists.list(7, query);
      const reads = { ...seen };

      // Assess
      expect(listed).toEqual(await expected(query));
      expect([criteria, listed.totalItemCount]).toEqual([criteria, total]);
      expect([criteria, reads]).toEqual([
        criteria,
        { entries: Math.min(reads.entries, most.entries), messages: Math.min(reads.messages, most.messages) },
      ]);
    }
  }, 120_000);

  it('reads a page by segNum, status or sender from their key ranges, a dense range by number from its index, and a narrow one at about the cost of a page', async () => {
    const lists = new IndexedMessageLists(store, new CountedWrites(store, () => ulid()));
    // Whole hours, so that the totals are the day items' cells. Read whole, the range was 400
    // (or 60) gsi1 entries and every one of their messages again by BatchGetItem.
    const cases: [Partial<MessageQuery>, MessageQuery['sort'], number, { entries: number; messages: number }][] = [
      [
        { campaignCreatedFrom: at(0), campaignCreatedTo: at(480 - 1 / MINUTE) },
        [{ field: 'segNum', direction: 'DESC' }],
        400,
        { entries: 50, messages: 26 },
      ],
      [
        { campaignCreatedFrom: at(0), campaignCreatedTo: at(480 - 1 / MINUTE) },
        [{ field: 'status', direction: 'ASC' }],
        400,
        { entries: 50, messages: 26 },
      ],
      [
        { campaignCreatedFrom: at(0), campaignCreatedTo: at(480 - 1 / MINUTE) },
        [{ field: 'to', direction: 'ASC' }],
        400,
        { entries: 50, messages: 26 },
      ],
      [
        { campaignCreatedFrom: at(0), campaignCreatedTo: at(480 - 1 / MINUTE) },
        [{ field: 'from', direction: 'DESC' }],
        400,
        { entries: 50, messages: 26 },
      ],
      [
        { campaignCreatedFrom: at(60), campaignCreatedTo: at(120 - 1 / MINUTE) },
        [{ field: 'segNum', direction: 'ASC' }],
        60,
        { entries: 62, messages: 26 },
      ],
    ];
    for (const [criteria, sort, total, most] of cases) {
      for (const currentPage of [0, 1]) {
        // Act
        seen.entries = 0;
        seen.messages = 0;
        const query = page(criteria, sort, currentPage);
        const listed = await lists.list(7, query);
        const reads = { ...seen };

        // Assess
        expect(listed).toEqual(await expected(query));
        expect([criteria, listed.totalItemCount]).toEqual([criteria, total]);
        const bound = { entries: most.entries * (currentPage + 1), messages: most.messages };
        expect([criteria, currentPage, reads]).toEqual([
          criteria,
          currentPage,
          { entries: Math.min(reads.entries, bound.entries), messages: Math.min(reads.messages, bound.messages) },
        ]);
      }
    }
  }, 120_000);

  it('counts a campaign status most of the account has as the range less the few in the other statuses', async () => {
    const lists = new IndexedMessageLists(store, new CountedWrites(store, () => ulid()));
    // Four campaigns of the hour are declined: NEW then holds 396 of the 400 messages. Counted
    // as its own partitions, NEW in the hour was 56 entries; the hour's cells less the other
    // statuses' 4 read about a tenth of that.
    for (const id of [150, 151, 152, 153]) await campaigns.move(id, ['NEW'], 'DECLINED');
    const hour = { campaignCreatedFrom: at(120), campaignCreatedTo: at(180 - 1 / MINUTE) };
    const cases: [Partial<MessageQuery>, number, number, { entries: number; messages: number }][] = [
      [{ ...hour, campaignStatus: 'NEW' }, 56, 1, { entries: 6 + 30, messages: 26 }],
      // The rarer side is counted directly.
      [{ ...hour, campaignStatus: 'DECLINED' }, 4, 0, { entries: 8, messages: 5 }],
    ];
    for (const [criteria, total, complements, most] of cases) {
      // Act
      seen.entries = 0;
      seen.messages = 0;
      const before = lists.timeCriteria.complements;
      const query = page(criteria);
      const listed = await lists.list(7, query);
      const reads = { ...seen };

      // Assess
      expect(listed).toEqual(await expected(query));
      expect([criteria, listed.totalItemCount, lists.timeCriteria.complements - before]).toEqual([criteria, total, complements]);
      expect([criteria, reads]).toEqual([
        criteria,
        { entries: Math.min(reads.entries, most.entries), messages: Math.min(reads.messages, most.messages) },
      ]);
    }
  }, 120_000);
});

describe('admin migrate and the sender day items', () => {
  it('counts every message written before them once, and a sender with a creation range takes its total from them only once the migration has completed', async () => {
    // Prepare: account 8, 120 messages a minute apart from 10:00, a third from Shop; the first 100 written before the sender day items.
    const changes = new MessageChanges(store, new CountedWrites(store, () => ulid()));
    const messages = new MessagesRepository(store, changes);
    const campaigns = new CampaignsRepository(store, changes);
    const ids = Array.from({ length: 120 }, (_, i) => 1001 + i);
    const message = (id: number) => ({ ...newMessage(id - 1000), id, campaignId: id, accountId: 8, from: id % 3 === 0 ? 'Shop' : 'Alerts' });
    for (const id of ids) {
      if (id <= 1100) await sendBeforeSenderDays(store, message(id));
      else {
        await createCampaignOf(store, message(id));
        await messages.create(message(id), { status: 'NEW', deferred: false });
      }
    }
    await store.db.send(new DeleteCommand({ TableName: store.tableName, Key: keys.migration() }));
    // A change by this version counts the message it changes (and the migration then skips it).
    await campaigns.move(1005, ['NEW'], 'MODERATION');
    const expectedOf = async (query: MessageQuery) => {
      const states = new Map<number, CampaignState>(
        (await campaigns.getMany(ids)).map((c) => [c.id, { status: c.status, deferred: c.deferredTo !== null }]),
      );
      return listMessages(await messages.getMany(ids), states, query);
    };
    const queries = [
      page({ campaignCreatedFrom: at(0), campaignCreatedTo: new Date(at(120).getTime() - 1), from: 'Alerts' }),
      page({ campaignCreatedFrom: at(15), campaignCreatedTo: at(100), from: 'Shop' }),
      page({ campaignCreatedTo: at(59), from: 'Alerts' }, [], 1),
    ];
    const lists = () => new IndexedMessageLists(store, new CountedWrites(store, () => ulid()));
    const dayCells = async (from: string) =>
      (
        await store.db.send(
          new GetCommand({ TableName: store.tableName, Key: messageCounters.senderDay(8, from, '2026-11-20'), ConsistentRead: true }),
        )
      ).Item;
    // Not yet: the day items hold the messages written since (and the one changed), the totals are counted from the index.
    expect([(await dayCells('Alerts'))?.h11, (await dayCells('Shop'))?.h10]).toEqual([12, 1]);
    for (const query of queries) expect([query, await lists().list(8, query)]).toEqual([query, await expectedOf(query)]);
    const upgrades = [messageUpgrade(store, new CountedWrites(store, () => ulid()))];

    // Act
    const first = await migrate(store, upgrades);
    const second = await migrate(store, upgrades);

    // Assess: the 99 written before and not changed since, once; each hour's cell the sender's messages created in it.
    expect([first.completed, first.upgraded, second.completed, second.upgraded]).toEqual([true, 99, true, 0]);
    const alerts = await dayCells('Alerts');
    const shop = await dayCells('Shop');
    expect([alerts?.h10, alerts?.h11, shop?.h10, shop?.h11]).toEqual([39, 40, 20, 20]);
    // And each hour's cell of the status the messages have (all delivered).
    expect([alerts?.['h10#st#DELIVRD'], alerts?.['h11#st#DELIVRD'], shop?.['h10#st#DELIVRD'], shop?.['h11#st#DELIVRD']]).toEqual([39, 40, 20, 20]);
    for (const query of queries) {
      seen.entries = 0;
      const listed = await lists().list(8, query);
      expect([query, listed]).toEqual([query, await expectedOf(query)]);
      // The page and the edge hours' entries (15 and 40 minutes of one sender), not the range's matches.
      expect([query, seen.entries]).toEqual([query, Math.min(seen.entries, 26 + 14)]);
    }
  }, 180_000);
});
