import type { ClickStore } from '../../shared/domain/click-aggregator';
import type { Counts, LinkDelta } from '../../shared/domain/clicks';
import type { StatsType } from '../../shared/domain/stats';
import type { BucketReader } from '../../shared/domain/stats-service';
import { utcMinuteOf } from '../../shared/domain/time';
import { MemoryLinkStore } from './memory-links';

interface Bucket extends Counts {
  lastBatch: string;
}

/**
 * Click batches and counters in memory, with the conditions of shared/store/clicks-repo.ts:
 * a batch is claimed once; a counter update is skipped where its batch key is the item's
 * last applied one; a link's totals go onto the link itself and only while it exists;
 * claimed batches are found by the UTC minute they were claimed in. `calls` names every
 * write asked for, whether its condition held or not.
 */
export class MemoryClickStore implements ClickStore, BucketReader {
  readonly batches = new Map<string, { fingerprints: string[]; deltas: string; minute: string }>();
  readonly done = new Set<string>();
  /** Bots and the last applied batch per link: attributes of the link item beside its counters. */
  readonly linkCounters = new Map<number, { bots: number; lastBatch: string }>();
  /** By `<linkId>#<type>#<param>`. */
  readonly stats = new Map<string, Bucket>();
  readonly calls: string[] = [];

  constructor(readonly links = new MemoryLinkStore()) {}

  async claimBatch(batchKey: string, fingerprints: string[], deltas: LinkDelta[], at: Date): Promise<boolean> {
    this.calls.push(`claimBatch:${fingerprints.length}`);
    if (this.batches.has(batchKey)) return false;
    this.batches.set(batchKey, { fingerprints: [...fingerprints], deltas: JSON.stringify(deltas), minute: utcMinuteOf(at) });
    return true;
  }

  async claimedDeltas(batchKey: string): Promise<LinkDelta[] | undefined> {
    const batch = this.batches.get(batchKey);
    return batch && (JSON.parse(batch.deltas) as LinkDelta[]);
  }

  async isBatchDone(batchKey: string): Promise<boolean> {
    return this.done.has(batchKey);
  }

  async markBatchDone(batchKey: string): Promise<void> {
    this.calls.push('markBatchDone');
    this.done.add(batchKey);
  }

  async claimedSince(since: Date, now: Date): Promise<Map<string, string>> {
    const fingerprints = new Map<string, string>();
    // One query per UTC minute from since's to now's, as the repository reads its index.
    for (let minute = Math.floor(since.getTime() / 60_000) * 60_000; minute <= now.getTime(); minute += 60_000) {
      const claimedIn = utcMinuteOf(new Date(minute));
      for (const [batchKey, batch] of this.batches) {
        if (batch.minute === claimedIn) for (const fingerprint of batch.fingerprints) fingerprints.set(fingerprint, batchKey);
      }
    }
    return fingerprints;
  }

  async addToLink(linkId: number, batchKey: string, counts: Counts & { bots: number }): Promise<void> {
    this.calls.push(`addToLink:${linkId}`);
    const link = this.links.items.get(linkId);
    const counters = this.linkCounters.get(linkId);
    if (!link || counters?.lastBatch === batchKey) return;
    link.clickCnt += counts.clicks;
    link.redirectCnt += counts.redirects;
    this.linkCounters.set(linkId, { bots: (counters?.bots ?? 0) + counts.bots, lastBatch: batchKey });
  }

  async addToBucket(linkId: number, type: StatsType, param: string, batchKey: string, counts: Counts): Promise<void> {
    this.calls.push(`addToBucket:${linkId}:${type}:${param}`);
    const key = `${linkId}#${type}#${param}`;
    const bucket = this.stats.get(key);
    if (bucket?.lastBatch === batchKey) return;
    this.stats.set(key, {
      clicks: (bucket?.clicks ?? 0) + counts.clicks,
      redirects: (bucket?.redirects ?? 0) + counts.redirects,
      lastBatch: batchKey,
    });
  }

  async buckets(linkId: number, type: StatsType, fromParam: string, toParam: string): Promise<Map<string, Counts>> {
    const prefix = `${linkId}#${type}#`;
    const result = new Map<string, Counts>();
    // Sorted as the sort key is: params of one type compare as strings.
    for (const [key, { clicks, redirects }] of [...this.stats].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const param = key.startsWith(prefix) ? key.slice(prefix.length) : undefined;
      if (param !== undefined && param >= fromParam && param <= toParam) result.set(param, { clicks, redirects });
    }
    return result;
  }

  /** A bucket's counts, or undefined when nothing was written to it. */
  bucket(linkId: number, type: StatsType, param: string): Counts | undefined {
    const bucket = this.stats.get(`${linkId}#${type}#${param}`);
    return bucket && { clicks: bucket.clicks, redirects: bucket.redirects };
  }
}
