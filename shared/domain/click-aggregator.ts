import { type LinkDelta, packClicks, sumClicks } from './click-batches';
import { batchKeyOf, type ClickEvent, type Counts, messageFingerprint } from './clicks';
import { mapLimited } from './concurrency';
import type { StatsType } from './stats';

/** What the aggregator needs from storage; shared/store/clicks-repo.ts implements it. */
export interface ClickStore {
  /** Records a batch (its events as packClicks packs them) before applying it; false when this exact batch was claimed before. */
  claimBatch(batchKey: string, fingerprints: string[], clicks: string, at: Date): Promise<boolean>;
  /** What a claimed batch adds to each link, from its claim. */
  claimedDeltas(batchKey: string): Promise<LinkDelta[] | undefined>;
  isBatchDone(batchKey: string): Promise<boolean>;
  markBatchDone(batchKey: string, at: Date): Promise<void>;
  /** Fingerprint → batch key of every message in batches claimed from `since` on. */
  claimedSince(since: Date, now: Date): Promise<Map<string, string>>;
  /**
   * Adds a batch's delta to the link's click item, totals and buckets, unless this batch
   * already did: 'full' (and nothing written) when the item has no room left for its buckets.
   */
  addToClickItem(batchKey: string, delta: LinkDelta): Promise<'added' | 'full'>;
  /** Adds to a link's totals (its click item's) unless this batch already did. */
  addToLink(linkId: number, batchKey: string, counts: Counts & { bots: number }): Promise<void>;
  /** Adds to one bucket item of a link unless this batch already did. */
  addToBucket(linkId: number, type: StatsType, param: string, batchKey: string, counts: Counts): Promise<void>;
}

/** Keeps Link/List's clickCnt order up to date with the links a batch counted. */
export interface ClickRanks {
  changed(batchKey: string, changes: { accountId: number; linkId: number }[]): Promise<void>;
}

export interface QueuedClick {
  messageId: string;
  /** 1 on the first delivery; more when the queue delivers the message again. */
  receiveCount: number;
  firstReceivedAt: Date;
  event: ClickEvent;
}

/** Counter writes in flight per batch unless told: a batch of the long tail is one write per link. */
export const WRITES_IN_FLIGHT = 32;

/**
 * Turns batches of click events into counter updates. A link's counts live in its click
 * item, beside the link: its totals and the cells of the buckets its clicks fell in, so a
 * link clicked a few times in a batch costs one small write. Once the item holds its share
 * of cells, a batch writes that link's buckets to their own items instead (four writes
 * a batch for a hot link, whatever its clicks).
 *
 * Nothing is counted twice when the queue delivers again:
 * - Before writing, the aggregator claims the batch: one item, keyed by the fingerprint of
 *   its message set, that lists its messages and packs its events. An identical batch
 *   arriving again finds the claim.
 * - Messages delivered again (receive count above 1) are looked up in the batches claimed
 *   since they were first received, so a redelivery that arrives regrouped with other
 *   messages is recognised message by message.
 * - A claimed batch whose "done" marker is missing was interrupted: it is finished from
 *   the claim. Each counter update carries the batch key and is skipped where that key
 *   is the item's last applied batch, so finishing adds only what is missing. (The one
 *   gap: an interrupted batch finished after a later batch already wrote the same item.)
 */
export class ClickAggregator {
  constructor(
    private readonly deps: {
      clicks: ClickStore;
      zonesOf: (accountIds: number[]) => Promise<Map<number, string>>;
      clock: () => Date;
      ranks?: ClickRanks;
      /** Counter writes in flight at once within a batch (WRITES_IN_FLIGHT unless given). */
      writesInFlight?: number;
    },
  ) {}

  async aggregate(batch: QueuedClick[]): Promise<void> {
    const { clicks, clock } = this.deps;
    let fresh = batch;
    const redelivered = batch.filter((message) => message.receiveCount > 1);
    if (redelivered.length > 0) {
      const since = new Date(Math.min(...redelivered.map((message) => message.firstReceivedAt.getTime())) - 60_000);
      const claimed = await clicks.claimedSince(since, clock());
      const earlierBatches = new Set<string>();
      fresh = batch.filter((message) => {
        const earlier = message.receiveCount > 1 ? claimed.get(messageFingerprint(message.messageId)) : undefined;
        if (earlier) earlierBatches.add(earlier);
        return earlier === undefined;
      });
      for (const batchKey of earlierBatches) await this.#finish(batchKey);
    }
    if (fresh.length === 0) return;

    const fingerprints = fresh.map((message) => messageFingerprint(message.messageId));
    const batchKey = batchKeyOf(fingerprints);
    const events = fresh.map((message) => message.event);
    const zones = await this.deps.zonesOf([...new Set(events.map((event) => event.accountId))]);
    const zoneOf = (accountId: number) => zones.get(accountId) ?? 'UTC';
    if (await clicks.claimBatch(batchKey, fingerprints, packClicks(events, zoneOf), clock())) {
      await this.#apply(batchKey, sumClicks(events, zoneOf));
    } else await this.#finish(batchKey);
  }

  /** Completes a claimed batch unless it is done already. */
  async #finish(batchKey: string): Promise<void> {
    if (await this.deps.clicks.isBatchDone(batchKey)) return;
    const deltas = await this.deps.clicks.claimedDeltas(batchKey);
    if (deltas) await this.#apply(batchKey, deltas);
  }

  async #apply(batchKey: string, deltas: LinkDelta[]): Promise<void> {
    const { clicks, clock, ranks, writesInFlight = WRITES_IN_FLIGHT } = this.deps;
    await mapLimited(deltas, writesInFlight, async (delta) => {
      if ((await clicks.addToClickItem(batchKey, delta)) === 'added') return;
      // Buckets first: a batch finished again finds the totals unwritten, and each bucket skips itself.
      await Promise.all(
        delta.buckets.map(([type, param, clicksInBucket, redirects]) =>
          clicks.addToBucket(delta.linkId, type, param, batchKey, { clicks: clicksInBucket, redirects }),
        ),
      );
      await clicks.addToLink(delta.linkId, batchKey, { clicks: delta.clicks, redirects: delta.redirects, bots: delta.bots });
    });
    await ranks?.changed(
      batchKey,
      deltas.map(({ accountId, linkId }) => ({ accountId, linkId })),
    );
    await clicks.markBatchDone(batchKey, clock());
  }
}
