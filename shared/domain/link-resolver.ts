import { type CachedLink, cachedLink, type LinkCache } from './link-cache';
import type { LinkCodec } from './link-code';
import type { Link } from './links';

/** What the redirect reads: a link by id, eventually consistent. */
export interface LinkReader {
  get(id: number, options: { consistent: boolean; counts: false }): Promise<Link | undefined>;
}

/**
 * The redirect's read: the link behind a code, whoever owns it, from the per-container
 * cache when it is fresh there, else with one eventually consistent GetItem (half a read
 * unit). Unknown codes are cached too. Requests for a code whose read is under way wait
 * for that read rather than making their own, so a popular link whose entry just expired
 * costs one read however many requests arrive meanwhile. Kept apart from LinkService so
 * the redirect function bundles only this.
 */
export class LinkResolver {
  /** Reads under way by code, with the cache's invalidation count when each began. */
  readonly #reading = new Map<string, { since: number; read: Promise<CachedLink | undefined> }>();

  constructor(
    private readonly deps: {
      links: LinkReader;
      /** Undefined while no link (and so no code secret) exists. */
      codec: () => Promise<LinkCodec | undefined>;
      cache: LinkCache;
      /** Epoch milliseconds, for the cache's TTL (Date.now in production). */
      now: () => number;
    },
  ) {}

  /** A cache hit answers at once, without a promise: the redirect's hot path. */
  find(code: string): CachedLink | undefined | Promise<CachedLink | undefined> {
    const normalized = code.toLowerCase();
    const { cache } = this.deps;
    const cached = cache.get(normalized, this.deps.now());
    if (cached !== undefined) return cached ?? undefined;
    const since = cache.invalidations;
    const reading = this.#reading.get(normalized);
    // A read that began before a change may find the old link: only a later one is joined.
    if (reading && reading.since === since) return reading.read;
    const read = this.#read(normalized, since).finally(() => {
      if (this.#reading.get(normalized)?.read === read) this.#reading.delete(normalized);
    });
    this.#reading.set(normalized, { since, read });
    return read;
  }

  async #read(code: string, since: number): Promise<CachedLink | undefined> {
    const startedAt = this.deps.now();
    const id = (await this.deps.codec())?.decode(code);
    const link = id === undefined ? undefined : await this.deps.links.get(id, { consistent: false, counts: false });
    const found = link?.code === code ? cachedLink(link) : undefined;
    this.deps.cache.set(code, found ?? null, startedAt, since);
    return found;
  }
}
