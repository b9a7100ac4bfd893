import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { listMessages } from '../../shared/domain/message-listing';
import type { Message } from '../../shared/domain/messages';
import { systemClock, ulidAt } from '../../shared/ids';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { withoutNulls } from '../../shared/store/items';
import { keys } from '../../shared/store/keys';
import { MessageChanges } from '../../shared/store/message-changes';
import { messageCounters, messageIndexKeys } from '../../shared/store/message-keys';
import { IndexedMessageLists } from '../../shared/store/message-lists';
import { messageUpgrade } from '../../shared/store/message-migration';
import { MessageTimeRanges } from '../../shared/store/message-time-ranges';
import { MessagesRepository } from '../../shared/store/messages-repo';
import { migrate } from '../../shared/store/migration';
import { MigrationProgress } from '../../shared/store/migration-progress';
import { startTestStore } from '../support/dynamo';
import { aMessage } from '../support/fixtures';

let store: Store;
let close: () => Promise<void>;
let counted: CountedWrites;

beforeEach(async () => {
  ({ store, close } = await startTestStore());
  counted = new CountedWrites(store, () => ulidAt(systemClock()));
});
afterEach(() => close());

const ACCOUNT = 3;
const QUERY = { sort: [], pagination: { pageSize: 25 as const, currentPage: 0 } };

/** A message and its campaign as the previous version wrote them: gsi1 only, no schema, not counted. */
async function writeOld(
  message: Message,
  campaignStatus: 'DONE' | 'READY_FOR_SEND',
  deferredTo: string | null = null,
): Promise<Record<string, unknown>> {
  await new CampaignsRepository(store).create({
    id: message.campaignId,
    accountId: message.accountId,
    messageId: message.id,
    name: null,
    status: campaignStatus,
    linkIds: [],
    createdAt: message.createdAt,
    sentAt: message.startSendAt,
    deferredTo,
  });
  const item = {
    ...keys.message(message.id),
    ...keys.messageIndex(message.accountId, message.createdAt, message.id),
    entity: 'Message',
    ...withoutNulls(message),
  };
  await store.db.send(new PutCommand({ TableName: store.tableName, Item: item }));
  return item;
}

