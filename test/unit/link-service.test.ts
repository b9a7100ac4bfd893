import { LinkCache } from '../../shared/domain/link-cache';
import { LinkCodec } from '../../shared/domain/link-code';
import { type LinkQuery, LinkService } from '../../shared/domain/link-service';
import type { Link } from '../../shared/domain/links';
import { MemoryLinkStore } from '../support/memory-links';
import { aLink, anAccount } from './operations/fakes';

const codec = new LinkCodec('a-link-code-secret-of-32-characters!');
const T0 = new Date('2026-11-22T20:00:00Z');
const ACCOUNT = anAccount({ id: 1 });
const OTHER = anAccount({ id: 2 });

/** A service over an in-memory store, a real codec and cache, ids from 100 on and a clock the test sets. */
function harness(options: { codec?: LinkCodec; firstId?: number } = {}) {
  const links = new MemoryLinkStore();
  const cache = new LinkCache(60_000);
  const codecs: string[] = [];
  let nextId = options.firstId ?? 100;
  const clock = { now: T0 };
  const service = new LinkService({
    links,
    ids: { next: async () => nextId++ },
    codec: async (purpose) => {
      codecs.push(purpose);
      return options.codec ?? codec;
    },
    cache,
    shortLinkBase: 'https://s.test',
    clock: () => clock.now,
  });
  /** A stored link with its real code. */
  const stored = async (id: number, fields: Partial<Link> = {}) => {
    const link = aLink({ id, code: codec.encode(id), ...fields });
    await links.create(link);
    return link;
  };
  return { service, links, cache, codecs, clock, stored, drawn: () => nextId - (options.firstId ?? 100) };
}

function listQuery(fields: Partial<LinkQuery> = {}): LinkQuery {
  return { sort: [], pagination: { pageSize: 25, currentPage: 0 }, ...fields };
}

