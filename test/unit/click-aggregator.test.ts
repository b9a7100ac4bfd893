import { ClickAggregator, type QueuedClick, WRITES_IN_FLIGHT } from '../../shared/domain/click-aggregator';
import type { ClickEvent } from '../../shared/domain/clicks';
import { MemoryClickStore } from '../support/memory-clicks';
import { aLink } from './operations/fakes';

const NOW = new Date('2026-11-30T20:10:30Z');
/** Account 1 is in UTC, account 2 in Tashkent (UTC+05:00), where NOW is already 1 December. */
const ZONES = new Map([
  [1, 'UTC'],
  [2, 'Asia/Tashkent'],
]);

function harness(linkIds: [linkId: number, accountId: number][] = [[1, 1]]) {
  const clicks = new MemoryClickStore();
  for (const [id, accountId] of linkIds) clicks.links.items.set(id, aLink({ id, accountId }));
  const zoneRequests: number[][] = [];
  const clock = { now: NOW };
  const aggregator = new ClickAggregator({
    clicks,
    zonesOf: async (accountIds) => {
      zoneRequests.push(accountIds);
      return new Map(accountIds.flatMap((id) => (ZONES.has(id) ? [[id, ZONES.get(id) ?? '']] : [])));
    },
    clock: () => clock.now,
  });
  const totals = (linkId: number) => clicks.totals(linkId);
  return { aggregator, clicks, clock, zoneRequests, totals };
}

/** A queued click on `linkId` (of account 1 unless given), first delivered a second before NOW. */
function click(messageId: string, linkId: number, fields: Partial<ClickEvent> & { receiveCount?: number } = {}): QueuedClick {
  const { receiveCount = 1, ...event } = fields;
  return {
    messageId,
    receiveCount,
    firstReceivedAt: new Date(NOW.getTime() - 1000),
    event: { linkId, accountId: 1, at: NOW.toISOString(), visitor: 'human', redirected: true, ...event },
  };
}

