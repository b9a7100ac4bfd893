import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ClickAggregator, type QueuedClick } from '../../shared/domain/click-aggregator';
import { batchKeyOf, type ClickEvent, messageFingerprint } from '../../shared/domain/clicks';
import { utcMinuteOf } from '../../shared/domain/time';
import { ClicksRepository } from '../../shared/store/clicks-repo';
import type { Store } from '../../shared/store/client';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import { keys } from '../../shared/store/keys';
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
  const link = await new IndexedLinksRepository(store).get(linkId);
  const day = await new ClicksRepository(store).buckets(linkId, 'daily', '2026-11-22', '2026-11-22');
  return { clickCnt: link?.clickCnt, redirectCnt: link?.redirectCnt, day: day.get('2026-11-22')?.clicks };
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
    // Prepare: a store that fails the click item write of one link of the batch
    const [first, second, third] = [await newLink(), await newLink(), await newLink()];
    const real = new ClicksRepository(store);
    const failing = Object.create(real) as ClicksRepository;
    failing.addToClickItem = async (batchKey, delta) => {
      if (delta.linkId === second) throw new Error('throttled');
      return real.addToClickItem(batchKey, delta);
    };
    const batch = [click('i1', first), click('i2', first), click('i3', second), click('i4', third)];

    // Act: the first attempt dies halfway; the queue delivers the batch again
    await expect(aggregator(failing).aggregate(batch)).rejects.toThrow('throttled');
    const halfway = await counts(second);
    await aggregator().aggregate(batch.map((message) => ({ ...message, receiveCount: 2 })));

    // Assess
    expect(halfway).toEqual({ clickCnt: 0, redirectCnt: 0, day: undefined });
    expect(await counts(first)).toEqual({ clickCnt: 2, redirectCnt: 2, day: 2 });
    expect(await counts(second)).toEqual({ clickCnt: 1, redirectCnt: 1, day: 1 });
    expect(await counts(third)).toEqual({ clickCnt: 1, redirectCnt: 1, day: 1 });
  });

  it("finishes a batch interrupted between a full link's bucket items and its totals, adding only what was missing", async () => {
    // Prepare: a link whose click item is full (a batch a minute, six minutes), then a batch whose totals write fails
    const linkId = await newLink();
    for (let minute = 1; minute <= 6; minute++) {
      const at = new Date(NOW.getTime() + minute * 60_000).toISOString();
      await aggregator().aggregate([{ ...click(`f${minute}`, linkId), event: { ...click('', linkId).event, at } }]);
    }
    const real = new ClicksRepository(store);
    const failing = Object.create(real) as ClicksRepository;
    failing.addToLink = async () => {
      throw new Error('throttled');
    };
    const batch = [click('f7', linkId), click('f8', linkId)];

    // Act
    await expect(aggregator(failing).aggregate(batch)).rejects.toThrow('throttled');
    await aggregator().aggregate(batch.map((message) => ({ ...message, receiveCount: 2 })));

    // Assess
    expect(await counts(linkId)).toEqual({ clickCnt: 8, redirectCnt: 8, day: 8 });
    const minute = await real.buckets(linkId, 'minute', '2026-11-22 10:00', '2026-11-22 10:06');
    expect([...minute.values()].map((counts) => counts.clicks)).toEqual([2, 1, 1, 1, 1, 1, 1]);
  });

  it('finishes a batch interrupted before an upgrade from its claim as earlier versions wrote it (fingerprints joined, deltas as JSON)', async () => {
    // Prepare: the claim of a batch of old1 and old2 on the link, none of its writes done
    const linkId = await newLink();
    const fingerprints = ['old1', 'old2'].map(messageFingerprint);
    const batchKey = batchKeyOf(fingerprints);
    const deltas = [{ linkId, clicks: 2, redirects: 1, bots: 0, buckets: [['daily', '2026-11-22', 2, 1]] }];
    await store.db.send(
      new PutCommand({
        TableName: store.tableName,
        Item: {
          ...keys.clickBatch(batchKey),
          ...keys.clickBatchIndex(batchKey, utcMinuteOf(NOW)),
          entity: 'ClickBatch',
          messages: fingerprints.join(','),
          deltas: JSON.stringify(deltas),
          claimedAt: NOW.toISOString(),
        },
      }),
    );

    // Act: one of its messages comes again
    await aggregator().aggregate([click('old1', linkId, 2)]);

    // Assess
    expect(await counts(linkId)).toEqual({ clickCnt: 2, redirectCnt: 1, day: 2 });
  });

  it('does not bring a deleted link back as a bare counter item', async () => {
    const linkId = await newLink();
    await new IndexedLinksRepository(store).delete(1, linkId);
    await aggregator().aggregate([click('d1', linkId)]);
    const item = await store.db.send(new GetCommand({ TableName: store.tableName, Key: { pk: `LINK#${linkId}`, sk: '#LINK' } }));
    expect(item.Item).toBeUndefined();
    expect(await new IndexedLinksRepository(store).get(linkId)).toBeUndefined();
  });
});
