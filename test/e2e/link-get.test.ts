import { DateTime } from 'luxon';
import { LINK_FIELDS } from '../support/link-fields';
import { failure, startService, type TestService } from '../support/local-service';

describe('Link/Get', () => {
  let service: TestService;
  let key: string;
  let link: { id: number; code: string; shortLink: string };
  let expected: Record<string, unknown>;

  beforeAll(async () => {
    service = await startService();
    ({ key } = await service.account({ timeZone: 'Asia/Tashkent' }));
    // 20:30:15 UTC on 4 March is 01:30:15 on 5 March in Tashkent (UTC+05:00, no daylight saving).
    service.runtime.clock = () => new Date('2030-03-04T20:30:15.678Z');
    link = (
      await service.api('Link/Create', key, {
        'data[fullLink]': 'https://example.com/offer?utm=sms',
        'data[expirationDate]': '2031-01-31',
        'data[comment]': 'Winter sale',
      })
    ).data;
    service.runtime.clock = () => new Date();
    expected = {
      id: link.id,
      status: 1,
      moderatorStatus: 1,
      clickCnt: 0,
      redirectCnt: 0,
      createTs: '2030-03-05 01-30-15',
      expirationDate: '2031-01-31',
      code: link.code,
      fullLink: 'https://example.com/offer?utm=sms',
      shortLink: link.shortLink,
      comment: 'Winter sale',
      moderatorComment: null,
    };
  });
  afterAll(() => service.close());
  afterEach(() => {
    service.runtime.clock = () => new Date();
  });

  const get = (params: Record<string, string | string[]>, apiKey = key) => service.api('Link/Get', apiKey, params);

  it('returns exactly the Link/Get fields of a link found by id', async () => {
    // Act
    const { status, envelope } = await service.call('Link/Get', key, { body: { id: String(link.id) } });

    // Assess
    expect(status).toBe(200);
    expect(envelope).toEqual({ code: 0, data: expected, message: '' });
    expect(Object.keys(envelope.data)).toEqual(LINK_FIELDS);
  });

  it('finds the same link by code, in any letter case', async () => {
    expect(await get({ code: link.code })).toEqual({ code: 0, data: expected, message: '' });
    expect(await get({ code: link.code.toUpperCase() })).toEqual({ code: 0, data: expected, message: '' });
    expect(await get({ code: ` ${link.code} ` })).toEqual({ code: 0, data: expected, message: '' });
  });

  it('finds the same link by shortLink, with or without the scheme', async () => {
    const withoutScheme = link.shortLink.replace(/^https?:\/\//, '');
    for (const shortLink of [link.shortLink, withoutScheme, `https://${withoutScheme}`, link.shortLink.toUpperCase(), `${link.shortLink}/`]) {
      expect(await get({ shortLink })).toEqual({ code: 0, data: expected, message: '' });
    }
  });

  it('shows createTs as YYYY-MM-DD HH-MM-SS in the account time zone', async () => {
    // Prepare: the same instant seen from a UTC account and from the Tashkent one
    const utc = await service.account({ timeZone: 'UTC' });
    service.runtime.clock = () => new Date('2030-12-31T22:15:09.001Z');
    const utcLink = (await service.api('Link/Create', utc.key, { 'data[fullLink]': 'https://example.com' })).data;
    const tashkentLink = (await service.api('Link/Create', key, { 'data[fullLink]': 'https://example.com' })).data;

    // Act
    const fromUtc = await get({ id: String(utcLink.id) }, utc.key);
    const fromTashkent = await get({ id: String(tashkentLink.id) });

    // Assess
    expect(fromUtc.data.createTs).toBe('2030-12-31 22-15-09');
    expect(fromTashkent.data.createTs).toBe('2031-01-01 03-15-09');
  });

  it('shows createTs of a link made now as the current wall-clock time in the account zone', async () => {
    // Act
    const before = DateTime.now().setZone('Asia/Tashkent').startOf('second');
    const created = (await service.api('Link/Create', key, { 'data[fullLink]': 'https://example.com/now' })).data;
    const after = DateTime.now().setZone('Asia/Tashkent');
    const { data } = await get({ id: String(created.id) });

    // Assess
    expect(data.createTs).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}$/);
    const shown = DateTime.fromFormat(data.createTs, 'yyyy-MM-dd HH-mm-ss', { zone: 'Asia/Tashkent' });
    expect(shown.toMillis()).toBeGreaterThanOrEqual(before.toMillis());
    expect(shown.toMillis()).toBeLessThanOrEqual(after.toMillis());
  });

  it('shows the moderator status and comment an administrator set', async () => {
    const blocked = (await service.api('Link/Create', key, { 'data[fullLink]': 'https://example.com/spam' })).data;
    await service.runtime.links.moderate(blocked.id, 0, 'Spam');
    const { data } = await get({ id: String(blocked.id) });
    expect(data).toMatchObject({ moderatorStatus: 0, moderatorComment: 'Spam', status: 1 });
  });

  it('accepts the parameters in the query string with GET', async () => {
    const { envelope } = await service.call('Link/Get', key, { method: 'GET', body: { code: link.code } });
    expect(envelope).toEqual({ code: 0, data: expected, message: '' });
  });

  it('treats a blank parameter as not given', async () => {
    expect(await get({ id: String(link.id), code: '', shortLink: '' })).toEqual({ code: 0, data: expected, message: '' });
  });

  describe('returns code 12', () => {
    it('when none of id, code and shortLink is given', async () => {
      expect(await get({})).toEqual(failure(12));
      expect(await get({ id: '', code: '', shortLink: '' })).toEqual(failure(12));
      expect(await get({ other: '1' })).toEqual(failure(12));
    });

    it.each([
      ['id and code', { id: 'ID', code: 'CODE' }],
      ['id and shortLink', { id: 'ID', shortLink: 'SHORT' }],
      ['code and shortLink', { code: 'CODE', shortLink: 'SHORT' }],
      ['all three', { id: 'ID', code: 'CODE', shortLink: 'SHORT' }],
    ])('when more than one of them is given: %s', async (_, template) => {
      // Even when every one of them names the same link.
      const params = Object.fromEntries(
        Object.entries(template).map(([name, value]) => [
          name,
          value.replace('ID', String(link.id)).replace('CODE', link.code).replace('SHORT', link.shortLink),
        ]),
      );
      expect(await get(params)).toEqual(failure(12));
    });

    it('when id or code is given more than once', async () => {
      expect(await get({ 'id[]': [String(link.id)] })).toEqual(failure(12));
      expect(await get({ 'code[0]': link.code, 'code[1]': link.code })).toEqual(failure(12));
    });
  });

  describe('returns code 2', () => {
    it.each([
      ['an id that no link has', { id: '987654321' }],
      ['an id of 0', { id: '0' }],
      ['an id that is not a whole number', { id: '1.5' }],
      ['a negative id', { id: '-1' }],
      ['an id in words', { id: 'one' }],
      ['a code that no link has', { code: 'zzzzzzzzzz' }],
      ['a code with characters no code has', { code: 'ab-c' }],
      ['a short link on another domain', { shortLink: 'https://short.example.org/CODE' }],
      ['a short link with more path', { shortLink: 'BASE/x/CODE' }],
    ])('for %s', async (_, template) => {
      const params = Object.fromEntries(
        Object.entries(template).map(([name, value]) => [name, value.replace('CODE', link.code).replace('BASE', service.baseUrl)]),
      );
      expect(await get(params)).toEqual(failure(2));
    });

    it("for another account's link, by id, code or shortLink", async () => {
      const other = await service.account();
      expect(await get({ id: String(link.id) }, other.key)).toEqual(failure(2));
      expect(await get({ code: link.code }, other.key)).toEqual(failure(2));
      expect(await get({ shortLink: link.shortLink }, other.key)).toEqual(failure(2));
    });

    it('for a deleted link', async () => {
      const deleted = (await service.api('Link/Create', key, { 'data[fullLink]': 'https://example.com/gone' })).data;
      expect((await service.api('Link/Delete', key, { 'ids[]': String(deleted.id) })).code).toBe(0);
      expect(await get({ id: String(deleted.id) })).toEqual(failure(2));
      expect(await get({ code: deleted.code })).toEqual(failure(2));
    });
  });
});
