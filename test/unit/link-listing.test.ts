import { commentPrefixes, commentWords, type LinkQuery, listLinks, matchesQuery, queryWords, utf8Prefix } from '../../shared/domain/link-listing';
import { compareCodePoints } from '../../shared/domain/paging';
import { aLink } from '../support/fixtures';

const query = (fields: Partial<LinkQuery> = {}): LinkQuery => ({ sort: [], pagination: { pageSize: 25, currentPage: 0 }, ...fields });
const ids = (links: { id: number }[]) => links.map((link) => link.id);

describe('link listing rules', () => {
  describe('comment words', () => {
    it('are the distinct runs of letters and digits, lowercased, of two characters or more', () => {
      expect(commentWords('Spring SALE, spring-sale! 2x a Été')).toEqual(['spring', 'sale', '2x', 'été']);
      expect(commentWords(null)).toEqual([]);
    });

    it('are cut to 40 characters and 40 words', () => {
      expect(commentWords(`${'a'.repeat(45)} b`)).toEqual(['a'.repeat(40)]);
      const many = Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ');
      expect(commentWords(many)).toHaveLength(40);
      expect(commentWords(many).at(-1)).toBe('w39');
    });

    it('are counted under each distinct start of up to 12 characters, once however many words share it', () => {
      expect(commentPrefixes('Sale salt 𝒜b')).toEqual(['s', 'sa', 'sal', 'sale', 'salt', '𝒜', '𝒜b']);
      expect(commentPrefixes('salesmanship2026')).toEqual([...'salesmanship'].map((_, i) => 'salesmanship'.slice(0, i + 1)));
      expect(commentPrefixes(null)).toEqual([]);
    });

    it('in a query keep one character too, since a query word is a start', () => {
      expect(queryWords('a Bc a')).toEqual(['a', 'bc']);
    });
  });

  describe('criteria[query]', () => {
    const link = aLink({ code: 'ab12', trackingCode: '01HZTRACK', comment: 'Summer sale' });

    it('matches the exact code or tracking code in any case', () => {
      expect([matchesQuery(link, 'AB12'), matchesQuery(link, ' 01hztrack '), matchesQuery(link, 'ab1'), matchesQuery(link, '01HZ')]).toEqual([
        true,
        true,
        false,
        false,
      ]);
    });

    it('matches when every word of the query starts a word of the comment', () => {
      expect([matchesQuery(link, 'SUM'), matchesQuery(link, 'sale summer'), matchesQuery(link, 'sum winter'), matchesQuery(link, 'ummer')]).toEqual([
        true,
        true,
        false,
        false,
      ]);
      expect(matchesQuery(link, '!!')).toBe(false);
    });
  });

  describe('order', () => {
    it('compares strings by code point, which is UTF-8 byte order', () => {
      // U+FFFF is below U+1D49C as code points, above it as UTF-16 code units.
      expect(compareCodePoints('\uffff', '𝒜')).toBeLessThan(0);
      expect(compareCodePoints('a', 'ab')).toBeLessThan(0);
      expect(compareCodePoints('b', 'ab')).toBeGreaterThan(0);
      expect(compareCodePoints('é', 'é')).toBe(0);
    });

    it('sorts fullLink by its first 900 UTF-8 bytes, never splitting a character', () => {
      expect(utf8Prefix('é'.repeat(500), 900)).toBe('é'.repeat(450));
      expect(utf8Prefix(`${'a'.repeat(898)}𝒜`, 900)).toBe('a'.repeat(898));
      const long = (id: number, tail: string) => aLink({ id, fullLink: `https://a.test/${'x'.repeat(900)}${tail}` });
      const sorted = listLinks([long(1, 'b'), long(2, 'a')], query({ sort: [{ field: 'fullLink', direction: 'ASC' }] }));
      expect(ids(sorted.items)).toEqual([1, 2]);
    });

    it('breaks ties by id in the direction of the first sort, nulls lowest', () => {
      const links = [
        aLink({ id: 1, clickCnt: 2 }),
        aLink({ id: 2, clickCnt: 2, expirationDate: '2027-01-01' }),
        aLink({ id: 3, clickCnt: 1 }),
        aLink({ id: 4, clickCnt: 2 }),
      ];
      const sorted = (sort: LinkQuery['sort']) => ids(listLinks(links, query({ sort })).items);
      expect(sorted([{ field: 'clickCnt', direction: 'ASC' }])).toEqual([3, 1, 2, 4]);
      expect(sorted([{ field: 'clickCnt', direction: 'DESC' }])).toEqual([4, 2, 1, 3]);
      expect(sorted([{ field: 'expirationDate', direction: 'ASC' }])).toEqual([1, 3, 4, 2]);
      expect(sorted([{ field: 'expirationDate', direction: 'DESC' }])).toEqual([2, 4, 3, 1]);
      expect(
        sorted([
          { field: 'clickCnt', direction: 'DESC' },
          { field: 'expirationDate', direction: 'ASC' },
        ]),
      ).toEqual([4, 1, 2, 3]);
    });
  });
});
