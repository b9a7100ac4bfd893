import { batchKeyOf, type ClickEvent, type Counts, type LinkDelta, messageFingerprint, sumClicks } from './clicks';
import { mapLimited } from './concurrency';
import type { StatsType } from './stats';

/** What the aggregator needs from storage; shared/store/clicks-repo.ts implements it. */
export interface ClickStore {
  /** Records a batch and what it adds before applying it; false when this exact batch was claimed before. */
  claimBatch(batchKey: string, fingerprints: string[], deltas: LinkDelta[], at: Date): Promise<boolean>;
  claimedDeltas(batchKey: string): Promise<LinkDelta[] | undefined>;
  isBatchDone(batchKey: string): Promise<boolean>;
  markBatchDone(batchKey: string, at: Date): Promise<void>;
  /** Fingerprint → batch key of every message in batches claimed from `since` on. */
  claimedSince(since: Date, now: Date): Promise<Map<string, string>>;
  /** Adds to a link's totals unless this batch already did (or the link is gone). */
  addToLink(linkId: number, batchKey: string, counts: Counts & { bots: number }): Promise<void>;
  /** Adds to one bucket of a link unless this batch already did. */
  addToBucket(linkId: number, type: StatsType, param: string, batchKey: string, counts: Counts): Promise<void>;
}

export interface QueuedClick {
  messageId: string;
  /** 1 on the first delivery; more when the queue delivers the message again. */
  receiveCount: number;
  firstReceivedAt: Date;
  event: ClickEvent;
}

/**
 * Turns batches of click events into counter updates: one write per link for its totals
 * and one per link per bucket, whatever the batch size, so a viral link costs a few
 * writes per batch rather than one per click.
 *
 * Nothing is counted twice when the queue delivers again:
 * - Before writing, the aggregator claims the batch: one item, keyed by the fingerprint of
 *   its message set, that lists its messages and what they add. An identical batch
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
      /** Told which links each batch counted, so their place in the clickCnt order follows (shared/store/click-ranks.ts). */
      ranks?: { changed(batchKey: string, changes: { accountId: number; linkId: number }[]): Promise<void> };
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
    const deltas = sumClicks(events, (accountId) => zones.get(accountId) ?? 'UTC');
    if (await clicks.claimBatch(batchKey, fingerprints, deltas, clock())) await this.#apply(batchKey, deltas);
    else await this.#finish(batchKey);
  }

  /** Completes a claimed batch unless it is done already. */
  async #finish(batchKey: string): Promise<void> {
    if (await this.deps.clicks.isBatchDone(batchKey)) return;
    const deltas = await this.deps.clicks.claimedDeltas(batchKey);
    if (deltas) await this.#apply(batchKey, deltas);
  }

  async #apply(batchKey: string, deltas: LinkDelta[]): Promise<void> {
    const { clicks, clock } = this.deps;
    const writes: (() => Promise<void>)[] = [];
    for (const delta of deltas) {
      writes.push(() => clicks.addToLink(delta.linkId, batchKey, { clicks: delta.clicks, redirects: delta.redirects, bots: delta.bots }));
      for (const [type, param, clicksInBucket, redirects] of delta.buckets) {
        writes.push(() => clicks.addToBucket(delta.linkId, type, param, batchKey, { clicks: clicksInBucket, redirects }));
      }
    }
    await mapLimited(writes, 16, (write) => write());
    // Before the batch is done: a batch finished again tells the ranks again.
    await this.deps.ranks?.changed(
      batchKey,
      deltas.map((delta) => ({ accountId: delta.accountId, linkId: delta.linkId })),
    );
    await clicks.markBatchDone(batchKey, clock());
  }
}
