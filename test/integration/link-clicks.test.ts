import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ClickAggregator, type QueuedClick } from '../../shared/domain/click-aggregator';
import type { ClickEvent } from '../../shared/domain/clicks';
import { mapLimited } from '../../shared/domain/concurrency';
import { LinkCache } from '../../shared/domain/link-cache';
import { LinkCodec } from '../../shared/domain/link-code';
import { LinkService } from '../../shared/domain/link-service';
import { StatsService } from '../../shared/domain/stats-service';
import { ClicksRepository } from '../../shared/store/clicks-repo';
import { createStore, type Store } from '../../shared/store/client';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import { keys } from '../../shared/store/keys';
import { ClickBuckets } from '../../shared/store/link-clicks';
import { toItem } from '../../shared/store/links-repo';
import { startTestStore } from '../support/dynamo';
import { aLink, anAccount } from '../support/fixtures';
import { observeStore } from '../support/store-calls';

let store: Store;
let endpoint: string;
let close: () => Promise<void>;
beforeAll(async () => {
  let dynamo: { endpoint: string };
  ({ store, dynamo, close } = await startTestStore());
  endpoint = dynamo.endpoint;
});
afterAll(() => close());

const NOW = new Date('2026-11-22T10:00:30Z');
const codec = new LinkCodec('a-link-code-secret-of-32-characters!');

/** Links of `accountId` with ids `from`…, written as their creation writes the link item. */
async function links(accountId: number, from: number, count: number, fields: { clickCnt?: number; redirectCnt?: number } = {}): Promise<number[]> {
  const ids = Array.from({ length: count }, (_, i) => from + i);
  await mapLimited(ids, 16, (id) =>
    store.db.send(
      new PutCommand({
        TableName: store.tableName,
        Item: toItem(aLink({ id, accountId, code: codec.encode(id), createdAt: NOW.toISOString(), ...fields })),
      }),
    ),
  );
  return ids;
}

function click(messageId: string, linkId: number, fields: Partial<ClickEvent> = {}): QueuedClick {
  const event: ClickEvent = { linkId, accountId: 1, at: NOW.toISOString(), visitor: 'human', redirected: true, ...fields };
  return { messageId, receiveCount: 1, firstReceivedAt: NOW, event };
}

function aggregator(zone = 'UTC') {
  return new ClickAggregator({ clicks: new ClicksRepository(store), zonesOf: async (ids) => new Map(ids.map((id) => [id, zone])), clock: () => NOW });
}

/** Write units per call from now on, as DynamoDB (here dynalite) reports them for the table. */
function observeWriteUnits(): { command: string; pk: string; units: number }[] {
  const writes: { command: string; pk: string; units: number }[] = [];
  store.db.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { ReturnConsumedCapacity?: string; Key?: { pk?: unknown }; Item?: { pk?: unknown } };
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity }).ConsumedCapacity;
      if (/Put|Update|Delete/.test(String(context.commandName))) {
        writes.push({ command: String(context.commandName), pk: String(input.Key?.pk ?? input.Item?.pk), units: consumed?.CapacityUnits ?? 0 });
      }
      return result;
    },
    { step: 'initialize', name: 'writeUnits' },
  );
  return writes;
}

