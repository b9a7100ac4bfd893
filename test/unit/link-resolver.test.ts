import { LinkCache } from '../../shared/domain/link-cache';
import { LinkCodec } from '../../shared/domain/link-code';
import { LinkResolver } from '../../shared/domain/link-resolver';
import type { Link } from '../../shared/domain/links';

const codec = new LinkCodec('a-link-code-secret-of-32-characters!');

/** A link store whose reads wait until released, counting them. */
function slowLinks() {
  const links = new Map<number, Link>();
  const waiting: (() => void)[] = [];
  let reads = 0;
  return {
    put(id: number, fullLink: string) {
      links.set(id, { id, accountId: 1, code: codec.encode(id), fullLink, status: 1, moderatorStatus: 1, expiresAt: null } as Link);
    },
    reader: {
      get: async (id: number) => {
        reads++;
        const found = links.get(id); // what the table holds when the read is made
        await new Promise<void>((resolve) => waiting.push(resolve));
        return found;
      },
    },
    release: () => {
      for (const resolve of waiting.splice(0)) resolve();
    },
    /** Lets the reads finish in the opposite order they were made. */
    releaseNewestFirst: () => {
      for (const resolve of waiting.splice(0).reverse()) resolve();
    },
    reads: () => reads,
  };
}

describe('LinkResolver', () => {
  it('makes one read for many requests of a code while that read is under way, then serves them from the cache', async () => {
    const store = slowLinks();
    store.put(7, 'https://example.com/seven');
    const resolver = new LinkResolver({ links: store.reader, codec: async () => codec, cache: new LinkCache(60_000), now: Date.now });

    const pending = Array.from({ length: 10 }, () => resolver.find(codec.encode(7).toUpperCase()));
    await new Promise((resolve) => setImmediate(resolve));
    store.release();
    const found = await Promise.all(pending);

    expect(store.reads()).toBe(1);
    expect(new Set(found.map((link) => link?.target))).toEqual(new Set(['https://example.com/seven']));
    expect((await resolver.find(codec.encode(7)))?.id).toBe(7);
    expect(store.reads()).toBe(1);
  });

  it('does not keep, or let later requests join, a read that began before a change', async () => {
    const store = slowLinks();
    store.put(8, 'https://example.com/old');
    const cache = new LinkCache(60_000);
    const resolver = new LinkResolver({ links: store.reader, codec: async () => codec, cache, now: Date.now });
    const code = codec.encode(8);

    // A read begins; meanwhile the link changes (and its entry is invalidated)
    const before = resolver.find(code);
    await new Promise((resolve) => setImmediate(resolve));
    store.put(8, 'https://example.com/new');
    cache.invalidate(code);
    const after = resolver.find(code);
    await new Promise((resolve) => setImmediate(resolve));
    store.releaseNewestFirst(); // the old read ends last: it must not overwrite the new entry

    // The request after the change read again and got the new link; the old read's answer
    // went to the request that was waiting for it, and was not cached
    expect((await after)?.target).toBe('https://example.com/new');
    expect((await before)?.target).toBe('https://example.com/old');
    expect(store.reads()).toBe(2);
    expect(cache.get(code, Date.now())?.target).toBe('https://example.com/new');
  });

  it('caches unknown codes as such', async () => {
    const store = slowLinks();
    const resolver = new LinkResolver({ links: store.reader, codec: async () => codec, cache: new LinkCache(60_000), now: Date.now });
    const first = resolver.find(codec.encode(9));
    await new Promise((resolve) => setImmediate(resolve));
    store.release();
    expect(await first).toBeUndefined();
    expect(await resolver.find(codec.encode(9))).toBeUndefined();
    expect(store.reads()).toBe(1);
  });
});
