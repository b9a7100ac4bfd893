import { failure, formBody, startService, type TestService } from '../support/local-service';

type Body = Record<string, string | string[]>;
type Link = { id: number; code: string; shortLink: string };

/** A valid request to each Link operation, about `link` (a link of the calling account). */
const OPERATIONS: { name: string; body: (link: Link) => Body; data: (link: Link) => unknown }[] = [
  {
    name: 'Link/Create',
    body: () => ({ 'data[fullLink]': 'https://example.com/transport' }),
    data: () => ({ id: expect.any(Number), code: expect.stringMatching(/^[a-z0-9]{4,}$/), shortLink: expect.any(String) }),
  },
  { name: 'Link/Get', body: (link) => ({ id: String(link.id) }), data: (link) => expect.objectContaining({ id: link.id, code: link.code }) },
  { name: 'Link/Update', body: (link) => ({ id: String(link.id), 'data[comment]': 'updated' }), data: (link) => link.shortLink },
  { name: 'Link/Delete', body: (link) => ({ 'ids[]': String(link.id) }), data: (link) => ({ processed: [link.id], notProcessed: [] }) },
  {
    name: 'Link/List',
    body: () => ({ 'pagination[pageSize]': '25' }),
    data: () => ({ items: expect.any(Array), totalItemCount: expect.any(Number) }),
  },
];

