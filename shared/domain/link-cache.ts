import type { Link } from './links';

/** What the redirect needs of a link. */
export type CachedLink = Pick<Link, 'id' | 'accountId' | 'code' | 'fullLink' | 'status' | 'moderatorStatus' | 'expiresAt'>;

/**
 * A per-container cache of links by code for the redirect: a hit costs no read. Entries
 * live `ttlMs` (so another container's change shows within it), unknown codes are cached
 * too (so a flood of bad codes does not become a flood of reads), and the least recently
 * used entry goes when `maxEntries` is reached.
 */
export class LinkCache {
  readonly #entries = new Map<string, { link: CachedLink | null; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** `undefined` on a miss; `null` for a code known not to exist. */
  get(code: string, now: number): CachedLink | null | undefined {
    const entry = this.#entries.get(code);
    if (!entry) return undefined;
    this.#entries.delete(code);
    if (entry.until <= now) return undefined;
    this.#entries.set(code, entry); // most recently used last
    return entry.link;
  }

  set(code: string, link: CachedLink | null, now: number): void {
    if (this.ttlMs <= 0) return;
    this.#entries.delete(code);
    if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(code, { link, until: now + this.ttlMs });
  }

  invalidate(code: string): void {
    this.#entries.delete(code);
  }

  get size(): number {
    return this.#entries.size;
  }
}

export function cachedLink(link: Link): CachedLink {
  const { id, accountId, code, fullLink, status, moderatorStatus, expiresAt } = link;
  return { id, accountId, code, fullLink, status, moderatorStatus, expiresAt };
}