describe('LinkService', () => {
  describe('create', () => {
    it('stores an active, approved link under the next id, coded by the codec, created at the clock', async () => {
      // Prepare
      const { service, links, codecs } = harness();

      // Act
      const link = await service.create(ACCOUNT, { fullLink: 'https://example.com/a', comment: 'spring' });

      // Assess
      expect(link).toEqual({
        id: 100,
        accountId: 1,
        code: codec.encode(100),
        fullLink: 'https://example.com/a',
        status: 1,
        moderatorStatus: 1,
        moderatorComment: null,
        comment: 'spring',
        expirationDate: null,
        expiresAt: null,
        clickCnt: 0,
        redirectCnt: 0,
        createdAt: '2026-11-22T20:00:00.000Z',
        campaignId: null,
        trackingCode: null,
      });
      expect(links.items.get(100)).toEqual(link);
      expect(codecs).toEqual(['issue']);
    });

    it('sets expiresAt to the end of the expiration date in the account zone', async () => {
      // Prepare
      const { service } = harness();
      const tashkent = anAccount({ id: 1, timeZone: 'Asia/Tashkent' }); // UTC+05:00

      // Act
      const link = await service.create(tashkent, { fullLink: 'https://example.com/', expirationDate: '2026-12-01', status: 0 });

      // Assess
      expect(link).toMatchObject({ status: 0, expirationDate: '2026-12-01', expiresAt: '2026-12-01T18:59:59.999Z' });
    });

    it('refuses an expiration date before today in the account zone, drawing no id and storing nothing', async () => {
      // Prepare: 20:00 UTC is already 01:00 of the 23rd in Tashkent
      const { service, links, drawn } = harness();
      const tashkent = anAccount({ id: 1, timeZone: 'Asia/Tashkent' });

      // Act
      const past = service.create(tashkent, { fullLink: 'https://example.com/', expirationDate: '2026-11-22' });
      const todayInUtc = await service.create(ACCOUNT, { fullLink: 'https://example.com/', expirationDate: '2026-11-22' });

      // Assess
      await expect(past).rejects.toMatchObject({
        kind: 'invalid',
        fields: { expirationDate: ['Expiration date must not be in the past'] },
      });
      expect(todayInUtc.id).toBe(100);
      expect([...links.items.keys()]).toEqual([100]);
      expect(drawn()).toBe(1);
    });

    it('skips ids whose code would shadow a path of the service', async () => {
      // Prepare: a codec that gives ids 1 and 2 the reserved codes
      const reserved = { encode: (id: number) => ['health', 'service'][id - 1] ?? `c${id}00`, decode: () => undefined };
      const { service, links } = harness({ codec: reserved as unknown as LinkCodec, firstId: 1 });

      // Act
      const link = await service.create(ACCOUNT, { fullLink: 'https://example.com/' });

      // Assess
      expect(link).toMatchObject({ id: 3, code: 'c300' });
      expect([...links.items.keys()]).toEqual([3]);
    });
  });

  describe('get', () => {
    it('finds the account link by id, by code in any case and by short link with or without scheme, query or trailing slash', async () => {
      // Prepare
      const { service, stored } = harness();
      const link = await stored(42);
      const code = link.code;

      // Act
      const found = await Promise.all([
        service.get(ACCOUNT, { id: 42 }),
        service.get(ACCOUNT, { code: code.toUpperCase() }),
        service.get(ACCOUNT, { shortLink: `https://s.test/${code}` }),
        service.get(ACCOUNT, { shortLink: `  HTTP://S.TEST/${code}/?utm=x#top ` }),
        service.get(ACCOUNT, { shortLink: `s.test/${code}` }),
      ]);

      // Assess
      expect(found.map((each) => each.id)).toEqual([42, 42, 42, 42, 42]);
    });

    it('answers notFound alike for another account link, an unknown code and a short link on another base', async () => {
      // Prepare
      const { service, stored } = harness();
      const link = await stored(42, { accountId: OTHER.id });
      await stored(43);
      const own = codec.encode(43);

      // Act
      const attempts = await Promise.allSettled([
        service.get(ACCOUNT, { id: 42 }),
        service.get(ACCOUNT, { code: link.code }),
        service.get(ACCOUNT, { id: 44 }),
        service.get(ACCOUNT, { code: 'no!' }),
        service.get(ACCOUNT, { shortLink: `https://elsewhere.test/${own}` }),
        service.get(ACCOUNT, { shortLink: `https://s.test/x/${own}` }),
      ]);

      // Assess
      const notFound = { status: 'rejected', reason: expect.objectContaining({ kind: 'notFound', message: 'Link not found' }) };
      expect(attempts).toEqual(Array(6).fill(notFound));
    });
  });

  describe('update', () => {
    it('changes status, comment and expiration, leaves fields not given, and clears the expiration on null', async () => {
      // Prepare
      const { service, links, stored } = harness();
      await stored(42, { comment: 'keep', expirationDate: '2027-01-01', expiresAt: '2027-01-01T23:59:59.999Z' });

      // Act
      const moved = await service.update(ACCOUNT, 42, { status: 0, expirationDate: '2027-02-01' });
      const cleared = await service.update(ACCOUNT, 42, { comment: null, expirationDate: null });

      // Assess
      expect(moved).toMatchObject({ status: 0, comment: 'keep', expirationDate: '2027-02-01', expiresAt: '2027-02-01T23:59:59.999Z' });
      expect(cleared).toMatchObject({ status: 0, comment: null, expirationDate: null, expiresAt: null });
      expect(links.items.get(42)).toEqual(cleared);
    });

    it('answers notFound for another account link and leaves it as it was', async () => {
      // Prepare
      const { service, links, stored } = harness();
      const theirs = await stored(42, { accountId: OTHER.id });

      // Act
      const attempt = service.update(ACCOUNT, 42, { status: 0, expirationDate: null });

      // Assess
      await expect(attempt).rejects.toMatchObject({ kind: 'notFound', message: 'Link not found' });
      expect(links.items.get(42)).toEqual(theirs);
    });

    it('refuses an expiration date in the past and changes nothing', async () => {
      // Prepare
      const { service, links, stored } = harness();
      const link = await stored(42);

      // Act
      const attempt = service.update(ACCOUNT, 42, { status: 0, expirationDate: '2026-11-21' });

      // Assess
      await expect(attempt).rejects.toMatchObject({ kind: 'invalid', fields: { expirationDate: ['Expiration date must not be in the past'] } });
      expect(links.items.get(42)).toEqual(link);
    });

    it('drops the link from the redirect cache, so the next redirect reads the change', async () => {
      // Prepare: the redirect has the link cached
      const { service, links, stored } = harness();
      const link = await stored(42);
      await service.findForRedirect(link.code);
      links.reads.length = 0;

      // Act
      await service.update(ACCOUNT, 42, { status: 0, expirationDate: null });
      const afterUpdate = await service.findForRedirect(link.code);

      // Assess
      expect(afterUpdate).toMatchObject({ id: 42, status: 0 });
      expect(links.reads).toEqual(['get:42:false']);
    });
  });

  describe('delete', () => {
    it('deletes the account links among the ids, once each, and names the rest as the client wrote them', async () => {
      // Prepare
      const { service, links, stored } = harness();
      await stored(1);
      await stored(2);
      await stored(3, { accountId: OTHER.id });

      // Act
      const result = await service.delete(ACCOUNT, ['1', '2', '2', '3', '4', 'x', '-1', '1.0']);

      // Assess
      expect(result).toEqual({ processed: [1, 2], notProcessed: [3, 4, 'x', '-1', '1.0'] });
      expect([...links.items.keys()]).toEqual([3]);
    });

    it('drops a deleted link from the redirect cache', async () => {
      // Prepare
      const { service, links, stored } = harness();
      const link = await stored(42);
      expect(await service.findForRedirect(link.code)).toMatchObject({ id: 42 });

      // Act
      await service.delete(ACCOUNT, ['42']);
      const afterDelete = await service.findForRedirect(link.code);

      // Assess
      expect(afterDelete).toBeUndefined();
      expect(links.reads).toEqual(['get:42:false', 'get:42:false']);
    });

    it('refuses more than 1000 ids and deletes none of them', async () => {
      // Prepare
      const { service, links, stored } = harness();
      await stored(1);

      // Act
      const attempt = service.delete(
        ACCOUNT,
        Array.from({ length: 1001 }, (_, index) => String(index + 1)),
      );

      // Assess
      await expect(attempt).rejects.toMatchObject({ kind: 'limit', message: 'At most 1000 ids can be deleted at once' });
      expect(links.items.has(1)).toBe(true);
    });
  });

  describe('list', () => {
    /** Five links of the account and one of another, created a minute apart. */
    async function fiveLinks(stored: ReturnType<typeof harness>['stored']) {
      const at = (minute: number) => `2026-11-22T10:0${minute}:00.250Z`;
      await stored(1, { createdAt: at(1), clickCnt: 5, comment: 'Spring sale', fullLink: 'https://b.test/' });
      await stored(2, { createdAt: at(2), clickCnt: 9, status: 0, fullLink: 'https://a.test/' });
      await stored(3, { createdAt: at(3), clickCnt: 5, trackingCode: 'SPRING-7', fullLink: 'https://c.test/' });
      await stored(4, { createdAt: at(4), clickCnt: 0, moderatorStatus: 0, expirationDate: '2027-01-01' });
      await stored(5, { createdAt: at(5), clickCnt: 1, expirationDate: '2026-12-24' });
      await stored(6, { createdAt: at(6), accountId: OTHER.id, comment: 'spring' });
    }
    const ids = (result: { items: Link[] }) => result.items.map((link) => link.id);

    it('lists the account links newest first by default, with the count of all that match', async () => {
      // Prepare
      const { service, stored } = harness();
      await fiveLinks(stored);

      // Act
      const result = await service.list(ACCOUNT, listQuery());

      // Assess
      expect(ids(result)).toEqual([5, 4, 3, 2, 1]);
      expect(result.totalItemCount).toBe(5);
    });

    it('filters by status, moderator status, creation time to the whole second, and a query: code, tracking code, or the start of comment words', async () => {
      // Prepare
      const { service, stored } = harness();
      await fiveLinks(stored);

      // Act
      const inactive = await service.list(ACCOUNT, listQuery({ status: 0 }));
      const blocked = await service.list(ACCOUNT, listQuery({ moderatorStatus: 0 }));
      const created = await service.list(
        ACCOUNT,
        listQuery({ createdFrom: new Date('2026-11-22T10:02:00Z'), createdTo: new Date('2026-11-22T10:04:00Z') }),
      );
      const spring = await service.list(ACCOUNT, listQuery({ query: 'spRING' }));
      const sa = await service.list(ACCOUNT, listQuery({ query: 'SA' }));
      const tracked = await service.list(ACCOUNT, listQuery({ query: 'spring-7' }));
      const byCode = await service.list(ACCOUNT, listQuery({ query: codec.encode(4).toUpperCase() }));

      // Assess
      expect([ids(inactive), ids(blocked), ids(created), ids(spring), ids(sa), ids(tracked), ids(byCode)]).toEqual([
        [2],
        [4],
        [4, 3, 2],
        [1],
        [1],
        [3],
        [4],
      ]);
      expect(spring.totalItemCount).toBe(1);
    });

    it('sorts by the given fields, nulls first ascending, and breaks ties by id in the direction of the sort', async () => {
      // Prepare
      const { service, stored } = harness();
      await fiveLinks(stored);

      // Act
      const byClicks = await service.list(ACCOUNT, listQuery({ sort: [{ field: 'clickCnt', direction: 'DESC' }] }));
      const byExpiry = await service.list(ACCOUNT, listQuery({ sort: [{ field: 'expirationDate', direction: 'ASC' }] }));
      const byFullLink = await service.list(ACCOUNT, listQuery({ sort: [{ field: 'fullLink', direction: 'ASC' }] }));
      const oldestFirst = await service.list(ACCOUNT, listQuery({ sort: [{ field: 'createTs', direction: 'ASC' }] }));
      const byClicksUp = await service.list(ACCOUNT, listQuery({ sort: [{ field: 'clickCnt', direction: 'ASC' }] }));

      // Assess
      expect(ids(byClicks)).toEqual([2, 3, 1, 5, 4]);
      expect(ids(byClicksUp)).toEqual([4, 5, 1, 3, 2]);
      expect(ids(byExpiry)).toEqual([1, 2, 3, 5, 4]);
      expect(ids(byFullLink)).toEqual([2, 1, 3, 4, 5]);
      expect(ids(oldestFirst)).toEqual([1, 2, 3, 4, 5]);
    });

    it('pages after filtering and sorting, counting every match', async () => {
      // Prepare: 40 links a second apart, every fourth inactive
      const { service, stored } = harness();
      for (let id = 1; id <= 40; id++) {
        await stored(id, { createdAt: `2026-11-22T10:00:${String(id).padStart(2, '0')}.000Z`, status: id % 4 === 0 ? 0 : 1 });
      }
      const active = (currentPage: number) => listQuery({ status: 1, pagination: { pageSize: 25, currentPage } });

      // Act
      const first = await service.list(ACCOUNT, active(0));
      const second = await service.list(ACCOUNT, active(1));
      const beyond = await service.list(ACCOUNT, active(2));

      // Assess
      expect([first.items.length, first.totalItemCount]).toEqual([25, 30]);
      expect(ids(first).slice(0, 4)).toEqual([39, 38, 37, 35]);
      expect(second).toMatchObject({ totalItemCount: 30 });
      expect(ids(second)).toEqual([6, 5, 3, 2, 1]);
      expect(beyond).toEqual({ items: [], totalItemCount: 30 });
    });
  });

  describe('getMany', () => {
    it('answers the account links in the order asked, leaving out others and missing ones', async () => {
      // Prepare
      const { service, stored } = harness();
      await stored(1);
      await stored(2, { accountId: OTHER.id });
      await stored(3);

      // Act
      const found = await service.getMany(ACCOUNT, [1, 2, 9, 3]);

      // Assess: the store answers 3 before 1
      expect(found.map((link) => link.id)).toEqual([1, 3]);
    });
  });

  describe('moderate', () => {
    it('blocks any account link with a comment and drops it from the redirect cache, then approves it again', async () => {
      // Prepare
      const { service, links, stored } = harness();
      const link = await stored(42, { accountId: OTHER.id });
      await service.findForRedirect(link.code);

      // Act
      const blocked = await service.moderate(42, 0, 'phishing');
      const seenBlocked = await service.findForRedirect(link.code);
      const approved = await service.moderate(42, 1, null);
      const seenApproved = await service.findForRedirect(link.code);

      // Assess
      expect(blocked).toMatchObject({ moderatorStatus: 0, moderatorComment: 'phishing' });
      expect(seenBlocked).toMatchObject({ moderatorStatus: 0 });
      expect(approved).toMatchObject({ moderatorStatus: 1, moderatorComment: null });
      expect(seenApproved).toMatchObject({ moderatorStatus: 1 });
      expect(links.items.get(42)).toMatchObject({ moderatorStatus: 1, moderatorComment: null });
    });

    it('refuses a comment over 255 characters and an unknown link', async () => {
      // Prepare
      const { service, links, stored } = harness();
      const link = await stored(42);

      // Act
      const long = service.moderate(42, 0, 'x'.repeat(256));
      const unknown = service.moderate(43, 0, null);

      // Assess
      await expect(long).rejects.toMatchObject({
        kind: 'invalid',
        fields: { moderatorComment: ['A moderator comment must be at most 255 characters'] },
      });
      await expect(unknown).rejects.toMatchObject({ kind: 'notFound', message: 'No link 43' });
      expect(links.items.get(42)).toEqual(link);
    });
  });
});
