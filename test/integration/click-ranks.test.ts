import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { ClickAggregator, type QueuedClick } from '../../shared/domain/click-aggregator';
import { LinkCodec } from '../../shared/domain/link-code';
import type { Link } from '../../shared/domain/links';
import { ClickRanks } from '../../shared/store/click-ranks';
import { ClicksRepository } from '../../shared/store/clicks-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import { withoutNulls } from '../../shared/store/items';
import { keys } from '../../shared/store/keys';
import { linkUpgrade } from '../../shared/store/link-migration';
import { startTestStore } from '../support/dynamo';
import { aLink, anAccount } from '../support/fixtures';
import { testLinkService } from '../support/link-service';

let store: Store;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ store, close } = await startTestStore());
});
afterAll(() => close());

const codec = new LinkCodec('a-link-code-secret-of-32-characters!');
const SCALE = 10n ** 15n;

/** Adds to a link's click item, as counting does. */
async function countedOnClickItem(linkId: number, clicks: number): Promise<void> {
  await store.db.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: keys.linkClicks(linkId),
      UpdateExpression: 'ADD clicks :n SET entity = :entity',
      ExpressionAttributeValues: { ':n': clicks, ':entity': 'LinkClicks' },
    }),
  );
}

async function stored(id: number) {
  return (await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.link(id), ConsistentRead: true }))).Item ?? {};
}

async function pending() {
  const page = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.clickRanksPending() },
      ConsistentRead: true,
    }),
  );
  return page.Items ?? [];
}

async function pendingBatches(): Promise<string[]> {
  return (await pending()).map((item) => String(item.sk));
}

/** The link ids each pending item lists. */
async function pendingItems(): Promise<number[][]> {
  return (await pending()).map((item) => [...(item.links as Set<number>)].map(Number).sort((a, b) => a - b));
}

/** gsi3's key as a bigint, whatever width it came back in. */
async function rankKey(id: number): Promise<bigint | undefined> {
  const { gsi3sk } = await stored(id);
  return gsi3sk === undefined ? undefined : BigInt(gsi3sk);
}

/** A store that runs `hook` once, after the first call of `command` has returned, before its caller goes on. */
function pausingAfter(command: string, hook: () => Promise<void>): Store {
  let fired = false;
  const send = async (sent: { constructor: { name: string } }) => {
    const result = await store.db.send(sent as never);
    if (!fired && sent.constructor.name === command) {
      fired = true;
      await hook();
    }
    return result;
  };
  return { tableName: store.tableName, db: { send } as unknown as Store['db'] };
}

function service(links: IndexedLinksRepository) {
  return testLinkService(links);
}

async function created(accountId: number, ids: number[], fields: Partial<Link> = {}): Promise<IndexedLinksRepository> {
  const links = new IndexedLinksRepository(store);
  for (const id of ids) await links.create(aLink({ id, accountId, code: codec.encode(id), ...fields }));
  return links;
}

async function byClicks(links: IndexedLinksRepository, accountId: number, direction: 'ASC' | 'DESC'): Promise<number[]> {
  const page = await service(links).list(anAccount({ id: accountId }), {
    sort: [{ field: 'clickCnt', direction }],
    pagination: { pageSize: 25, currentPage: 0 },
  });
  return page.items.map((link) => link.id);
}

const change = (accountId: number) => (linkId: number) => ({ accountId, linkId });

