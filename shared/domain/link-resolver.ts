import { cachedLink, type CachedLink, type LinkCache } from './link-cache';
import type { LinkCodec } from './link-code';
import type { Link } from './links';

/** What the redirect reads: a link by id, eventually consistent. */
export interface LinkReader {
  get(id: number, options: { consistent: boolean }): Promise<Link | undefined>;
}

/**
 * The redirect's read: the link behind a code, whoever owns it, from the per-container
 * cache when it is fresh there, else with one eventually consistent GetItem (half a read
 * unit). Unknown codes are cached too. Kept apart from LinkService so the redirect
 * function bundles only this.
 */
export class LinkResolver {
  constructor(
    private readonly deps: {
      links: LinkReader;
      /** Undefined while no link (and so no code secret) exists. */
      codec: () => Promise<LinkCodec | undefined>;
      cache: LinkCache;
    },
  ) {}

  async find(code: string): Promise<CachedLink | undefined> {
    const normalized = code.toLowerCase();
    const now = Date.now();
    const cached = this.deps.cache.get(normalized, now);
    if (cached !== undefined) return cached ?? undefined;
    const id = (await this.deps.codec())?.decode(normalized);
    const link = id === undefined ? undefined : await this.deps.links.get(id, { consistent: false });
    const found = link?.code === normalized ? cachedLink(link) : undefined;
    this.deps.cache.set(normalized, found ?? null, now);
    return found;
  }
}
