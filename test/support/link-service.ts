import { LinkCache } from '../../shared/domain/link-cache';
import { LinkCodec } from '../../shared/domain/link-code';
import { LinkService, type LinkStore } from '../../shared/domain/link-service';

/** The code secret the store tests encode links with. */
export const testCodec = new LinkCodec('a-link-code-secret-of-32-characters!');

/**
 * A LinkService over `links` as the store tests use it: no id allocation (ids come with the
 * links they write), no cache, a fixed clock and short link base.
 */
export function testLinkService(links: LinkStore): LinkService {
  return new LinkService({
    links,
    ids: { next: async () => 0 },
    codec: async () => testCodec,
    cache: new LinkCache(0),
    shortLinkBase: 'https://s.test',
    clock: () => new Date('2026-11-22T12:00:00Z'),
  });
}
