import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { listMessages, type MessageQuery } from '../../shared/domain/message-listing';
import type { Message } from '../../shared/domain/messages';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { withoutNulls } from '../../shared/store/items';
import { keys } from '../../shared/store/keys';
import { MessageChanges } from '../../shared/store/message-changes';
import { messageCounters } from '../../shared/store/message-keys';
import { IndexedMessageLists } from '../../shared/store/message-lists';
import { messageUpgrade } from '../../shared/store/message-migration';
import { MessagesRepository } from '../../shared/store/messages-repo';
import { migrate } from '../../shared/store/migration';
import { createCampaignOf, sendBeforeTextCounts } from '../support/before-text-counts';
import { crashingStore } from '../support/crashing-store';
import { startTestStore } from '../support/dynamo';
import { aMessage } from '../support/fixtures';

/**
 * criteria[text]'s total from the text's own counter (`MESSAGES#TEXT#<hash>`), kept by the
 * counted writes of a message's creation: it follows creation and nothing after it, survives
 * a creation stopped after any of its writes, and `admin migrate` puts messages written before
 * the counter into it, once.
 */
let store: Store;
let close: () => Promise<void>;

beforeEach(async () => {
  ({ store, close } = await startTestStore());
});
afterEach(() => close());

const PAGE = { sort: [], pagination: { pageSize: 25 as const, currentPage: 0 } };
const byText = (text: string): MessageQuery => ({ ...PAGE, text });
const counted = (on: Store) => new CountedWrites(on, () => ulid());
/** The scheduled sweep as it runs a minute later: what a stopped process left is a minute old by its clock. */
const sweepLater = () => {
  const later = () => new Date(Date.now() + 60_000);
  return new CountedWrites(store, () => ulid(later().getTime()), { clock: later }).recover(60_000);
};
const repositories = (on: Store) => {
  const changes = new MessageChanges(on, counted(on));
  return { changes, campaigns: new CampaignsRepository(on, changes), messages: new MessagesRepository(on, changes) };
};
const lists = () => new IndexedMessageLists(store, counted(store));

function newMessage(id: number, accountId: number, text: string): Message {
  return aMessage({
    id,
    campaignId: id,
    accountId,
    text,
    status: 'NEW',
    createdAt: new Date(Date.parse('2026-11-20T10:00:00.000Z') + id * 1000).toISOString(),
    startSendAt: null,
    statusUpdatedAt: null,
  });
}

function campaignOf(message: Message): Promise<void> {
  return createCampaignOf(store, message);
}

/** Sent as SendSmsMessage sends it: its campaign, then the message. */
async function send(message: Message, on = store): Promise<void> {
  await campaignOf(message);
  await repositories(on).messages.create(message, { status: 'NEW', deferred: false });
}

/** The text counter's cell and the ids left in its set. */
async function textCounter(accountId: number, text: string): Promise<{ all: number; ops: number }> {
  const result = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: messageCounters.text(accountId, text), ConsistentRead: true }),
  );
  return { all: Number(result.Item?.all ?? 0), ops: (result.Item?.ops as Set<string> | undefined)?.size ?? 0 };
}

/** What one list call reads from gsi5 (index entries returned), and the sort keys of the counter items written meanwhile. */
function observe(on: Store): { gsi5Entries: number; counterWrites: string[] } {
  const seen = { gsi5Entries: 0, counterWrites: [] as string[] };
  on.db.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { IndexName?: string; Key?: { pk?: string; sk?: string } };
      const result = await next(args);
      if (context.commandName === 'QueryCommand' && input.IndexName === 'gsi5')
        seen.gsi5Entries += (result.output as { ScannedCount?: number }).ScannedCount ?? 0;
      if (context.commandName === 'UpdateItemCommand' && input.Key?.pk?.endsWith('#COUNTS')) seen.counterWrites.push(String(input.Key.sk));
      return result;
    },
    { step: 'initialize', name: 'observeTextCounts' },
  );
  return seen;
}