describe('ClickRanks', () => {
  it('moves each counted link to its total clicks in the clickCnt order, and forgets the pending items', async () => {
    // Prepare: three links; two batches count the first two (the first link in both)
    const links = await created(41, [4101, 4102, 4103]);
    const ranks = new ClickRanks(store);
    await countedOnClickItem(4101, 2);
    await countedOnClickItem(4102, 3);
    await ranks.changed('batch-41a', [4101, 4102].map(change(41)));
    await countedOnClickItem(4101, 4);
    await ranks.changed('batch-41b', [4101].map(change(41)));
    const before = await byClicks(links, 41, 'DESC');

    // Act
    const moved = await ranks.apply();

    // Assess: the order follows once the pass has run, each link moved once
    expect(before).toEqual([4103, 4102, 4101]);
    expect(moved).toBe(2);
    expect(await byClicks(links, 41, 'DESC')).toEqual([4101, 4102, 4103]);
    expect(await byClicks(links, 41, 'ASC')).toEqual([4103, 4102, 4101]);
    expect([await rankKey(4101), await rankKey(4102), await rankKey(4103)]).toEqual([6n * SCALE + 4101n, 3n * SCALE + 4102n, 4103n]);
    expect(await pendingBatches()).toEqual([]);
    expect(await ranks.apply()).toBe(0);
  });

  it('adds the counts on the link item (previous versions) to those on the click item', async () => {
    // Prepare: clicks counted on the link item itself, then on the click item
    await created(42, [4201, 4202]);
    const ranks = new ClickRanks(store);
    await new ClicksRepository(store).addToLink(4201, 'old-batch', { clicks: 4, redirects: 4, bots: 0 });
    await countedOnClickItem(4201, 3);
    await countedOnClickItem(4202, 5);
    await ranks.changed('batch-42', [4201, 4202].map(change(42)));

    // Act
    await ranks.apply();

    // Assess
    expect(await rankKey(4201)).toBe(7n * SCALE + 4201n);
    expect(await rankKey(4202)).toBe(5n * SCALE + 4202n);
  });

  it('works through more pending items than one round reads, each link moved once', async () => {
    // Prepare: 60 batches over 30 links, each link in two of them
    const ids = Array.from({ length: 30 }, (_, i) => 4900 + i);
    await created(49, ids);
    const ranks = new ClickRanks(store);
    for (let batch = 0; batch < 60; batch++) {
      const id = ids[batch % 30] as number;
      await countedOnClickItem(id, 1);
      await ranks.changed(`batch-49-${batch}`, [id].map(change(49)));
    }

    // Act
    const moved = await ranks.apply();

    // Assess
    expect(moved).toBe(30);
    expect(await Promise.all(ids.map(rankKey))).toEqual(ids.map((id) => 2n * SCALE + BigInt(id)));
    expect(await pendingBatches()).toEqual([]);
  });

  it('keeps one pending item per batch, however often the batch is told', async () => {
    // Prepare
    await created(43, [4301, 4302]);
    const ranks = new ClickRanks(store);

    // Act
    await ranks.changed('batch-43', [4301, 4302].map(change(43)));
    await ranks.changed('batch-43', [4301, 4302].map(change(43)));
    await ranks.changed('batch-43-none', []);

    // Assess
    expect(await pendingBatches()).toEqual(['batch-43']);
    await ranks.apply();
    expect(await pendingBatches()).toEqual([]);
  });

  it('never moves a key back: two passes at once, and a pass that read an older total than a later pass', async () => {
    // Prepare
    await created(44, [4401, 4402]);
    await countedOnClickItem(4401, 3);
    await new ClickRanks(store).changed('batch-44a', [4401].map(change(44)));

    // Act: a pass reads the totals (3), then more clicks are counted and another pass moves
    // the key to 10 before the first one writes
    const slow = new ClickRanks(
      pausingAfter('BatchGetCommand', async () => {
        await countedOnClickItem(4401, 7);
        await countedOnClickItem(4402, 1);
        await new ClickRanks(store).changed('batch-44b', [4401, 4402].map(change(44)));
        await new ClickRanks(store).apply();
      }),
    );
    const slowMoved = await slow.apply();
    await countedOnClickItem(4402, 2);
    await new ClickRanks(store).changed('batch-44c', [4401, 4402].map(change(44)));
    const together = await Promise.all([new ClickRanks(store).apply(), new ClickRanks(store).apply()]);

    // Assess
    expect(slowMoved).toBe(0);
    expect(await rankKey(4401)).toBe(10n * SCALE + 4401n);
    expect(together[0] + together[1]).toBe(1);
    expect(await rankKey(4402)).toBe(3n * SCALE + 4402n);
    expect(await pendingBatches()).toEqual([]);
  });

  it('leaves a deleted link out of the order and a link not yet at schema 2 to the migration', async () => {
    // Prepare: a deleted link, and a link written by the previous version
    const links = await created(45, [4501, 4502]);
    await links.delete(45, 4501);
    const old = aLink({ id: 4503, accountId: 45, code: codec.encode(4503) });
    await store.db.send(
      new PutCommand({
        TableName: store.tableName,
        Item: { ...keys.link(old.id), ...keys.linkIndex(old.accountId, old.createdAt, old.id), entity: 'Link', ...withoutNulls(old) },
      }),
    );
    for (const id of [4501, 4502, 4503]) await countedOnClickItem(id, 2);
    const ranks = new ClickRanks(store);
    await ranks.changed('batch-45', [4501, 4502, 4503].map(change(45)));

    // Act: 4504 is deleted after the pass has read it
    const moved = await ranks.apply();
    await created(45, [4504]);
    await countedOnClickItem(4504, 1);
    await ranks.changed('batch-45b', [4504].map(change(45)));
    const movedAfterDelete = await new ClickRanks(pausingAfter('BatchGetCommand', async () => void (await links.delete(45, 4504)))).apply();
    await linkUpgrade(store, new CountedWrites(store, ulid)).upgrade(await stored(4503));

    // Assess: no key for the deleted links, nor an item brought back; the migration gives
    // the old link its key from both counts
    expect([moved, movedAfterDelete]).toEqual([1, 0]);
    for (const id of [4501, 4504]) {
      expect(await rankKey(id)).toBeUndefined();
      expect([undefined, 1]).toContain((await stored(id)).deleted);
    }
    expect(await rankKey(4502)).toBe(2n * SCALE + 4502n);
    expect(await rankKey(4503)).toBe(2n * SCALE + 4503n);
    expect(await byClicks(links, 45, 'DESC')).toEqual([4503, 4502]);
    expect(await pendingBatches()).toEqual([]);
  });

  it('keeps a pending item written again during a pass for the next pass', async () => {
    // Prepare
    await created(46, [4601]);
    await countedOnClickItem(4601, 1);
    await new ClickRanks(store).changed('batch-46', [4601].map(change(46)));

    // Act: the same batch counts more and is told again after the pass read the totals
    const first = await new ClickRanks(
      pausingAfter('BatchGetCommand', async () => {
        await countedOnClickItem(4601, 1);
        await new ClickRanks(store).changed('batch-46', [4601].map(change(46)));
      }),
    ).apply();
    const left = await pendingBatches();
    const second = await new ClickRanks(store).apply();

    // Assess
    expect(left).toEqual(['batch-46']);
    expect([first, second]).toEqual([1, 1]);
    expect(await rankKey(4601)).toBe(2n * SCALE + 4601n);
    expect(await pendingBatches()).toEqual([]);
  });

  it('keeps the key a flag change finds, in the new partition, while passes move it', async () => {
    // Prepare
    const links = await created(47, [4701, 4702]);
    const ranks = new ClickRanks(store);

    // Act: status flips and moderation while clicks are counted and passes run
    await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => links.update(47, 4701, { status: i % 2 === 0 ? 0 : 1 })),
      links.moderate(4701, 0, 'checked'),
      ...Array.from({ length: 3 }, async (_, i) => {
        await countedOnClickItem(4701, 2);
        await ranks.changed(`batch-47-${i}`, [4701].map(change(47)));
        await ranks.apply();
      }),
    ]);
    await ranks.apply();

    // Assess
    const item = await stored(4701);
    expect(item.gsi3pk).toBe(`ACCOUNT#47#LINKS#S${item.status}M0`);
    expect(await rankKey(4701)).toBe(6n * SCALE + 4701n);
    expect(await byClicks(links, 47, 'DESC')).toEqual([4701, 4702]);
  });

  it('hears from the click aggregator about every link a batch counted', async () => {
    // Prepare
    const links = await created(48, [4801, 4802, 4803]);
    const ranks = new ClickRanks(store);
    const aggregator = new ClickAggregator({
      clicks: new ClicksRepository(store),
      zonesOf: async (ids) => new Map(ids.map((id) => [id, 'UTC'])),
      clock: () => new Date('2026-11-22T12:00:00Z'),
      ranks,
    });
    const click = (n: number, linkId: number): QueuedClick => ({
      messageId: `m48-${n}`,
      receiveCount: 1,
      firstReceivedAt: new Date('2026-11-22T12:00:00Z'),
      event: { linkId, accountId: 48, at: '2026-11-22T11:59:59.000Z', visitor: 'human', redirected: true },
    });

    // Act
    await aggregator.aggregate([click(1, 4802), click(2, 4802), click(3, 4803)]);
    const told = await pendingItems();
    await ranks.apply();

    // Assess
    expect(told).toEqual([[4802, 4803]]);
    expect(await byClicks(links, 48, 'DESC')).toEqual([4802, 4803, 4801]);
    expect(await rankKey(4802)).toBe(2n * SCALE + 4802n);
    expect(await pendingBatches()).toEqual([]);
  });
});
