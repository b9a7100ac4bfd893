import { failure, startService, type TestService } from '../support/local-service';

describe('Link/Update', () => {
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

  async function createLink(fields: Record<string, string> = {}, apiKey = key) {
    const { data } = await service.api('Link/Create', apiKey, {
      'data[fullLink]': 'https://example.com/offer',
      'data[comment]': 'Original',
      'data[expirationDate]': '2031-06-30',
      ...fields,
    });
    return data as { id: number; code: string; shortLink: string };
  }
  const update = (fields: Record<string, string | string[]>, apiKey = key) => service.api('Link/Update', apiKey, fields);
  const stored = async (id: number, apiKey = key) => (await service.api('Link/Get', apiKey, { id: String(id) })).data;
  const visit = (code: string) => fetch(`${service.baseUrl}/${code}`, { redirect: 'manual' });

  it('changes the status and answers with the short link as data', async () => {
    // Prepare
    const link = await createLink();

    // Act
    const { status, envelope } = await service.call('Link/Update', key, {
      body: { id: String(link.id), 'data[status]': '0', 'data[expirationDate]': '2031-06-30' },
    });

    // Assess
    expect(status).toBe(200);
    expect(envelope).toEqual({ code: 0, data: link.shortLink, message: '' });
    expect(await stored(link.id)).toMatchObject({
      status: 0,
      comment: 'Original',
      expirationDate: '2031-06-30',
      fullLink: 'https://example.com/offer',
    });
  });

  it('takes a link out of service and back at once', async () => {
    const link = await createLink();
    expect((await visit(link.code)).status).toBe(302);

    await update({ id: String(link.id), 'data[status]': '0' });
    expect((await visit(link.code)).status).toBe(404);

    await update({ id: String(link.id), 'data[status]': '1' });
    expect((await visit(link.code)).status).toBe(302);
  });

  it('changes the comment and leaves it alone when data[comment] is absent', async () => {
    const link = await createLink();

    expect(await update({ id: String(link.id), 'data[comment]': 'Renamed campaign' })).toEqual({ code: 0, data: link.shortLink, message: '' });
    expect((await stored(link.id)).comment).toBe('Renamed campaign');

    expect((await update({ id: String(link.id), 'data[status]': '0' })).code).toBe(0);
    expect((await stored(link.id)).comment).toBe('Renamed campaign');
  });

  it('leaves the status alone when data[status] is absent or blank', async () => {
    const link = await createLink({ 'data[status]': '0' });
    expect((await update({ id: String(link.id), 'data[comment]': 'x' })).code).toBe(0);
    expect((await update({ id: String(link.id), 'data[status]': '' })).code).toBe(0);
    expect((await stored(link.id)).status).toBe(0);
  });

  it('sets a new expiration date, valid to the end of that day in the account zone', async () => {
    // Prepare
    const link = await createLink();

    // Act
    expect((await update({ id: String(link.id), 'data[expirationDate]': '2032-02-29' })).code).toBe(0);

    // Assess: the end of 29 February in Tashkent (UTC+05:00) is 18:59:59.999 UTC
    expect((await stored(link.id)).expirationDate).toBe('2032-02-29');
    service.runtime.clock = () => new Date('2032-02-29T18:59:59.999Z');
    expect((await visit(link.code)).status).toBe(302);
    service.runtime.clock = () => new Date('2032-02-29T19:00:00.000Z');
    expect((await visit(link.code)).status).toBe(410);
  });

  it('makes the link unlimited when data[expirationDate] is not passed (interface spec §4.7)', async () => {
    // Prepare
    const link = await createLink({ 'data[expirationDate]': '2031-01-01' });

    // Act
    const envelope = await update({ id: String(link.id), 'data[comment]': 'No date this time' });

    // Assess: the date is gone, and so is the moment the redirect stops
    expect(envelope).toEqual({ code: 0, data: link.shortLink, message: '' });
    expect(await stored(link.id)).toMatchObject({ expirationDate: null, comment: 'No date this time' });
    service.runtime.clock = () => new Date('2040-01-01T00:00:00Z');
    expect((await visit(link.code)).status).toBe(302);
  });

  it('makes the link unlimited when data[expirationDate] is blank or no data is given at all', async () => {
    const blank = await createLink();
    const bare = await createLink();
    const blankData = await createLink();

    expect((await update({ id: String(blank.id), 'data[expirationDate]': '' })).code).toBe(0);
    expect((await update({ id: String(bare.id) })).code).toBe(0);
    expect((await update({ id: String(blankData.id), data: '' })).code).toBe(0);

    for (const link of [blank, bare, blankData])
      expect(await stored(link.id)).toMatchObject({ expirationDate: null, comment: 'Original', status: 1 });
  });

  it('never changes the full link', async () => {
    const link = await createLink();
    expect((await update({ id: String(link.id), 'data[fullLink]': 'https://evil.example.com' })).code).toBe(0);
    expect((await stored(link.id)).fullLink).toBe('https://example.com/offer');
  });

  it('accepts the parameters in the query string with GET', async () => {
    const link = await createLink();
    const { envelope } = await service.call('Link/Update', key, { method: 'GET', body: { id: String(link.id), 'data[status]': '0' } });
    expect(envelope).toEqual({ code: 0, data: link.shortLink, message: '' });
    expect((await stored(link.id)).status).toBe(0);
  });

  describe('returns code 1 and changes nothing', () => {
    it.each([
      ['status is 2', { 'data[status]': '2' }, { status: ['Status must be 0 or 1'] }],
      ['status is a word', { 'data[status]': 'off' }, { status: ['Status must be 0 or 1'] }],
      ['status is an array', { 'data[status][]': '0' }, { status: ['Status must be 0 or 1'] }],
      ['comment is 256 characters', { 'data[comment]': 'y'.repeat(256) }, { comment: ['Comment must be at most 255 characters'] }],
      [
        'expirationDate is not YYYY-MM-DD',
        { 'data[expirationDate]': '30/06/2031' },
        { expirationDate: ['Expiration date must be a date, YYYY-MM-DD'] },
      ],
      ['expirationDate does not exist', { 'data[expirationDate]': '2031-04-31' }, { expirationDate: ['Expiration date must be a date, YYYY-MM-DD'] }],
      ['expirationDate is in the past', { 'data[expirationDate]': '2020-01-01' }, { expirationDate: ['Expiration date must not be in the past'] }],
      ['data is a plain value', { data: 'status=0' }, { data: [expect.any(String)] }],
    ])('when %s', async (_, fields, errors) => {
      // Prepare
      const link = await createLink();
      const before = await stored(link.id);

      // Act
      const envelope = await update({ id: String(link.id), ...fields });

      // Assess
      expect(envelope).toEqual(failure(1, errors));
      expect(await stored(link.id)).toEqual(before);
    });

    it('naming every invalid field at once', async () => {
      const link = await createLink();
      const envelope = await update({ id: String(link.id), 'data[status]': '9', 'data[comment]': 'z'.repeat(999), 'data[expirationDate]': 'never' });
      expect(envelope).toEqual(
        failure(1, {
          status: ['Status must be 0 or 1'],
          comment: ['Comment must be at most 255 characters'],
          expirationDate: ['Expiration date must be a date, YYYY-MM-DD'],
        }),
      );
    });

    it('when expirationDate is yesterday in the account zone though still today in UTC', async () => {
      const link = await createLink();
      service.runtime.clock = () => new Date('2031-03-04T20:00:00Z'); // 01:00 on 5 March in Tashkent
      expect(await update({ id: String(link.id), 'data[expirationDate]': '2031-03-04' })).toEqual(
        failure(1, { expirationDate: ['Expiration date must not be in the past'] }),
      );
      expect((await update({ id: String(link.id), 'data[expirationDate]': '2031-03-05' })).code).toBe(0);
    });
  });

  describe('returns code 2', () => {
    it.each([['987654321'], ['0'], ['abc'], ['-4'], ['2.0']])('when no link has the id %s', async (id) => {
      expect(await update({ id, 'data[status]': '0' })).toEqual(failure(2));
    });

    it("for another account's link, which stays as it was", async () => {
      // Prepare
      const other = await service.account();
      const theirs = await createLink({}, other.key);
      const before = await stored(theirs.id, other.key);

      // Act
      const envelope = await update({ id: String(theirs.id), 'data[status]': '0', 'data[comment]': 'mine now' });

      // Assess
      expect(envelope).toEqual(failure(2));
      expect(await stored(theirs.id, other.key)).toEqual(before);
    });

    it('for a deleted link', async () => {
      const link = await createLink();
      await service.api('Link/Delete', key, { ids: String(link.id) });
      expect(await update({ id: String(link.id), 'data[status]': '0' })).toEqual(failure(2));
    });
  });

  describe('returns code 12 and changes nothing', () => {
    it.each([
      ['as id[]', (id: string) => ({ 'id[]': id })],
      ['twice', (id: string) => ({ 'id[0]': id, 'id[1]': id })],
      ['with an unclosed bracket, id[', (id: string) => ({ 'id[': id })],
    ])('when id is given %s', async (_, idParams) => {
      const link = await createLink();
      const before = await stored(link.id);
      expect(await update({ ...idParams(String(link.id)), 'data[status]': '0' })).toEqual(failure(12));
      expect(await stored(link.id)).toEqual(before);
    });
  });

  describe('returns code 11', () => {
    it('when id is missing', async () => {
      expect(await update({ 'data[status]': '0' })).toEqual(failure(11));
      expect(await update({})).toEqual(failure(11));
    });

    it('when id is blank', async () => {
      expect(await update({ id: '', 'data[status]': '0' })).toEqual(failure(11));
    });
  });
});