describe('transport and envelope (SPEC §1, §2)', () => {
  let service: TestService;
  let key: string;
  /** A link of the account for calls that fail or change nothing that matters. */
  let fixture: Link;

  beforeAll(async () => {
    service = await startService();
    ({ key } = await service.account({ timeZone: 'Asia/Tashkent' }));
    fixture = await createLink();
  });
  afterAll(() => service.close());

  const createLink = async (apiKey = key): Promise<Link> =>
    (await service.api('Link/Create', apiKey, { 'data[fullLink]': 'https://example.com/fixture' })).data;

  describe.each(OPERATIONS)('$name', ({ name, body, data }) => {
    /** The link a successful call works on: a fresh one for Link/Delete, which removes it. */
    const target = () => (name === 'Link/Delete' ? createLink() : Promise.resolve(fixture));

    it.each([['POST'], ['GET']] as const)('answers HTTP 200 with a JSON success envelope to %s', async (method) => {
      // Prepare
      const link = await target();

      // Act
      const { status, envelope, raw } = await service.call(name, key, { method, body: body(link) });

      // Assess
      expect(status).toBe(200);
      expect(raw.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(envelope).toEqual({ code: 0, data: data(link), message: '' });
    });

    it.each([
      ['lower case', name.toLowerCase()],
      ['upper case', name.toUpperCase()],
      ['mixed case', name.replace(/[a-z]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c))],
    ])('matches the path in %s', async (_, path) => {
      const link = await target();
      const { envelope } = await service.call(path, key, { body: body(link) });
      expect(envelope).toEqual({ code: 0, data: data(link), message: '' });
    });

    it('returns code 8 without an apiKey, or with a blank, malformed or unknown one', async () => {
      const link = fixture;
      expect((await service.call(name, null, { body: body(link) })).envelope).toEqual(failure(8));
      expect((await service.call(name, '', { body: body(link) })).envelope).toEqual(failure(8));
      expect((await service.call(name, 'not-a-key', { body: body(link) })).envelope).toEqual(failure(8));
      expect((await service.call(name, 'a'.repeat(40), { body: body(link) })).envelope).toEqual(failure(8));
      expect(await service.api(name, key.toUpperCase(), body(link))).toEqual(failure(8));
    });

    it('returns code 8 with a revoked apiKey, while the account keeps working with another key', async () => {
      // Prepare
      const account = await service.account();
      const link = await createLink(account.key);
      const [issued] = await service.runtime.accounts.listKeys(account.id);
      const { key: second } = await service.runtime.accounts.issueKey(account.id);

      // Act
      await service.runtime.accounts.revokeKey(account.id, issued!.keyId);

      // Assess
      expect(await service.api(name, account.key, body(link))).toEqual(failure(8));
      expect(await service.api(name, second, body(link))).toEqual({ code: 0, data: data(link), message: '' });
    });

    it('returns code 14 for a blocked account and does nothing', async () => {
      // Prepare
      const account = await service.account();
      const link = await createLink(account.key);
      await service.runtime.accounts.updateAccount(account.id, { status: 'blocked' });

      // Act
      const envelope = await service.api(name, account.key, body(link));

      // Assess: once unblocked, the account finds its one link as it was
      expect(envelope).toEqual(failure(14));
      await service.runtime.accounts.updateAccount(account.id, { status: 'active' });
      const listed = await service.api('Link/List', account.key, {});
      expect(listed.data.totalItemCount).toBe(1);
      expect(listed.data.items[0]).toMatchObject({ id: link.id, comment: null });
    });

    it.each([['v2'], ['V1'], ['1'], ['v1.1']])('returns code 12 when api is %s', async (api) => {
      const { status, envelope } = await service.call(name, key, { body: body(fixture), query: { api } });
      expect(status).toBe(200);
      expect(envelope).toEqual(failure(12));
    });

    it.each([['html'], ['csv'], ['jsonp']])('returns code 6 in JSON when output is %s', async (output) => {
      const { status, envelope, raw } = await service.call(name, key, { body: body(fixture), query: { output } });
      expect(status).toBe(200);
      expect(raw.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(envelope).toEqual(failure(6));
    });

    it('answers in XML when output is xml', async () => {
      const link = await target();
      const response = await fetch(`${service.baseUrl}/service/${name}?output=xml&api=v1&apiKey=${key}&${formBody(body(link))}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      expect(await response.text()).toMatch(
        /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<response><code>0<\/code><data>.*<\/data><message><\/message><\/response>$/s,
      );
    });
  });

  it('uses api v1 and JSON output when api and output are absent', async () => {
    const link = fixture;
    const response = await fetch(`${service.baseUrl}/service/Link/Get?apiKey=${key}&id=${link.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ code: 0, data: expect.objectContaining({ id: link.id }), message: '' });
  });

  it('reads output in any letter case', async () => {
    const { envelope } = await service.call('Link/Get', key, { body: { id: String(fixture.id) }, query: { output: 'JSON' } });
    expect(envelope.code).toBe(0);
  });

  it('takes apiKey from the body as well as from the query string', async () => {
    const { envelope } = await service.call('Link/Get', null, { body: { id: String(fixture.id), apiKey: key } });
    expect(envelope).toEqual({ code: 0, data: expect.objectContaining({ id: fixture.id }), message: '' });
  });

  it('reads a form whose content type is written in another letter case', async () => {
    const { envelope } = await service.post('Link/Get', key, `id=${fixture.id}`, { contentType: 'Application/X-WWW-Form-URLEncoded; charset=UTF-8' });
    expect(envelope).toEqual({ code: 0, data: expect.objectContaining({ id: fixture.id }), message: '' });
  });

  it('lets the body win when a parameter is in both the body and the query string', async () => {
    const inQuery = await createLink();
    const inBody = await createLink();
    const { envelope } = await service.call('Link/Get', key, { body: { id: String(inBody.id) }, query: { id: String(inQuery.id) } });
    expect(envelope.data.id).toBe(inBody.id);
  });

  describe('paths that name no operation', () => {
    it.each([
      ['an unknown module', 'Nope/Create', 4],
      ['the bare /service path', '', 4],
      ['a Message path, whose methods do not exist yet', 'Message/Nope', 5],
      ['an unknown method', 'Link/Nope', 5],
      ['a module without a method', 'Link', 5],
      ['an operation with more path after it', 'Link/Get/extra', 5],
      ['an inherited object property', 'Link/constructor', 5],
    ])('returns the code for %s', async (_, path, code) => {
      // With and without a key: the path is resolved before anything else.
      for (const apiKey of [key, null]) {
        const { status, envelope, raw } = await service.call(path, apiKey, { body: {} });
        expect(status).toBe(200);
        expect(raw.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(envelope).toEqual(failure(code));
      }
    });
  });

  describe('the parameter limit', () => {
    const filler = (count: number) => Array.from({ length: count }, (_, i) => `filler${i}=x`).join('&');

    it('reads every one of 1000 body parameters, the last one included', async () => {
      // Prepare: an account with one inactive and one active link
      const account = await service.account();
      const inactive = (await service.api('Link/Create', account.key, { 'data[fullLink]': 'https://example.com', 'data[status]': '0' })).data;
      await createLink(account.key);

      // Act
      const envelope = await service.api('Link/List', account.key, `${filler(999)}&criteria[status]=0`);

      // Assess
      expect(envelope).toEqual({ code: 0, data: { items: [expect.objectContaining({ id: inactive.id })], totalItemCount: 1 }, message: '' });
    });

    it('returns code 12 for more than 1000 body parameters rather than dropping the rest', async () => {
      const envelope = await service.api('Link/List', key, `${filler(1000)}&criteria[status]=0`);
      expect(envelope).toEqual(failure(12));
    });

    it('returns code 12 for more than 1000 query string parameters', async () => {
      const response = await fetch(`${service.baseUrl}/service/Link/Get?${filler(998)}&output=json&api=v1&apiKey=${key}&id=${fixture.id}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(failure(12));
    });
  });
});
