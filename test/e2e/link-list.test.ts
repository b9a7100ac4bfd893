import { ClicksRepository } from '../../shared/store/clicks-repo';
import { LINK_FIELDS } from '../support/link-fields';
import { failure, startService, type TestService } from '../support/local-service';

type Body = Record<string, string | string[]>;

interface Seeded {
  id: number;
  code: string;
  shortLink: string;
  fullLink: string;
  createTs: string;
  expirationDate: string | null;
  clickCnt: number;
}

describe('Link/List', () => {
  let service: TestService;
  let key: string;
  let accountId: number;
  let otherKey: string;
  /** Five links of the Tashkent account (UTC+05:00), created at known instants. */
  const seeded: Record<'l1' | 'l2' | 'l3' | 'l4' | 'l5', Seeded> = {} as never;

  const SEEDS = {
    // 23:59:59 on 4 March in Tashkent
    l1: { at: '2030-03-04T18:59:59.500Z', createTs: '2030-03-04 23-59-59', fullLink: 'https://delta.example.com', comment: 'Spring SALE', clicks: 3 },
    // 00:00:00 on 5 March in Tashkent
    l2: {
      at: '2030-03-04T19:00:00.000Z',
      createTs: '2030-03-05 00-00-00',
      fullLink: 'https://alpha.example.com',
      status: '0',
      expirationDate: '2031-05-01',
      clicks: 0,
    },
    // 15:20:30 on 5 March in Tashkent; blocked by a moderator below
    l3: {
      at: '2030-03-05T10:20:30.250Z',
      createTs: '2030-03-05 15-20-30',
      fullLink: 'https://charlie.example.com',
      comment: 'autumn sale',
      expirationDate: '2031-01-15',
      clicks: 1,
    },
    // 07:00:00 on 6 March in Tashkent
    l4: { at: '2030-03-06T02:00:00.000Z', createTs: '2030-03-06 07-00-00', fullLink: 'https://bravo.example.com', comment: 'Other', clicks: 2 },
    // 17:00:00 on 7 March in Tashkent
    l5: {
      at: '2030-03-07T12:00:00.000Z',
      createTs: '2030-03-07 17-00-00',
      fullLink: 'https://echo.example.com',
      comment: 'misc',
      status: '0',
      expirationDate: '2030-12-31',
      clicks: 4,
    },
  };

  beforeAll(async () => {
    service = await startService();
    ({ key, id: accountId } = await service.account({ timeZone: 'Asia/Tashkent' }));
    ({ key: otherKey } = await service.account({ timeZone: 'Asia/Tashkent' }));
    for (const [name, seed] of Object.entries(SEEDS) as [keyof typeof SEEDS, (typeof SEEDS)[keyof typeof SEEDS]][]) {
      service.runtime.clock = () => new Date(seed.at);
      const fields: Body = { 'data[fullLink]': seed.fullLink };
      if ('comment' in seed) fields['data[comment]'] = seed.comment;
      if ('status' in seed) fields['data[status]'] = seed.status;
      if ('expirationDate' in seed) fields['data[expirationDate]'] = seed.expirationDate;
      const { data } = await service.api('Link/Create', key, fields);
      seeded[name] = {
        ...data,
        fullLink: seed.fullLink,
        createTs: seed.createTs,
        expirationDate: 'expirationDate' in seed ? seed.expirationDate : null,
        clickCnt: seed.clicks,
      };
    }
    service.runtime.clock = () => new Date();
    await service.runtime.links.moderate(seeded.l3.id, 0, 'spam');
    // Click counts are added as the click aggregator adds a batch, and the links moved in the
    // clickCnt order by the rank pass the sweep runs: counting itself is clicks.test.ts's
    // subject, and the click queue's batching window would cost this file a second.
    const clicks = new ClicksRepository(service.runtime.store);
    for (const link of Object.values(seeded)) await clicks.addToLink(link.id, 'seed', { clicks: link.clickCnt, redirects: 0, bots: 0 });
    await service.runtime.ranks.changed(
      'seed',
      Object.values(seeded).map((link) => ({ accountId, linkId: link.id })),
    );
    await service.runtime.ranks.apply();
    // The other account's links, which must never show up.
    await service.api('Link/Create', otherKey, { 'data[fullLink]': 'https://alpha.example.com', 'data[comment]': 'Spring SALE' });
  });
  afterAll(() => service.close());
  afterEach(() => {
    service.runtime.clock = () => new Date();
  });

  const list = (body: Body = {}, apiKey = key) => service.api('Link/List', apiKey, body);
  /** The seeded links a list answer holds, by name, in order. */
  const names = (envelope: { data: { items: { id: number }[] } }) =>
    envelope.data.items.map((item) => Object.entries(seeded).find(([, link]) => link.id === item.id)?.[0] ?? `foreign ${item.id}`);
  const expectNames = async (body: Body, expected: string[]) => {
    const envelope = await list(body);
    expect({ code: envelope.code, names: names(envelope), totalItemCount: envelope.data?.totalItemCount }).toEqual({
      code: 0,
      names: expected,
      totalItemCount: expected.length,
    });
  };

  it("lists the account's own links, newest first, with exactly the Link/Get fields", async () => {
    // Act
    const { status, envelope } = await service.call('Link/List', key);

    // Assess
    expect(status).toBe(200);
    expect(names(envelope)).toEqual(['l5', 'l4', 'l3', 'l2', 'l1']);
    const l3 = seeded.l3;
    expect(envelope).toEqual({
      code: 0,
      data: { items: expect.any(Array), totalItemCount: 5 },
      message: '',
    });
    expect(envelope.data.items[2]).toEqual({
      id: l3.id,
      status: 1,
      moderatorStatus: 0,
      clickCnt: 1,
      redirectCnt: 0,
      createTs: '2030-03-05 15-20-30',
      expirationDate: '2031-01-15',
      code: l3.code,
      fullLink: 'https://charlie.example.com',
      shortLink: l3.shortLink,
      comment: 'autumn sale',
      moderatorComment: 'spam',
    });
    for (const item of envelope.data.items) expect(Object.keys(item)).toEqual(LINK_FIELDS);
    // Every createTs is the creation instant's wall-clock second in Tashkent.
    expect(envelope.data.items.map((item: { createTs: string }) => item.createTs)).toEqual(
      ['l5', 'l4', 'l3', 'l2', 'l1'].map((name) => seeded[name as 'l1'].createTs),
    );
  });

  it('shows each item as Link/Get shows it', async () => {
    const { data } = await list();
    for (const item of data.items) expect((await service.api('Link/Get', key, { id: String(item.id) })).data).toEqual(item);
  });

  it('accepts the parameters in the query string with GET', async () => {
    const { envelope } = await service.call('Link/List', key, { method: 'GET', body: { 'criteria[status]': '0', 'sort[fullLink]': 'ASC' } });
    expect(envelope.code).toBe(0);
    expect(names(envelope)).toEqual(['l2', 'l5']);
  });

  it("never shows another account's links, whatever the query", async () => {
    await expectNames({ 'criteria[query]': 'spring' }, ['l1']);
    const theirs = await list({}, otherKey);
    expect(theirs.data.totalItemCount).toBe(1);
    expect(names(theirs)).toEqual([expect.stringMatching(/^foreign/)]);
    expect((await list({ 'criteria[query]': seeded.l1.code }, otherKey)).data).toEqual({ items: [], totalItemCount: 0 });
  });

  describe('criteria', () => {
    it.each([
      ['status 1', { 'criteria[status]': '1' }, ['l4', 'l3', 'l1']],
      ['status 0', { 'criteria[status]': '0' }, ['l5', 'l2']],
      ['moderatorStatus 0 (blocked)', { 'criteria[moderatorStatus]': '0' }, ['l3']],
      ['moderatorStatus 1 (approved)', { 'criteria[moderatorStatus]': '1' }, ['l5', 'l4', 'l2', 'l1']],
      ['createTsFrom as a date, from its start in the account zone', { 'criteria[createTsFrom]': '2030-03-05' }, ['l5', 'l4', 'l3', 'l2']],
      ['createTsFrom as a moment', { 'criteria[createTsFrom]': '2030-03-05 15:20:30' }, ['l5', 'l4', 'l3']],
      ['createTsTo as a moment, inclusive', { 'criteria[createTsTo]': '2030-03-05 00:00:00' }, ['l2', 'l1']],
      ['createTsTo as the second a link shows in createTs', { 'criteria[createTsTo]': '2030-03-05 15:20:30' }, ['l3', 'l2', 'l1']],
      ['createTsTo as a date, to its end in the account zone', { 'criteria[createTsTo]': '2030-03-05' }, ['l3', 'l2', 'l1']],
      [
        'createTsFrom and createTsTo together',
        { 'criteria[createTsFrom]': '2030-03-05', 'criteria[createTsTo]': '2030-03-06 23:59:59' },
        ['l4', 'l3', 'l2'],
      ],
      ['a range with nothing in it', { 'criteria[createTsFrom]': '2030-03-08' }, []],
      ['query over comments, ignoring case', { 'criteria[query]': 'SaLe' }, ['l3', 'l1']],
      ['query as the start of a comment word', { 'criteria[query]': 'autu' }, ['l3']],
      ['query as several word starts, all of which must be there', { 'criteria[query]': 'spr sa' }, ['l1']],
      // Words are found by their start only (an index cannot find the inside of a word).
      ['query as the inside of a word', { 'criteria[query]': 'utum' }, []],
      ['several criteria at once', { 'criteria[status]': '1', 'criteria[moderatorStatus]': '1', 'criteria[query]': 'sale' }, ['l1']],
      [
        'blank criteria, which are not set',
        { 'criteria[status]': '', 'criteria[query]': '', 'criteria[createTsFrom]': '' },
        ['l5', 'l4', 'l3', 'l2', 'l1'],
      ],
      ['a query that matches nothing', { 'criteria[query]': 'no such text' }, []],
      ['a query longer than any key', { 'criteria[query]': `sale ${'é'.repeat(3000)}` }, []],
      ['a query of many words', { 'criteria[query]': Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ') }, []],
    ])('filters by %s', async (_, body, expected) => {
      await expectNames(body, expected);
    });

    it('matches the query against the link code in any letter case', async () => {
      await expectNames({ 'criteria[query]': seeded.l4.code.toUpperCase() }, ['l4']);
      await expectNames({ 'criteria[query]': seeded.l2.code }, ['l2']);
    });

    it('matches the query against the recipient tracking code', async () => {
      // Prepare: tracking codes come from SMS link shortening, so this link is made in the domain
      const own = await service.account();
      const account = await service.runtime.accounts.getAccount(own.id);
      const tracked = await service.runtime.links.create(account, { fullLink: 'https://example.com/sms', trackingCode: 'Rcpt-77810' });
      await service.runtime.links.create(account, { fullLink: 'https://example.com/plain' });

      // Act
      const envelope = await list({ 'criteria[query]': 'rcpt-77810' }, own.key);
      const partial = await list({ 'criteria[query]': 'rcpt-778' }, own.key);

      // Assess: the whole tracking code in any case; a part of it finds nothing
      expect(envelope.data.items.map((item: { id: number }) => item.id)).toEqual([tracked.id]);
      expect(envelope.data.totalItemCount).toBe(1);
      expect(partial.data).toEqual({ items: [], totalItemCount: 0 });
    });
  });

  describe('sort', () => {
    const byCode = (direction: 1 | -1) =>
      Object.entries(seeded)
        .sort(([, a], [, b]) => (a.code < b.code ? -direction : a.code > b.code ? direction : 0))
        .map(([name]) => name);

    it.each([
      ['createTs ASC', { 'sort[createTs]': 'ASC' }, ['l1', 'l2', 'l3', 'l4', 'l5']],
      ['createTs DESC', { 'sort[createTs]': 'DESC' }, ['l5', 'l4', 'l3', 'l2', 'l1']],
      ['fullLink ASC', { 'sort[fullLink]': 'ASC' }, ['l2', 'l4', 'l3', 'l1', 'l5']],
      ['fullLink DESC', { 'sort[fullLink]': 'DESC' }, ['l5', 'l1', 'l3', 'l4', 'l2']],
      ['clickCnt ASC', { 'sort[clickCnt]': 'ASC' }, ['l2', 'l3', 'l4', 'l1', 'l5']],
      ['clickCnt DESC', { 'sort[clickCnt]': 'DESC' }, ['l5', 'l1', 'l4', 'l3', 'l2']],
      // Links without a date come first ascending and last descending; ties follow the id in the sort's direction.
      ['expirationDate ASC', { 'sort[expirationDate]': 'ASC' }, ['l1', 'l4', 'l5', 'l3', 'l2']],
      ['expirationDate DESC', { 'sort[expirationDate]': 'DESC' }, ['l2', 'l3', 'l5', 'l4', 'l1']],
      ['a direction in lower case', { 'sort[fullLink]': 'asc' }, ['l2', 'l4', 'l3', 'l1', 'l5']],
    ])('orders by %s', async (_, body, expected) => {
      await expectNames(body, expected);
    });

    it('orders by code ASC and DESC', async () => {
      await expectNames({ 'sort[code]': 'ASC' }, byCode(1));
      await expectNames({ 'sort[code]': 'DESC' }, byCode(-1));
    });

    it('orders by several fields in the order given', async () => {
      // l1 and l4 have no expiration date: the second field decides between them.
      await expectNames({ 'sort[expirationDate]': 'ASC', 'sort[fullLink]': 'ASC' }, ['l4', 'l1', 'l5', 'l3', 'l2']);
      await expectNames({ 'sort[expirationDate]': 'ASC', 'sort[fullLink]': 'DESC' }, ['l1', 'l4', 'l5', 'l3', 'l2']);
      await expectNames({ 'sort[expirationDate]': 'DESC', 'sort[clickCnt]': 'ASC' }, ['l2', 'l3', 'l5', 'l4', 'l1']);
      await expectNames({ 'sort[expirationDate]': 'DESC', 'sort[clickCnt]': 'DESC' }, ['l2', 'l3', 'l5', 'l1', 'l4']);
    });

    it('sorts the filtered links', async () => {
      await expectNames({ 'criteria[status]': '1', 'sort[clickCnt]': 'DESC' }, ['l1', 'l4', 'l3']);
    });
  });

  describe('pagination', () => {
    const TOTAL = 101;
    let pagedKey: string;
    let createdIds: number[];

    beforeAll(async () => {
      // 101 links, one second apart: a full page of 100 and one more. Made in the domain,
      // as Link/List is the subject here and Link/Create has its own tests.
      const paged = await service.account({ timeZone: 'Asia/Tashkent' });
      pagedKey = paged.key;
      const account = await service.runtime.accounts.getAccount(paged.id);
      let tick = 0;
      service.runtime.clock = () => new Date(Date.UTC(2030, 5, 1) + tick++ * 1000);
      const created = await Promise.all(
        Array.from({ length: TOTAL }, (_, i) => service.runtime.links.create(account, { fullLink: `https://example.com/page/${i}` })),
      );
      createdIds = created.map((link) => link.id);
      service.runtime.clock = () => new Date();
    });

    const page = async (pageSize: string | undefined, currentPage: string | undefined) => {
      const body: Body = {};
      if (pageSize !== undefined) body['pagination[pageSize]'] = pageSize;
      if (currentPage !== undefined) body['pagination[currentPage]'] = currentPage;
      const envelope = await list(body, pagedKey);
      expect(envelope.code).toBe(0);
      expect(envelope.data.totalItemCount).toBe(TOTAL);
      return envelope.data.items as { id: number; createTs: string }[];
    };

    it('returns 25 items by default, from page 0', async () => {
      const items = await page(undefined, undefined);
      expect(items).toHaveLength(25);
      expect(items).toEqual(await page('25', '0'));
    });

    it.each([
      ['25', [25, 25, 25, 25, 1, 0]],
      ['50', [50, 50, 1, 0]],
      ['100', [100, 1, 0]],
    ])('walks every link once with pageSize %s, newest first', async (pageSize, sizes) => {
      // Act
      const pages = [];
      for (let currentPage = 0; currentPage < sizes.length; currentPage++) pages.push(await page(pageSize, String(currentPage)));

      // Assess
      expect(pages.map((items) => items.length)).toEqual(sizes);
      const all = pages.flat();
      expect(new Set(all.map((item) => item.id))).toEqual(new Set(createdIds));
      const createTs = all.map((item) => item.createTs);
      expect(createTs).toEqual([...createTs].sort().reverse());
      expect(new Set(createTs).size).toBe(TOTAL);
    });

    it('returns an empty page past the end, with the total', async () => {
      expect(await page('100', '7')).toEqual([]);
    });

    it('pages the sorted list', async () => {
      const ascending = [...(await list({ 'sort[createTs]': 'ASC', 'pagination[pageSize]': '100' }, pagedKey)).data.items];
      ascending.push(
        ...(await list({ 'sort[createTs]': 'ASC', 'pagination[pageSize]': '100', 'pagination[currentPage]': '1' }, pagedKey)).data.items,
      );
      const envelope = await list({ 'sort[createTs]': 'ASC', 'pagination[pageSize]': '50', 'pagination[currentPage]': '1' }, pagedKey);
      expect(envelope).toEqual({ code: 0, data: { items: ascending.slice(50, 100), totalItemCount: TOTAL }, message: '' });
      expect(ascending[0].createTs).toBe('2030-06-01 05-00-00');
    });
  });

  describe('returns code 12', () => {
    it.each([
      ['pageSize is 10', { 'pagination[pageSize]': '10' }],
      ['pageSize is 0', { 'pagination[pageSize]': '0' }],
      ['pageSize is 200', { 'pagination[pageSize]': '200' }],
      ['pageSize is a word', { 'pagination[pageSize]': 'all' }],
      ['pageSize is written as a decimal', { 'pagination[pageSize]': '25.0' }],
      ['pageSize is written in hexadecimal', { 'pagination[pageSize]': '0x19' }],
      ['pageSize is given twice', { 'pagination[pageSize][]': ['25', '50'] }],
      ['currentPage is negative', { 'pagination[currentPage]': '-1' }],
      ['currentPage is a fraction', { 'pagination[currentPage]': '1.5' }],
      ['currentPage is a word', { 'pagination[currentPage]': 'next' }],
      ['pagination is a plain value', { pagination: '25' }],
      ['sort names a field that cannot be sorted', { 'sort[status]': 'ASC' }],
      ['sort names an unknown field', { 'sort[nope]': 'DESC' }],
      ['sort has a direction other than ASC or DESC', { 'sort[code]': 'UP' }],
      ['sort has a blank direction', { 'sort[code]': '' }],
      ['sort is a plain value', { sort: 'createTs' }],
      ['criteria is a plain value', { criteria: 'status=1' }],
      ['criteria[status] is 2', { 'criteria[status]': '2' }],
      ['criteria[moderatorStatus] is a word', { 'criteria[moderatorStatus]': 'blocked' }],
      ['criteria[status] is given twice', { 'criteria[status][]': ['0', '1'] }],
      ['criteria[createTsFrom] is not a date', { 'criteria[createTsFrom]': 'yesterday' }],
      ['criteria[createTsFrom] is in ISO 8601', { 'criteria[createTsFrom]': '2030-03-05T00:00:00' }],
      ['criteria[createTsTo] uses the response layout', { 'criteria[createTsTo]': '2030-03-05 10-00-00' }],
      ['criteria[createTsTo] does not exist', { 'criteria[createTsTo]': '2030-02-30 10:00:00' }],
      ['criteria[query] is given twice', { 'criteria[query][]': ['a', 'b'] }],
    ])('when %s', async (_, body) => {
      expect(await list(body)).toEqual(failure(12));
    });
  });
});
