import type { ClickStore } from '../../shared/domain/click-aggregator';
import { deltasOfPacked, type LinkDelta } from '../../shared/domain/click-batches';
import type { Counts } from '../../shared/domain/clicks';
import type { StatsType } from '../../shared/domain/stats';
import type { BucketReader } from '../../shared/domain/stats-service';
import { utcMinuteOf } from '../../shared/domain/time';
import { MAX_CELL_TOUCHES } from '../../shared/store/link-clicks';
import { MemoryLinkStore } from './memory-links';

interface Bucket extends Counts {
  lastBatch: string;
}

/** A link's click item: totals, bucket cells by `<type>#<param>`, cells written, last batch. */
interface ClickItem extends Counts {
  bots: number;
  cells: Map<string, Counts>;
  touches: number;
  lastBatch: string;
}

/**
 * Click batches and counters in memory, with the conditions of shared/store/clicks-repo.ts:
 * a batch is claimed once; a counter update is skipped where its batch key is the item's
 * last applied one; a link's counts go to its click item, its buckets to the item's cells
 * until MAX_CELL_TOUCHES cells were written, to bucket items after; claimed batches are
 * found by the UTC minute they were claimed in. `calls` names every write asked for,
 * whether its condition held or not.
 */
export class MemoryClickStore implements ClickStore, BucketReader {
  readonly batches = new Map<string, { fingerprints: string[]; clicks: string; minute: string }>();
  readonly done = new Set<string>();
  readonly clickItems = new Map<number, ClickItem>();
  /** Bucket items, by `<linkId>#<type>#<param>`. */
  readonly stats = new Map<string, Bucket>();
  readonly calls: string[] = [];

  constructor(readonly links = new MemoryLinkStore()) {}

  async claimBatch(batchKey: string, fingerprints: string[], clicks: string, at: Date): Promise<boolean> {
    this.calls.push(`claimBatch:${fingerprints.length}`);
    if (this.batches.has(batchKey)) return false;
    this.batches.set(batchKey, { fingerprints: [...fingerprints], clicks, minute: utcMinuteOf(at) });
    return true;
  }

  async claimedDeltas(batchKey: string): Promise<LinkDelta[] | undefined> {
    const batch = this.batches.get(batchKey);
    return batch && deltasOfPacked(batch.clicks);
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

  async addToClickItem(batchKey: string, delta: LinkDelta): Promise<'added' | 'full'> {
    this.calls.push(`addToClickItem:${delta.linkId}`);
    const item = this.#clickItem(delta.linkId);
    if (item.lastBatch === batchKey) return 'added';
    if (item.touches + delta.buckets.length > MAX_CELL_TOUCHES) return 'full';
    this.#addTotals(item, batchKey, delta);
    item.touches += delta.buckets.length;
    for (const [type, param, clicks, redirects] of delta.buckets) {
      const cell = item.cells.get(`${type}#${param}`);
      item.cells.set(`${type}#${param}`, { clicks: (cell?.clicks ?? 0) + clicks, redirects: (cell?.redirects ?? 0) + redirects });
    }
    return 'added';
  }

  async addToLink(linkId: number, batchKey: string, counts: Counts & { bots: number }): Promise<void> {
    this.calls.push(`addToLink:${linkId}`);
    const item = this.#clickItem(linkId);
    if (item.lastBatch !== batchKey) this.#addTotals(item, batchKey, counts);
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
    const result = new Map<string, Counts>();
    for (const param of new Set(
      [...(this.clickItems.get(linkId)?.cells.keys() ?? []), ...this.stats.keys()].flatMap((key) => paramOf(key, linkId, type)),
    )) {
      if (param < fromParam || param > toParam) continue;
      result.set(param, this.bucket(linkId, type, param) ?? { clicks: 0, redirects: 0 });
    }
    return new Map([...result].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  /** A bucket's counts, cells and bucket item together, or undefined when nothing was written to it. */
  bucket(linkId: number, type: StatsType, param: string): Counts | undefined {
    const cell = this.clickItems.get(linkId)?.cells.get(`${type}#${param}`);
    const bucket = this.stats.get(`${linkId}#${type}#${param}`);
    if (!cell && !bucket) return undefined;
    return { clicks: (cell?.clicks ?? 0) + (bucket?.clicks ?? 0), redirects: (cell?.redirects ?? 0) + (bucket?.redirects ?? 0) };
  }

  /** A link's totals: its link's counts (earlier versions') plus its click item's. */
  totals(linkId: number): { clickCnt: number; redirectCnt: number; bots: number } {
    const link = this.links.items.get(linkId);
    const item = this.clickItems.get(linkId);
    return {
      clickCnt: (link?.clickCnt ?? 0) + (item?.clicks ?? 0),
      redirectCnt: (link?.redirectCnt ?? 0) + (item?.redirects ?? 0),
      bots: item?.bots ?? 0,
    };
  }

  #clickItem(linkId: number): ClickItem {
    const item = this.clickItems.get(linkId) ?? { clicks: 0, redirects: 0, bots: 0, cells: new Map(), touches: 0, lastBatch: '' };
    this.clickItems.set(linkId, item);
    return item;
  }

  #addTotals(item: ClickItem, batchKey: string, counts: Counts & { bots: number }): void {
    item.clicks += counts.clicks;
    item.redirects += counts.redirects;
    item.bots += counts.bots;
    item.lastBatch = batchKey;
  }
}

/** The param of a cell (`<type>#<param>`) or bucket item key (`<linkId>#<type>#<param>`) of the link and type, if it is one. */
function paramOf(key: string, linkId: number, type: StatsType): string[] {
  for (const prefix of [`${type}#`, `${linkId}#${type}#`])
    if (key.startsWith(prefix) && !key.slice(prefix.length).includes('#')) return [key.slice(prefix.length)];
  return [];
}