describe('ClickAggregator', () => {
  it('adds a batch to each link once and to each bucket once, in the zone of the link account', async () => {
    // Prepare
    const { aggregator, clicks, zoneRequests, totals } = harness([
      [1, 1],
      [2, 2],
    ]);
    const batch = [
      click('m1', 1),
      click('m2', 1, { redirected: false }),
      click('m3', 1, { visitor: 'bot' }),
      click('m4', 2, { accountId: 2 }),
      click('m5', 2, { accountId: 2, at: '2026-11-30T18:59:59.000Z' }),
    ];

    // Act
    await aggregator.aggregate(batch);

    // Assess
    expect(totals(1)).toEqual({ clickCnt: 2, redirectCnt: 1, bots: 1 });
    expect(totals(2)).toEqual({ clickCnt: 2, redirectCnt: 2, bots: 0 });
    expect(clicks.bucket(1, 'daily', '2026-11-30')).toEqual({ clicks: 2, redirects: 1 });
    expect(clicks.bucket(1, 'minute', '2026-11-30 20:10')).toEqual({ clicks: 2, redirects: 1 });
    expect(clicks.bucket(2, 'monthly', '2026-12')).toEqual({ clicks: 1, redirects: 1 });
    expect(clicks.bucket(2, 'monthly', '2026-11')).toEqual({ clicks: 1, redirects: 1 });
    expect(clicks.bucket(2, 'hourly', '2026-12-01 01:00')).toEqual({ clicks: 1, redirects: 1 });
    expect(clicks.bucket(2, 'hourly', '2026-11-30 23:00')).toEqual({ clicks: 1, redirects: 1 });
    expect(zoneRequests).toEqual([[1, 2]]);
    // One claim, one write per link (its click item, buckets included), one done marker
    expect(clicks.calls).toEqual(['claimBatch:5', 'addToClickItem:1', 'addToClickItem:2', 'markBatchDone']);
  });

  it('counts the clicks of an account it knows no zone of in UTC', async () => {
    // Prepare
    const { aggregator, clicks } = harness([[7, 9]]);

    // Act
    await aggregator.aggregate([click('m1', 7, { accountId: 9 })]);

    // Assess
    expect(clicks.bucket(7, 'hourly', '2026-11-30 20:00')).toEqual({ clicks: 1, redirects: 1 });
  });

  it('counts the same batch delivered twice once, in any order, without writing counters again', async () => {
    // Prepare
    const { aggregator, clicks, totals } = harness();
    const batch = [click('m1', 1), click('m2', 1), click('m3', 1)];
    await aggregator.aggregate(batch);
    clicks.calls.length = 0;

    // Act
    await aggregator.aggregate([...batch].reverse());

    // Assess
    expect(totals(1)).toEqual({ clickCnt: 3, redirectCnt: 3, bots: 0 });
    expect(clicks.bucket(1, 'daily', '2026-11-30')).toEqual({ clicks: 3, redirects: 3 });
    expect(clicks.calls).toEqual(['claimBatch:3']);
  });

  it('counts a redelivered message once when it comes back regrouped with a new one', async () => {
    // Prepare
    const { aggregator, clicks, clock, totals } = harness();
    await aggregator.aggregate([click('r1', 1), click('r2', 1)]);
    clock.now = new Date(NOW.getTime() + 5 * 60_000); // the queue's visibility timeout later

    // Act: r2 again, receive count 2, together with the new r3
    await aggregator.aggregate([click('r2', 1, { receiveCount: 2 }), click('r3', 1)]);

    // Assess
    expect(totals(1)).toEqual({ clickCnt: 3, redirectCnt: 3, bots: 0 });
    expect(clicks.bucket(1, 'minute', '2026-11-30 20:10')).toEqual({ clicks: 3, redirects: 3 });
    expect(clicks.batches.size).toBe(2);
    expect([...clicks.batches.values()].map((batch) => batch.fingerprints.length)).toEqual([2, 1]);
  });

  it('counts a redelivered message no batch claimed (its worker stopped before the claim)', async () => {
    // Prepare
    const { aggregator, totals } = harness();

    // Act
    await aggregator.aggregate([click('lost', 1, { receiveCount: 2 })]);

    // Assess
    expect(totals(1)).toEqual({ clickCnt: 1, redirectCnt: 1, bots: 0 });
  });

  it('finishes a batch interrupted after some of its writes, adding only what was missing', async () => {
    // Prepare: the click item write of link 2 fails, those of links 1 and 3 land
    const { aggregator, clicks, totals } = harness([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
    const addToClickItem = clicks.addToClickItem.bind(clicks);
    clicks.addToClickItem = async (batchKey, delta) => {
      if (delta.linkId === 2) throw new Error('throttled');
      return addToClickItem(batchKey, delta);
    };
    const batch = [click('i1', 1), click('i2', 1, { redirected: false }), click('i3', 2), click('i4', 3)];
    await expect(aggregator.aggregate(batch)).rejects.toThrow('throttled');
    const afterInterruption = [1, 2, 3].map((id) => totals(id).clickCnt);
    clicks.addToClickItem = addToClickItem;

    // Act: the queue delivers them again
    await aggregator.aggregate(batch.map((message) => ({ ...message, receiveCount: 2 })));

    // Assess
    expect(afterInterruption).toEqual([2, 0, 1]);
    expect(clicks.done.size).toBe(1);
    expect([1, 2, 3].map(totals)).toEqual([
      { clickCnt: 2, redirectCnt: 1, bots: 0 },
      { clickCnt: 1, redirectCnt: 1, bots: 0 },
      { clickCnt: 1, redirectCnt: 1, bots: 0 },
    ]);
    expect(clicks.bucket(1, 'daily', '2026-11-30')).toEqual({ clicks: 2, redirects: 1 });
    expect(clicks.bucket(2, 'minute', '2026-11-30 20:10')).toEqual({ clicks: 1, redirects: 1 });
  });

  it('writes a link clicked in more buckets than its click item holds to bucket items, then its totals', async () => {
    // Prepare: five batches of one minute each fill the item's 24 cells but the last four
    const { aggregator, clicks, clock, totals } = harness();
    for (let minute = 0; minute < 5; minute++) {
      clock.now = new Date(NOW.getTime() + minute * 60_000);
      await aggregator.aggregate([click(`h${minute}`, 1, { at: clock.now.toISOString() })]);
    }
    clicks.calls.length = 0;

    // Act: a sixth minute fits (24 cells), a seventh does not
    await aggregator.aggregate([click('h5', 1, { at: '2026-11-30T20:15:30.000Z' })]);
    await aggregator.aggregate([click('h6', 1, { at: '2026-11-30T20:16:30.000Z' }), click('h7', 1, { at: '2026-11-30T20:16:40.000Z' })]);

    // Assess
    expect(clicks.calls).toEqual([
      'claimBatch:1',
      'addToClickItem:1',
      'markBatchDone',
      'claimBatch:2',
      'addToClickItem:1',
      'addToBucket:1:monthly:2026-11',
      'addToBucket:1:daily:2026-11-30',
      'addToBucket:1:hourly:2026-11-30 20:00',
      'addToBucket:1:minute:2026-11-30 20:16',
      'addToLink:1',
      'markBatchDone',
    ]);
    expect(totals(1)).toEqual({ clickCnt: 8, redirectCnt: 8, bots: 0 });
    expect(clicks.bucket(1, 'daily', '2026-11-30')).toEqual({ clicks: 8, redirects: 8 });
    expect(clicks.bucket(1, 'minute', '2026-11-30 20:16')).toEqual({ clicks: 2, redirects: 2 });
    expect(clicks.clickItems.get(1)?.touches).toBe(24);
  });

  it("finishes a batch interrupted between a full link's bucket items and its totals", async () => {
    // Prepare: a link whose click item is full (six batches of a minute each); the totals write fails after the buckets
    const { aggregator, clicks, totals } = harness();
    for (let minute = 1; minute <= 6; minute++) {
      await aggregator.aggregate([click(`f${minute}`, 1, { at: new Date(NOW.getTime() + minute * 60_000).toISOString() })]);
    }
    const addToLink = clicks.addToLink.bind(clicks);
    clicks.addToLink = async () => {
      throw new Error('throttled');
    };
    const batch = [click('f7', 1), click('f8', 1)];
    await expect(aggregator.aggregate(batch)).rejects.toThrow('throttled');
    clicks.addToLink = addToLink;

    // Act
    await aggregator.aggregate(batch.map((message) => ({ ...message, receiveCount: 2 })));

    // Assess
    expect(totals(1)).toEqual({ clickCnt: 8, redirectCnt: 8, bots: 0 });
    expect(clicks.bucket(1, 'monthly', '2026-11')).toEqual({ clicks: 8, redirects: 8 });
    expect(clicks.bucket(1, 'minute', '2026-11-30 20:10')).toEqual({ clicks: 2, redirects: 2 });
    expect(clicks.stats.get('1#minute#2026-11-30 20:10')).toMatchObject({ clicks: 2 });
  });

  it('leaves a batch whose done marker is written alone when a message of it comes back', async () => {
    // Prepare
    const { aggregator, clicks, totals } = harness();
    await aggregator.aggregate([click('d1', 1), click('d2', 1)]);
    clicks.calls.length = 0;

    // Act
    await aggregator.aggregate([click('d1', 1, { receiveCount: 2 })]);

    // Assess: no claim of a new batch, no counter write
    expect(clicks.calls).toEqual([]);
    expect(totals(1).clickCnt).toBe(2);
  });

  it('tells the ranks every link a batch counted, after its counters and before its done marker, again when finishing it', async () => {
    // Prepare
    const { clicks } = harness([
      [1, 1],
      [2, 2],
    ]);
    const told: string[] = [];
    const aggregator = new ClickAggregator({
      clicks,
      zonesOf: async () => new Map(),
      clock: () => NOW,
      ranks: {
        changed: async (batchKey, changes) => {
          told.push(`${batchKey}:${JSON.stringify(changes)}:after ${clicks.calls.at(-1)}`);
        },
      },
    });
    const batch = [click('k1', 1), click('k2', 2, { accountId: 2 }), click('k3', 1)];
    const markBatchDone = clicks.markBatchDone.bind(clicks);
    clicks.markBatchDone = async () => {
      throw new Error('stopped');
    };
    await expect(aggregator.aggregate(batch)).rejects.toThrow('stopped');
    clicks.markBatchDone = markBatchDone;

    // Act
    await aggregator.aggregate(batch.map((message) => ({ ...message, receiveCount: 2 })));

    // Assess
    const [batchKey] = clicks.batches.keys();
    const changes = JSON.stringify([
      { accountId: 1, linkId: 1 },
      { accountId: 2, linkId: 2 },
    ]);
    expect(told).toEqual([`${batchKey}:${changes}:after addToClickItem:2`, `${batchKey}:${changes}:after addToClickItem:2`]);
    expect(clicks.calls.at(-1)).toBe('markBatchDone');
    expect(clicks.totals(1).clickCnt).toBe(2);
  });

  it('writes the clicks of a link deleted since they were answered to its click item alone, one write, no read', async () => {
    // Prepare
    const { aggregator, clicks } = harness([]);

    // Act
    await aggregator.aggregate([click('g1', 5)]);

    // Assess: the link stays gone (reads start from the link item)
    expect(clicks.calls).toEqual(['claimBatch:1', 'addToClickItem:5', 'markBatchDone']);
    expect(clicks.links.items.has(5)).toBe(false);
  });

  it.each([
    ['the default', undefined, WRITES_IN_FLIGHT],
    ['a given number', 7, 7],
  ])('keeps %s of counter writes in flight within a batch, and no more', async (_, writesInFlight, expected) => {
    // Prepare: 200 links, each write held until the next turn of the event loop
    const links = Array.from({ length: 200 }, (_, i): [number, number] => [i + 1, 1]);
    const { clicks, clock } = harness(links);
    const add = clicks.addToClickItem.bind(clicks);
    let inFlight = 0;
    let most = 0;
    clicks.addToClickItem = async (batchKey, delta) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return add(batchKey, delta);
    };
    const aggregator = new ClickAggregator({ clicks, zonesOf: async () => new Map(), clock: () => clock.now, writesInFlight });

    // Act
    await aggregator.aggregate(links.map(([id]) => click(`w${id}`, id)));

    // Assess
    expect(most).toBe(expected);
    expect(clicks.calls.filter((call) => call.startsWith('addToClickItem'))).toHaveLength(200);
  });
});