describe('criteria[text] totals from the text counter', () => {
  it('follow creation and nothing after it, and a call reads the page, not every match', async () => {
    // Prepare
    const seen = observe(store);
    let id = 0;
    for (let i = 0; i < 120; i++) await send(newMessage(++id, 7, 'Sale today'));
    for (let i = 0; i < 4; i++) await send(newMessage(++id, 7, 'Sale today!'));
    for (let i = 0; i < 3; i++) await send(newMessage(++id, 8, 'Sale today'));
    // A creation writes the text's counter: its add, and the forget of the change's id.
    expect(seen.counterWrites.filter((sk) => sk.startsWith('MESSAGES#TEXT#'))).toHaveLength(2 * id);

    // Act: five messages live their lives, two campaigns move
    seen.counterWrites.length = 0;
    const { messages, campaigns } = repositories(store);
    for (const n of [1, 2, 3, 4, 5]) {
      await messages.claimForSend(n, new Date('2026-11-20T11:00:00Z'));
      await messages.markAccepted(n, 'sim', `g${n}`, new Date('2026-11-20T11:00:01Z'));
      await messages.applyStatus(n, n % 2 ? 'DELIVRD' : 'UNDELIV', new Date('2026-11-20T11:05:00Z'));
    }
    await campaigns.move(1, ['NEW'], 'DONE', '2026-11-20T11:00:01.000Z');
    await campaigns.move(2, ['NEW'], 'DONE', '2026-11-20T11:00:01.000Z');
    const afterCreation = [...seen.counterWrites];
    seen.gsi5Entries = 0;
    const listed = await lists().list(7, byText('Sale today'));

    // Assess
    expect(afterCreation.length).toBeGreaterThan(0);
    expect(afterCreation.filter((sk) => sk.startsWith('MESSAGES#TEXT#'))).toEqual([]);
    expect(listed.totalItemCount).toBe(120);
    const stored = await messages.getMany(Array.from({ length: id }, (_, i) => i + 1));
    const states = new Map((await campaigns.getMany(stored.map((m) => m.campaignId))).map((c) => [c.id, { status: c.status, deferred: false }]));
    expect(listed).toEqual(
      listMessages(
        stored.filter((m) => m.accountId === 7),
        states,
        byText('Sale today'),
      ),
    );
    // The page and the entry after it, where counting the index would read all 120.
    expect(seen.gsi5Entries).toBeLessThanOrEqual(26);
    expect((await lists().list(7, byText('Sale today!'))).totalItemCount).toBe(4);
    expect((await lists().list(8, byText('Sale today'))).totalItemCount).toBe(3);
    expect((await lists().list(7, byText('Sale'))).totalItemCount).toBe(0);
    // The last page, read from the other end once the counter gives the total.
    const last = await lists().list(7, { ...byText('Sale today'), pagination: { pageSize: 25, currentPage: 4 } });
    expect(last.items.map(({ message }) => message.id)).toEqual([20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(await textCounter(7, 'Sale today')).toEqual({ all: 120, ops: 0 });
  }, 120_000);

  it('counts a creation stopped after any of its writes once, when the sweep finishes it', async () => {
    for (let writes = 1; ; writes++) {
      // Prepare
      await close();
      ({ store, close } = await startTestStore());
      await send(newMessage(1, 7, 'Your order has shipped'));
      const crashing = crashingStore(store, writes);

      // Act: the second message's creation stops after `writes` writes; the sweep runs.
      await send(newMessage(2, 7, 'Your order has shipped'), crashing).catch(() => undefined);
      await sweepLater();

      // Assess
      const listed = await lists().list(7, byText('Your order has shipped'));
      expect([writes, listed.totalItemCount, listed.items.map(({ message }) => message.id)]).toEqual([writes, 2, [2, 1]]);
      // (A crash between clearing the mark and forgetting its id leaves the id in the set, for the next add to prune.)
      expect((await textCounter(7, 'Your order has shipped')).all).toBe(2);
      if (!crashing.crashed()) break;
    }
  }, 120_000);
});

describe('admin migrate and the text counter', () => {
  /** A message of the version before the indexes: gsi1 only, no schema, not counted. */
  async function sendBeforeIndexes(message: Message): Promise<void> {
    await campaignOf(message);
    const item = {
      ...keys.message(message.id),
      ...keys.messageIndex(message.accountId, message.createdAt, message.id),
      entity: 'Message',
      ...withoutNulls(message),
    };
    await store.db.send(new PutCommand({ TableName: store.tableName, Item: item }));
  }

  it('puts every message written before the counter into it, once however often it runs', async () => {
    // Prepare
    const text = 'Promo: 20% off';
    await send(newMessage(1, 9, text));
    await send(newMessage(2, 9, text));
    for (const id of [3, 4, 5, 6]) await sendBeforeTextCounts(store, newMessage(id, 9, text));
    await sendBeforeTextCounts(store, newMessage(7, 9, 'Something else'));
    await sendBeforeIndexes(newMessage(8, 9, text));
    const { messages, campaigns } = repositories(store);
    // A change by this version counts the message it changes (and the migration then skips it).
    await messages.claimForSend(6, new Date('2026-11-20T11:00:00Z'));
    expect((await lists().list(9, byText(text))).totalItemCount).toBe(3);
    const upgrades = [messageUpgrade(store, counted(store))];

    // Act
    const first = await migrate(store, upgrades);
    const second = await migrate(store, upgrades);

    // Assess
    expect([first.completed, first.upgraded, second.completed, second.upgraded]).toEqual([true, 5, true, 0]);
    const stored = await messages.getMany([1, 2, 3, 4, 5, 6, 7, 8]);
    const states = new Map((await campaigns.getMany([1, 2, 3, 4, 5, 6, 7, 8])).map((c) => [c.id, { status: c.status, deferred: false }]));
    for (const query of [byText(text), byText('Something else'), { ...byText(text), status: 'NEW' as const }]) {
      expect(await lists().list(9, query)).toEqual(listMessages(stored, states, query));
    }
    expect(await textCounter(9, text)).toEqual({ all: 7, ops: 0 });
    expect(await textCounter(9, 'Something else')).toEqual({ all: 1, ops: 0 });
    expect((await counted(store).read([messageCounters.all(9)], true))[0]).toMatchObject({ all: 8, 'st#NEW': 7, 'st#ENQUEUD': 1 });
    // Later changes leave the counted messages counted once.
    await messages.claimForSend(3, new Date('2026-11-20T11:00:00Z'));
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.message(4),
        UpdateExpression: 'SET gateway = :g',
        ExpressionAttributeValues: { ':g': 'sim' },
      }),
    );
    await migrate(store, upgrades);
    expect((await lists().list(9, byText(text))).totalItemCount).toBe(7);
  }, 120_000);
});
