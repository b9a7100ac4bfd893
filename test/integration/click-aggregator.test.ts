import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ClickAggregator, type QueuedClick } from '../../shared/domain/click-aggregator';
import type { ClickEvent } from '../../shared/domain/clicks';
import { ClicksRepository } from '../../shared/store/clicks-repo';
import type { Store } from '../../shared/store/client';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import { startTestStore } from '../support/dynamo';
import { aLink } from '../support/fixtures';

let store: Store;
let close: () => Promise<void>;
let nextLinkId = 1;

beforeAll(async () => {
  ({ store, close } = await startTestStore());
});
afterAll(() => close());

const NOW = new Date('2026-11-22T10:00:30Z');

async function newLink(): Promise<number> {
  const id = nextLinkId++;
  const link = aLink({ id, accountId: 1, code: `c${id}`.padEnd(4, '0'), fullLink: 'https://example.com', createdAt: NOW.toISOString() });
  await new IndexedLinksRepository(store).create(link);
  return id;
}

function click(messageId: string, linkId: number, receiveCount = 1): QueuedClick {
  const event: ClickEvent = { linkId, accountId: 1, at: NOW.toISOString(), visitor: 'human', redirected: true };
  return { messageId, receiveCount, firstReceivedAt: new Date(NOW.getTime() - 1000), event };
}

async function counts(linkId: number) {
  const link = await store.db.send(new GetCommand({ TableName: store.tableName, Key: { pk: `LINK#${linkId}`, sk: '#LINK' } }));
  const day = await new ClicksRepository(store).buckets(linkId, 'daily', '2026-11-22', '2026-11-22');
  return { clickCnt: link.Item?.clickCnt, redirectCnt: link.Item?.redirectCnt, day: day.get('2026-11-22')?.clicks };
}

function aggregator(clicks = new ClicksRepository(store)) {
  return new ClickAggregator({ clicks, zonesOf: async (ids) => new Map(ids.map((id) => [id, 'UTC'])), clock: () => NOW });
}

describe('ClickAggregator', () => {
  it('counts the same batch delivered twice once', async () => {
    // Prepare
    const linkId = await newLink();
    const batch = [click('m1', linkId), click('m2', linkId), click('m3', linkId)];

    // Act: the identical delivery, twice
    await aggregator().aggregate(batch);
    await aggregator().aggregate(batch);

    // Assess
    expect(await counts(linkId)).toEqual({ clickCnt: 3, redirectCnt: 3, day: 3 });
  });

  it('counts a redelivered message once when it comes back regrouped with new ones', async () => {
    const linkId = await newLink();
    await aggregator().aggregate([click('r1', linkId), click('r2', linkId)]);

    // r2 comes again (receive count 2) together with a new message r3
    await aggregator().aggregate([click('r2', linkId, 2), click('r3', linkId)]);

    expect(await counts(linkId)).toEqual({ clickCnt: 3, redirectCnt: 3, day: 3 });
  });

  it('finishes a batch interrupted after some of its writes, adding only what was missing', async () => {
    // Prepare: a store that fails every bucket write after the link totals were written
    const linkId = await newLink();
    const real = new ClicksRepository(store);
    const failing = Object.create(real) as ClicksRepository;
    failing.addToBucket = async () => {
      throw new Error('throttled');
    };
    const batch = [click('i1', linkId), click('i2', linkId)];

    // Act: the first attempt dies halfway; the queue delivers the batch again
    await expect(aggregator(failing).aggregate(batch)).rejects.toThrow('throttled');
    await aggregator().aggregate(batch.map((message) => ({ ...message, receiveCount: 2 })));

    // Assess
    expect(await counts(linkId)).toEqual({ clickCnt: 2, redirectCnt: 2, day: 2 });
  });

  it('does not bring a deleted link back as a bare counter item', async () => {
    const linkId = await newLink();
    await new IndexedLinksRepository(store).delete(1, linkId);
    await aggregator().aggregate([click('d1', linkId)]);
    const item = await store.db.send(new GetCommand({ TableName: store.tableName, Key: { pk: `LINK#${linkId}`, sk: '#LINK' } }));
    expect(item.Item).toBeUndefined();
  });
});
