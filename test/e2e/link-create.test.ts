import { failure, startService, type TestService } from '../support/local-service';

describe('Link/Create', () => {
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await startService();
    ({ key } = await service.account({ timeZone: 'Asia/Tashkent' }));
  });
  afterAll(() => service.close());
  afterEach(() => {
    service.runtime.clock = () => new Date();
  });

  const create = (fields: Record<string, string>) => service.api('Link/Create', key, fields);
  const linkCount = async (apiKey = key) => (await service.api('Link/List', apiKey, {})).data.totalItemCount as number;

  it('creates an active link with a 4-character code and returns id, code and shortLink', async () => {
    // Act
    const { status, envelope } = await service.call('Link/Create', key, { body: { 'data[fullLink]': 'https://example.com/offer?x=1' } });

    // Assess
    expect(status).toBe(200);
    expect(envelope).toEqual({
      code: 0,
      data: { id: expect.any(Number), code: expect.stringMatching(/^[a-z0-9]{4}$/), shortLink: expect.any(String) },
      message: '',
    });
    expect(envelope.data.shortLink).toBe(`${service.baseUrl}/${envelope.data.code}`);
    const got = await service.api('Link/Get', key, { id: String(envelope.data.id) });
    expect(got.data).toMatchObject({ status: 1, moderatorStatus: 1, clickCnt: 0, expirationDate: null, comment: null, moderatorComment: null });
  });

  it('stores status, expiration date and comment when they are given', async () => {
    // Act
    const created = await create({
      'data[fullLink]': 'www.example.com/path',
      'data[status]': '0',
      'data[expirationDate]': '2031-02-28',
      'data[comment]': 'Spring campaign',
    });

    // Assess
    expect(created.code).toBe(0);
    const got = await service.api('Link/Get', key, { id: String(created.data.id) });
    expect(got.data).toMatchObject({
      id: created.data.id,
      code: created.data.code,
      shortLink: created.data.shortLink,
      fullLink: 'www.example.com/path',
      status: 0,
      expirationDate: '2031-02-28',
      comment: 'Spring campaign',
    });
  });

  it('treats blank optional fields as not given', async () => {
    const created = await create({ 'data[fullLink]': 'https://example.com', 'data[status]': '', 'data[expirationDate]': '', 'data[comment]': '' });
    expect(created.code).toBe(0);
    const got = await service.api('Link/Get', key, { id: String(created.data.id) });
    expect(got.data).toMatchObject({ status: 1, expirationDate: null, comment: null });
  });

  it('issues a distinct code and id for every link', async () => {
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ 'data[fullLink]': `https://example.com/${i}` })));
    expect(created.every((envelope) => envelope.code === 0)).toBe(true);
    expect(new Set(created.map((envelope) => envelope.data.code)).size).toBe(20);
    expect(new Set(created.map((envelope) => envelope.data.id)).size).toBe(20);
  });

  it.each([
    ['plain http', 'http://example.com'],
    ['an upper-case scheme', 'HTTPS://EXAMPLE.COM/Path'],
    ['no scheme', 'www.example.com'],
    ['a port, query and fragment', 'example.com:8080/x?y=1#z'],
    ['an IPv4 host', 'http://192.0.2.10/x'],
    ['an IPv6 host', 'http://[2001:db8::1]/x'],
    ['exactly 2,000 characters', `https://example.com/${'a'.repeat(2000 - 'https://example.com/'.length)}`],
  ])('accepts a fullLink with %s', async (_, fullLink) => {
    const created = await create({ 'data[fullLink]': fullLink });
    expect(created).toEqual({ code: 0, data: expect.objectContaining({ id: expect.any(Number) }), message: '' });
  });

  describe('returns code 1 naming fullLink', () => {
    it.each([
      ['a javascript: scheme', 'javascript:alert(1)', /javascript: scheme/],
      ['a javascript: scheme in mixed case', 'JavaScript:alert(document.cookie)', /javascript: scheme/],
      ['a data: scheme', 'data:text/html;base64,PHNjcmlwdD4=', /data: scheme/],
      ['a file: scheme', 'file:///etc/passwd', /file: scheme/],
      ['an ftp: scheme', 'ftp://example.com/file', /ftp: scheme/],
      ['a vbscript: scheme', 'vbscript:msgbox(1)', /vbscript: scheme/],
      ['a user name and password', 'http://user:secret@example.com/', /credentials/],
      ['a user name', 'https://user@example.com/', /credentials/],
      ['credentials and no scheme', 'user:secret@example.com', /credentials|scheme/],
      ['2,001 characters', `https://example.com/${'a'.repeat(2001 - 'https://example.com/'.length)}`, /2000 characters/],
      ['spaces', 'not a url', /spaces/],
      ['a host without a top-level domain', 'intranet', /Invalid URL/],
      ['a scheme-qualified host without a top-level domain', 'http://example', /Invalid URL/],
      ['a scheme and nothing else', 'https://', /Invalid URL/],
    ])('when fullLink has %s', async (_, fullLink, message) => {
      const envelope = await create({ 'data[fullLink]': fullLink });
      expect(envelope).toEqual({ code: 1, data: { fullLink: [expect.stringMatching(message)] }, message: expect.stringMatching(message) });
    });

    it('when fullLink points at our own short-link domain, with or without a scheme', async () => {
      const host = new URL(service.baseUrl).host;
      for (const fullLink of [`${service.baseUrl}/abcd`, `https://${host}/abcd`, `${host}/abcd`, `HTTP://${host.toUpperCase()}/x`]) {
        const envelope = await create({ 'data[fullLink]': fullLink });
        expect(envelope).toEqual({ code: 1, data: { fullLink: [expect.stringMatching(/short-link domain/)] }, message: expect.any(String) });
      }
    });

    it('when fullLink is blank or missing from data', async () => {
      expect(await create({ 'data[fullLink]': '' })).toEqual(failure(1, { fullLink: ['Full link is required'] }));
      expect(await create({ 'data[fullLink]': '   ' })).toEqual(failure(1, { fullLink: ['Full link is required'] }));
      expect(await create({ 'data[comment]': 'no link here' })).toEqual(failure(1, { fullLink: ['Full link is required'] }));
    });

    it('when fullLink is given as an array', async () => {
      const envelope = await create({ 'data[fullLink][]': 'https://example.com' });
      expect(envelope).toEqual(failure(1, { fullLink: [expect.any(String)] }));
    });
  });

  it.each([['2'], ['-1'], ['yes'], ['1.0']])('returns code 1 naming status when it is %s', async (status) => {
    const envelope = await create({ 'data[fullLink]': 'https://example.com', 'data[status]': status });
    expect(envelope).toEqual(failure(1, { status: ['Status must be 0 or 1'] }));
  });

  it.each([['2031-13-01'], ['2031-02-30'], ['01.02.2031'], ['2031-1-1'], ['2031-01-01 10:00:00'], ['tomorrow']])(
    'returns code 1 naming expirationDate when it is %s',
    async (expirationDate) => {
      const envelope = await create({ 'data[fullLink]': 'https://example.com', 'data[expirationDate]': expirationDate });
      expect(envelope).toEqual(failure(1, { expirationDate: ['Expiration date must be a date, YYYY-MM-DD'] }));
    },
  );

  it('returns code 1 when expirationDate is in the past in the account time zone, and accepts today there', async () => {
    // Prepare: 20:00 UTC on 4 March is already 01:00 on 5 March in Tashkent (UTC+05:00)
    service.runtime.clock = () => new Date('2030-03-04T20:00:00Z');

    // Act
    const yesterday = await create({ 'data[fullLink]': 'https://example.com', 'data[expirationDate]': '2030-03-04' });
    const today = await create({ 'data[fullLink]': 'https://example.com', 'data[expirationDate]': '2030-03-05' });

    // Assess
    expect(yesterday).toEqual(failure(1, { expirationDate: ['Expiration date must not be in the past'] }));
    expect(today.code).toBe(0);
  });

  it('returns code 1 when comment is longer than 255 characters, and accepts 255 of any script', async () => {
    expect(await create({ 'data[fullLink]': 'https://example.com', 'data[comment]': 'x'.repeat(256) })).toEqual(
      failure(1, { comment: ['Comment must be at most 255 characters'] }),
    );
    const latin = await create({ 'data[fullLink]': 'https://example.com', 'data[comment]': 'x'.repeat(255) });
    const cyrillic = await create({ 'data[fullLink]': 'https://example.com', 'data[comment]': 'ж'.repeat(255) });
    expect([latin.code, cyrillic.code]).toEqual([0, 0]);
    expect((await service.api('Link/Get', key, { id: String(cyrillic.data.id) })).data.comment).toBe('ж'.repeat(255));
  });

  it('returns code 1 naming every invalid field at once', async () => {
    const envelope = await create({
      'data[fullLink]': 'file:///etc/passwd',
      'data[status]': '7',
      'data[expirationDate]': '31.12.2031',
      'data[comment]': 'c'.repeat(300),
    });
    expect(envelope).toEqual(
      failure(1, {
        fullLink: [expect.stringMatching(/file: scheme/)],
        status: ['Status must be 0 or 1'],
        expirationDate: ['Expiration date must be a date, YYYY-MM-DD'],
        comment: ['Comment must be at most 255 characters'],
      }),
    );
  });

  it('writes nothing when it refuses a link', async () => {
    // Prepare
    const { key: own } = await service.account();
    await service.api('Link/Create', own, { 'data[fullLink]': 'https://example.com/kept' });

    // Act
    const refused = await Promise.all([
      service.api('Link/Create', own, { 'data[fullLink]': 'javascript:alert(1)' }),
      service.api('Link/Create', own, { 'data[fullLink]': 'https://example.com', 'data[comment]': 'x'.repeat(256) }),
      service.api('Link/Create', own, { 'data[fullLink]': 'https://example.com', 'data[expirationDate]': '2001-01-01' }),
      service.api('Link/Create', own, { other: 'x' }),
    ]);

    // Assess
    expect(refused.map((envelope) => envelope.code)).toEqual([1, 1, 1, 11]);
    expect(await linkCount(own)).toBe(1);
  });

  it('returns code 11 when data is missing', async () => {
    const envelope = await service.api('Link/Create', key, { other: 'x' });
    expect(envelope).toEqual({ code: 11, data: null, message: expect.stringContaining('data') });
  });

  it('returns code 11 when data is blank, as PHP clients send a parameter they do not set', async () => {
    expect(await service.api('Link/Create', key, { data: '' })).toEqual(failure(11));
    expect(await service.api('Link/Create', key, {})).toEqual(failure(11));
  });

  it('returns code 1 when data is a plain value rather than fields', async () => {
    expect(await service.api('Link/Create', key, { data: 'https://example.com' })).toEqual(failure(1, { data: [expect.any(String)] }));
  });

  it('returns code 1 with the field named when fullLink has a javascript: scheme', async () => {
    const envelope = await service.api('Link/Create', key, { 'data[fullLink]': 'javascript:alert(1)' });
    expect(envelope).toEqual({ code: 1, data: { fullLink: ['Links with the javascript: scheme are not allowed'] }, message: expect.any(String) });
  });

  it('accepts the parameters in the query string with GET', async () => {
    const { envelope } = await service.call('Link/Create', key, {
      method: 'GET',
      body: { 'data[fullLink]': 'https://example.com/by-get', 'data[comment]': 'via GET' },
    });
    expect(envelope.code).toBe(0);
    const got = await service.api('Link/Get', key, { id: String(envelope.data.id) });
    expect(got.data).toMatchObject({ fullLink: 'https://example.com/by-get', comment: 'via GET' });
  });
});
