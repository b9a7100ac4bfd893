import { ClickAggregator, type QueuedClick } from '../../shared/domain/click-aggregator';
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
  const totals = (linkId: number) => {
    const link = clicks.links.items.get(linkId);
    return { clickCnt: link?.clickCnt, redirectCnt: link?.redirectCnt, bots: clicks.linkCounters.get(linkId)?.bots ?? 0 };
  };
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
    // One claim, one write per link, one per link per bucket (4 for link 1, 8 for link 2), one done marker
    expect(clicks.calls.filter((call) => call.startsWith('addToLink'))).toEqual(['addToLink:1', 'addToLink:2']);
    expect(clicks.calls.filter((call) => call.startsWith('addToBucket'))).toHaveLength(12);
    expect([clicks.calls[0], clicks.calls.at(-1)]).toEqual(['claimBatch:5', 'markBatchDone']);
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
    // Prepare: the bucket writes fail once the link totals are written
    const { aggregator, clicks, totals } = harness();
    const addToBucket = clicks.addToBucket.bind(clicks);
    clicks.addToBucket = async () => {
      throw new Error('throttled');
    };
    const batch = [click('i1', 1), click('i2', 1, { redirected: false })];
    const interrupted = aggregator.aggregate(batch);
    await expect(interrupted).rejects.toThrow('throttled');
    const afterInterruption = { ...totals(1), done: clicks.done.size };
    clicks.addToBucket = addToBucket;

    // Act: the queue delivers both again
    await aggregator.aggregate(batch.map((message) => ({ ...message, receiveCount: 2 })));

    // Assess
    expect(afterInterruption).toEqual({ clickCnt: 2, redirectCnt: 1, bots: 0, done: 0 });
    expect(totals(1)).toEqual({ clickCnt: 2, redirectCnt: 1, bots: 0 });
    expect(clicks.bucket(1, 'daily', '2026-11-30')).toEqual({ clicks: 2, redirects: 1 });
    expect(clicks.done.size).toBe(1);
  });

  it('leaves a batch whose done marker is written alone when a message of it comes back', async () => {
    // Prepare
    const { aggregator, clicks } = harness();
    await aggregator.aggregate([click('d1', 1), click('d2', 1)]);
    clicks.calls.length = 0;

    // Act
    await aggregator.aggregate([click('d1', 1, { receiveCount: 2 })]);

    // Assess: no claim of a new batch, no counter write
    expect(clicks.calls).toEqual([]);
    expect(clicks.links.items.get(1)?.clickCnt).toBe(2);
  });

  it('does not bring a deleted link back as a counter', async () => {
    // Prepare
    const { aggregator, clicks } = harness([]);

    // Act
    await aggregator.aggregate([click('g1', 5)]);

    // Assess
    expect(clicks.calls).toContain('addToLink:5');
    expect(clicks.links.items.has(5)).toBe(false);
    expect(clicks.linkCounters.has(5)).toBe(false);
  });
});
