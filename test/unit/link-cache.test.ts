import { type CachedLink, cachedLink, LinkCache } from '../../shared/domain/link-cache';

const link = (id: number): CachedLink => ({
  id,
  accountId: 1,
  code: `c${id}`,
  fullLink: `https://example.com/${id}`,
  status: 1,
  moderatorStatus: 1,
  expiresAt: null,
  target: `https://example.com/${id}`,
});

describe('LinkCache', () => {
  it('returns what was set until its time is up, then misses', () => {
    const cache = new LinkCache(5_000);
    cache.set('c1', link(1), 1_000);
    expect(cache.get('c1', 5_999)).toEqual(link(1));
    expect(cache.get('c1', 6_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('remembers codes that do not exist as null, apart from a miss', () => {
    const cache = new LinkCache(5_000);
    cache.set('none', null, 0);
    expect(cache.get('none', 1)).toBeNull();
    expect(cache.get('other', 1)).toBeUndefined();
  });

  it('caches nothing with a TTL of 0, and forgets an invalidated code at once', () => {
    const off = new LinkCache(0);
    off.set('c1', link(1), 0);
    expect(off.get('c1', 0)).toBeUndefined();
    const cache = new LinkCache(5_000);
    cache.set('c1', link(1), 0);
    cache.invalidate('c1');
    expect(cache.get('c1', 1)).toBeUndefined();
  });

  it('stays within its bound, evicting entries not read since the last pass before read ones', () => {
    const cache = new LinkCache(60_000, 3);
    for (const id of [1, 2, 3]) cache.set(`c${id}`, link(id), 0);
    cache.get('c1', 1); // c1 read: it survives the next eviction, c2 (oldest unread) goes
    cache.set('c4', link(4), 2);
    expect(cache.size).toBe(3);
    expect(cache.get('c2', 3)).toBeUndefined();
    expect(cache.get('c1', 3)).toEqual(link(1));
    cache.set('c5', link(5), 4); // c3 is now the oldest unread
    expect(cache.get('c3', 5)).toBeUndefined();
    expect([cache.get('c1', 5), cache.get('c4', 5), cache.get('c5', 5)].map((entry) => entry?.id)).toEqual([1, 4, 5]);
  });

  it('evicts the oldest when every entry has been read', () => {
    const cache = new LinkCache(60_000, 2);
    cache.set('c1', link(1), 0);
    cache.set('c2', link(2), 0);
    cache.get('c1', 1);
    cache.get('c2', 1);
    cache.set('c3', link(3), 2);
    expect(cache.size).toBe(2);
    expect(cache.get('c1', 3)).toBeUndefined();
    expect(cache.get('c3', 3)?.id).toBe(3);
  });
});

describe('cachedLink', () => {
  it('works out the redirect target once, keeping fullLink as the user gave it', () => {
    // Prepare
    const stored = {
      ...link(1),
      fullLink: 'пример.рф/акция',
      moderatorComment: null,
      comment: null,
      expirationDate: null,
      clickCnt: 0,
      redirectCnt: 0,
      createdAt: '2026-11-23T00:00:00.000Z',
      campaignId: null,
      trackingCode: null,
    };

    // Act
    const cached = cachedLink(stored);

    // Assess
    expect(cached.fullLink).toBe('пример.рф/акция');
    expect(cached.target).toBe('http://xn--e1afmkfd.xn--p1ai/%D0%B0%D0%BA%D1%86%D0%B8%D1%8F');
  });
});