describe('messageUpgrade', () => {
  it('brings a message of the previous version into the lists and the counts, once', async () => {
    // Prepare
    const sent = aMessage({
      id: 1,
      campaignId: 11,
      accountId: ACCOUNT,
      status: 'DELIVRD',
      createdAt: '2026-11-20T10:00:00.000Z',
      startSendAt: '2026-11-20T10:00:05.000Z',
      statusUpdatedAt: '2026-11-20T10:01:00.000Z',
    });
    const held = aMessage({
      id: 2,
      campaignId: 12,
      accountId: ACCOUNT,
      status: 'NEW',
      createdAt: '2026-11-20T11:00:00.000Z',
      startSendAt: null,
      statusUpdatedAt: null,
    });
    const items = [await writeOld(sent, 'DONE'), await writeOld(held, 'READY_FOR_SEND', '2026-11-21T10:00:00.000Z')];
    const lists = new IndexedMessageLists(store, counted);
    expect((await lists.list(ACCOUNT, QUERY)).items).toEqual([]);
    const upgrade = messageUpgrade(store, counted);

    // Act
    const outcomes = [await upgrade.upgrade(items[0] as never), await upgrade.upgrade(items[1] as never)];

    // Assess
    expect(outcomes).toEqual(['upgraded', 'upgraded']);
    const stored = await new MessagesRepository(store).getMany([1, 2]);
    const states = new Map([
      [11, { status: 'DONE' as const, deferred: false }],
      [12, { status: 'READY_FOR_SEND' as const, deferred: true }],
    ]);
    for (const query of [
      QUERY,
      { ...QUERY, campaignStatus: 'DEFERRED' as const },
      { ...QUERY, campaignStatus: 'DONE' as const },
      { ...QUERY, status: 'DELIVRD' as const },
      { ...QUERY, startSendFrom: new Date('2026-11-20T00:00:00Z') },
      { ...QUERY, sort: [{ field: 'segNum' as const, direction: 'ASC' as const }] },
    ]) {
      expect(await lists.list(ACCOUNT, query)).toEqual(listMessages(stored, states, query));
    }
    const [cells] = await counted.read([messageCounters.all(ACCOUNT)], true);
    expect(cells).toMatchObject({ all: 2, 'st#DELIVRD': 1, 'st#NEW': 1, 'cs#DONE': 1, 'cs#READY_FOR_SEND#D': 1 });
    // Again: nothing to do, nothing counted twice.
    const again = await new MessageChanges(store, counted).get(1);
    expect(await upgrade.upgrade(again as never)).toBe('skipped');
    expect((await counted.read([messageCounters.all(ACCOUNT)], true))[0]).toMatchObject({ all: 2 });
  });

  it('writes nothing over a message changed since it was read, and says so', async () => {
    // Prepare
    const message = aMessage({ id: 5, campaignId: 15, accountId: ACCOUNT, status: 'ACCEPTD', statusUpdatedAt: '2026-11-20T10:00:05.000Z' });
    const read = await writeOld(message, 'DONE');
    // A report after the read: the change upgrades the message itself.
    await new MessagesRepository(store).applyStatus(5, 'DELIVRD', new Date('2026-11-20T10:02:00Z'));

    // Act
    const outcome = await messageUpgrade(store, counted).upgrade(read as never);

    // Assess
    expect(outcome).toBe('changed');
    expect((await counted.read([messageCounters.all(ACCOUNT)], true))[0]).toMatchObject({ all: 1, 'st#DELIVRD': 1 });
    expect((await counted.read([messageCounters.all(ACCOUNT)], true))[0]?.['st#ACCEPTD'] ?? 0).toBe(0);
  });

  it('brings sending and status times written before the message was created up to its creation, and the time ranges list it so', async () => {
    // Prepare: two messages as this version wrote them before such times were brought up:
    // one reported at 10:00:00 (a report's time in whole seconds) though created at 10:00:00.700.
    const changes = new MessageChanges(store, counted);
    const early = aMessage({
      id: 21,
      campaignId: 31,
      accountId: ACCOUNT,
      createdAt: '2026-11-20T10:00:00.700Z',
      startSendAt: null,
      statusUpdatedAt: null,
    });
    const plain = aMessage({
      id: 22,
      campaignId: 32,
      accountId: ACCOUNT,
      createdAt: '2026-11-20T09:00:00.000Z',
      startSendAt: null,
      statusUpdatedAt: null,
    });
    const state = { status: 'DONE' as const, deferred: false };
    for (const message of [early, plain]) await changes.create(message, state);
    await changes.change(22, () => ({ startSendAt: '2026-11-20T09:00:05.000Z', statusUpdatedAt: '2026-11-20T09:30:00.000Z' }));
    const times = { startSendAt: '2026-11-20T10:00:00.300Z', statusUpdatedAt: '2026-11-20T10:00:00.000Z' };
    const { gsi2sk, gsi4sk } = messageIndexKeys({ ...early, ...times, campaignStatus: 'DONE', deferred: false });
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.message(21),
        UpdateExpression: 'SET startSendAt = :s, statusUpdatedAt = :u, gsi2sk = :g2, gsi4sk = :g4',
        ExpressionAttributeValues: { ':s': times.startSendAt, ':u': times.statusUpdatedAt, ':g2': gsi2sk, ':g4': gsi4sk },
      }),
    );
    for (const kind of ['S', 'U'] as const) {
      await store.db.send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: messageCounters.day(ACCOUNT, kind, '2026-11-20'),
          UpdateExpression: 'ADD h10 :one',
          ExpressionAttributeValues: { ':one': 1 },
        }),
      );
    }
    // The table was upgraded from that version: its migration has not completed.
    await store.db.send(new DeleteCommand({ TableName: store.tableName, Key: keys.migration() }));
    const states = new Map([
      [31, state],
      [32, state],
    ]);
    const until = (to: string, field: 'statusUpdate' | 'startSend') => ({
      ...QUERY,
      [`${field}From`]: new Date('2026-11-20T09:00:00.000Z'),
      [`${field}To`]: new Date(to),
    });
    const queries = ['2026-11-20T10:00:00.000Z', '2026-11-20T10:00:00.500Z', '2026-11-20T10:00:00.700Z'].flatMap((to) => [
      until(to, 'statusUpdate'),
      until(to, 'startSend'),
    ]);
    const stored = await new MessagesRepository(store).getMany([21, 22]);
    const before = new IndexedMessageLists(store, counted);
    for (const query of queries) expect(await before.list(ACCOUNT, query)).toEqual(listMessages(stored, states, query));
    expect((await before.list(ACCOUNT, queries[0] as never)).totalItemCount).toBe(2);
    // Not from creation order yet: a time before creation could be missed there.
    expect(await new MessageTimeRanges(store).page(ACCOUNT, queries[4] as never, 2, 0, 2)).toBeUndefined();
    const item = await changes.get(21);

    // Act
    const outcome = await messageUpgrade(store, counted).upgrade(item as never);
    await new MigrationProgress(store).markCompleted(new Date().toISOString());

    // Assess
    expect(outcome).toBe('upgraded');
    const after = await new MessagesRepository(store).getMany([21, 22]);
    expect(after.find(({ id }) => id === 21)).toMatchObject({ id: 21, startSendAt: early.createdAt, statusUpdatedAt: early.createdAt });
    const lists = new IndexedMessageLists(store, counted);
    for (const query of queries) expect(await lists.list(ACCOUNT, query)).toEqual(listMessages(after, states, query));
    expect((await lists.list(ACCOUNT, queries[0] as never)).totalItemCount).toBe(1);
    expect((await lists.list(ACCOUNT, queries[4] as never)).totalItemCount).toBe(2);
    expect((await new MessageTimeRanges(store).page(ACCOUNT, queries[4] as never, 2, 0, 2))?.map(({ id }) => id)).toEqual([21, 22]);
    expect(await messageUpgrade(store, counted).upgrade((await changes.get(21)) as never)).toBe('skipped');
  });

  it('writes again the sending and status-update keys written before they ended with the status, counting nothing, once', async () => {
    // Prepare: three messages as this version writes them, two of them with gsi2sk and gsi4sk as the version before wrote them (no status after the tail)
    const changes = new MessageChanges(store, counted);
    const state = { status: 'DONE' as const, deferred: false };
    const sent = { startSendAt: '2026-11-20T10:20:00.000Z', statusUpdatedAt: '2026-11-20T10:40:00.000Z' };
    const made = [
      aMessage({ id: 41, campaignId: 51, accountId: ACCOUNT, createdAt: '2026-11-20T10:00:00.000Z', status: 'DELIVRD', ...sent }),
      aMessage({ id: 42, campaignId: 52, accountId: ACCOUNT, createdAt: '2026-11-20T10:01:00.000Z', status: 'UNDELIV', ...sent }),
      aMessage({ id: 43, campaignId: 53, accountId: ACCOUNT, createdAt: '2026-11-20T10:02:00.000Z', status: 'DELIVRD', ...sent }),
    ];
    for (const message of made) await changes.create(message, state);
    for (const id of [41, 42]) {
      const { gsi2sk = '', gsi4sk = '' } = (await changes.get(id)) as Record<string, string>;
      await store.db.send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: keys.message(id),
          UpdateExpression: 'SET gsi2sk = :g2, gsi4sk = :g4',
          ExpressionAttributeValues: { ':g2': gsi2sk.replace(/#[A-Z]+$/, ''), ':g4': gsi4sk.replace(/#[A-Z]+$/, '') },
        }),
      );
    }
    const counters = async () => counted.read([messageCounters.all(ACCOUNT), messageCounters.day(ACCOUNT, 'S', '2026-11-20')], true);
    const countedBefore = await counters();
    const states = new Map(made.map((message) => [message.campaignId, state]));
    // Edges inside the hour: the entries' status decides them.
    const queries = (['startSend', 'statusUpdate'] as const).flatMap((field) =>
      (['DELIVRD', 'UNDELIV'] as const).map((status) => ({
        ...QUERY,
        status,
        [`${field}From`]: new Date('2026-11-20T10:10:00.000Z'),
        [`${field}To`]: new Date('2026-11-20T12:00:00.000Z'),
      })),
    );
    const lists = new IndexedMessageLists(store, counted);
    const before = await Promise.all(queries.map((query) => lists.list(ACCOUNT, query as never)));

    // Act
    const first = await migrate(store, [messageUpgrade(store, counted)], { restart: true });
    const second = await migrate(store, [messageUpgrade(store, counted)], { restart: true });

    // Assess: the two written again with the status (and only those), nothing counted, the same answers
    expect([first.upgraded, second.upgraded, second.completed]).toEqual([2, 0, true]);
    for (const message of made) {
      const item = (await changes.get(message.id)) as Record<string, string>;
      expect([item.gsi2sk, item.gsi4sk]).toEqual([
        `SEND#${sent.startSendAt}#${message.createdAt}#${String(message.id).padStart(15, '0')}#${message.status}`,
        `UPD#${sent.statusUpdatedAt}#${message.createdAt}#${String(message.id).padStart(15, '0')}#${message.status}`,
      ]);
    }
    expect(await counters()).toEqual(countedBefore);
    const stored = await new MessagesRepository(store).getMany([41, 42, 43]);
    for (const [i, query] of queries.entries()) {
      expect(before[i]).toEqual(listMessages(stored, states, query as never));
      expect(await lists.list(ACCOUNT, query as never)).toEqual(before[i]);
    }
    expect(before.map((answer) => answer.totalItemCount)).toEqual([2, 1, 2, 1]);
  });
});