describe('counting clicks in click items', () => {
  it('counts a batch of 1,000 clicks over 1,000 links with one small write per link and a compact claim, writing no link item', async () => {
    // Prepare
    // (the aggregator reads no link: ten of them exist, to show their items are left alone)
    const ids = [...(await links(1, 10_000, 10)), ...Array.from({ length: 990 }, (_, i) => 10_010 + i)];
    const before = await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.link(ids[0] ?? 0), ConsistentRead: true }));
    const batch = ids.map((id, i) => click(`long-tail-${i}`, id, { redirected: i % 10 !== 0 }));
    const calls = observeStore(store);
    const writes = observeWriteUnits();

    // Act
    await aggregator().aggregate(batch);

    // Assess: per link one UpdateItem of its click item (a link's items share its partition, and no other call names it)
    for (const id of ids) expect(calls.filter((call) => call.pk === `LINK#${id}`).map((call) => call.command)).toEqual(['UpdateItemCommand']);
    const after = await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.link(ids[0] ?? 0), ConsistentRead: true }));
    expect(after.Item).toEqual(before.Item);
    const clickItems = writes.filter((write) => write.pk.startsWith('LINK#'));
    expect(clickItems.every((write) => write.units === 1)).toBe(true);
    const claim = writes.filter((write) => write.pk.startsWith('CLICKBATCH#'));
    const perClick = writes.reduce((sum, write) => sum + write.units, 0) / batch.length;
    // The claim and the done marker: at most 0.05 a click (the claim of JSON deltas took 0.15)
    expect(claim.reduce((sum, write) => sum + write.units, 0) / batch.length).toBeLessThanOrEqual(0.05);
    expect(perClick).toBeLessThanOrEqual(1.05);
    process.stdout.write(
      `1,000 clicks over 1,000 links: ${perClick.toFixed(3)} WRU a click (claim and done: ${claim.map((write) => write.units).join(' + ')} WRU)\n`,
    );
    const counted = (await new IndexedLinksRepository(store).getMany(ids.slice(0, 10))).sort((a, b) => a.id - b.id);
    expect(counted.map((link) => link.redirectCnt)).toEqual([0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
  }, 120_000);

  it('answers Link/GetStats from the click item cells and the bucket items of a link clicked past its cells', async () => {
    // Prepare: a link of an account in Tashkent (UTC+05:00), clicked in 7 minutes of 2 hours, one batch a minute:
    // six minutes go to its cells (24), the seventh to bucket items, beside the cells of its hour, day and month
    const [id = 0] = await links(2, 20_000, 1);
    const account = anAccount({ id: 2, timeZone: 'Asia/Tashkent' });
    const minutes = ['09:58', '09:59', '10:00', '10:01', '10:02', '10:03', '10:04'];
    for (const [i, minute] of minutes.entries()) {
      const clicks = Array.from({ length: i + 1 }, (_, n) =>
        click(`s${i}-${n}`, id, { accountId: 2, at: `2026-11-22T${minute}:10Z`, redirected: n > 0 }),
      );
      await aggregator('Asia/Tashkent').aggregate(clicks);
    }
    // A client of its own, to count the reads of Link/GetStats alone
    const reader = createStore({ tableName: store.tableName, region: 'us-east-1', dynamoEndpoint: endpoint });
    const stats = new StatsService({ links: new IndexedLinksRepository(reader), buckets: new ClickBuckets(reader), clock: () => NOW });
    const spilled = await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.clickBucket(id, 'hourly', '2026-11-22 15:00') }));

    const calls = observeStore(reader);

    // Act
    const hourly = await stats.linkStats(account, [id], 'hourly', new Date('2026-11-22T08:30:00Z'), new Date('2026-11-22T10:30:00Z'));
    const minute = await stats.linkStats(account, [id], 'minute', new Date('2026-11-22T10:02:00Z'), new Date('2026-11-22T10:05:00Z'));
    const daily = await stats.linkStats(account, [id], 'daily', new Date('2026-11-21T12:00:00Z'), new Date('2026-11-22T12:00:00Z'));
    reader.db.destroy();

    // Assess: per link and request, its link item, its bucket items and its click item
    expect(
      calls
        .slice(0, 3)
        .map((call) => call.command)
        .sort(),
    ).toEqual(['GetItemCommand', 'GetItemCommand', 'QueryCommand']);
    expect(calls).toHaveLength(9);
    expect(spilled.Item).toMatchObject({ clicks: 7, redirects: 6 });
    expect(hourly).toEqual({
      items: [
        { param: '2026-11-22 13:00', clicks0: 0, redirects0: 0 },
        { param: '2026-11-22 14:00', clicks0: 3, redirects0: 1 },
        { param: '2026-11-22 15:00', clicks0: 25, redirects0: 20 },
      ],
      totals: '28',
    });
    expect(minute.items).toEqual([
      { param: '2026-11-22 15:02', clicks0: 5, redirects0: 4 },
      { param: '2026-11-22 15:03', clicks0: 6, redirects0: 5 },
      { param: '2026-11-22 15:04', clicks0: 7, redirects0: 6 },
      { param: '2026-11-22 15:05', clicks0: 0, redirects0: 0 },
    ]);
    expect(daily).toEqual({
      items: [
        { param: '2026-11-21', clicks0: 0, redirects0: 0 },
        { param: '2026-11-22', clicks0: 28, redirects0: 21 },
      ],
      totals: '28',
    });
    expect((await new IndexedLinksRepository(store).get(id))?.clickCnt).toBe(28);
  });

  it('reads a link counted by earlier versions on its own item as those counts plus its click item, in every read of links', async () => {
    // Prepare: links whose items carry counts, as earlier versions counted them
    const repository = new IndexedLinksRepository(store);
    const ids = [30_000, 30_001, 30_002];
    for (const id of ids) {
      await repository.create(aLink({ id, accountId: 3, code: codec.encode(id), createdAt: NOW.toISOString(), clickCnt: 5, redirectCnt: 4 }));
    }
    const [first = 0, second = 0, third = 0] = ids;
    await aggregator().aggregate([
      click('l1', first, { accountId: 3 }),
      click('l2', first, { accountId: 3, redirected: false }),
      click('l3', second, { accountId: 3 }),
    ]);
    const service = new LinkService({
      links: repository,
      ids: { next: async () => 0 },
      codec: async () => codec,
      cache: new LinkCache(0),
      shortLinkBase: 'https://s.test',
      clock: () => NOW,
    });
    const account = anAccount({ id: 3 });
    const totals = (read: { id: number; clickCnt: number; redirectCnt: number }[]) =>
      read.sort((a, b) => a.id - b.id).map((link) => [link.id, link.clickCnt, link.redirectCnt]);
    const expected = [
      [first, 7, 5],
      [second, 6, 5],
      [third, 5, 4],
    ];

    // Act
    const got = await Promise.all(ids.map((id) => repository.get(id)));
    const eventually = await repository.get(first, { consistent: false });
    const many = await repository.getMany(ids);
    const byAccount = await repository.listByAccount(3);
    const newest = await service.list(account, { sort: [], pagination: { pageSize: 25, currentPage: 0 } });
    const byCreation = await service.list(account, {
      status: 1,
      sort: [{ field: 'createTs', direction: 'ASC' }],
      pagination: { pageSize: 25, currentPage: 0 },
    });
    const updated = await repository.update(3, first, { comment: 'still counted' });
    const moderated = await repository.moderate(second, 1, 'fine');

    // Assess: the link items keep what earlier versions counted; every read adds the click items
    const stored = await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.link(first), ConsistentRead: true }));
    expect(stored.Item).toMatchObject({ clickCnt: 5, redirectCnt: 4 });
    expect(totals(got.flatMap((link) => link ?? []))).toEqual(expected);
    expect(eventually).toMatchObject({ clickCnt: 7, redirectCnt: 5 });
    expect(totals(many)).toEqual(expected);
    expect(totals(byAccount)).toEqual(expected);
    expect(totals(newest.items)).toEqual(expected);
    expect(totals(byCreation.items)).toEqual(expected);
    expect(updated).toMatchObject({ clickCnt: 7, redirectCnt: 5, comment: 'still counted' });
    expect(moderated).toMatchObject({ clickCnt: 6, redirectCnt: 5 });
  });
});
