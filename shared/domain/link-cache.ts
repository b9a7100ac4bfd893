import { type Link, redirectTarget } from './links';

/** What the redirect needs of a link, with where it sends visitors worked out once. */
export type CachedLink = Pick<Link, 'id' | 'accountId' | 'code' | 'fullLink' | 'status' | 'moderatorStatus' | 'expiresAt'> & {
  /**
   * redirectTarget(fullLink): the Location of its 302, worked out when the link is cached so
   * that a hit costs nothing. Undefined when fullLink cannot be serialized as a URL.
   */
  target: string | undefined;
};

interface Entry {
  link: CachedLink | null;
  until: number;
  /** Read since it was last passed over for eviction (the CLOCK algorithm's reference bit). */
  used: boolean;
}

/**
 * A per-container cache of links by code for the redirect: a hit costs no read. Entries
 * live `ttlMs` (so another container's change shows within it), unknown codes are cached
 * too (so a flood of bad codes does not become a flood of reads), and when `maxEntries`
 * is reached an entry not read since the last pass goes (CLOCK, an approximation of
 * least-recently-used that costs a hit nothing but a flag).
 */
export class LinkCache {
  readonly #entries = new Map<string, Entry>();
  #invalidations = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** `undefined` on a miss; `null` for a code known not to exist. */
  get(code: string, now: number): CachedLink | null | undefined {
    const entry = this.#entries.get(code);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.#entries.delete(code);
      return undefined;
    }
    entry.used = true;
    return entry.link;
  }

  /**
   * Remembers what a read found. `readSince`, the count of invalidations when the read
   * began: if a change came in meanwhile, what the read found may be the old link, and it
   * is not kept.
   */
  set(code: string, link: CachedLink | null, now: number, readSince = this.#invalidations): void {
    if (this.ttlMs <= 0 || readSince !== this.#invalidations) return;
    this.#entries.delete(code);
    if (this.#entries.size >= this.maxEntries) this.#evictOne();
    this.#entries.set(code, { link, until: now + this.ttlMs, used: false });
  }

  invalidate(code: string): void {
    this.#invalidations++;
    this.#entries.delete(code);
  }

  /** How many changes have invalidated entries so far: reads compare it (see `set`). */
  get invalidations(): number {
    return this.#invalidations;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Oldest first: a used entry gets a second chance at the back, an unused one goes. */
  #evictOne(): void {
    for (const [code, entry] of this.#entries) {
      this.#entries.delete(code);
      if (!entry.used) return;
      entry.used = false;
      this.#entries.set(code, entry);
    }
  }
}

export function cachedLink(link: Link): CachedLink {
  const { id, accountId, code, fullLink, status, moderatorStatus, expiresAt } = link;
  return { id, accountId, code, fullLink, status, moderatorStatus, expiresAt, target: redirectTarget(fullLink) };
}
