import { failure, startService, type TestService } from '../support/local-service';

describe('Link/Delete', () => {
  let service: TestService;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    service = await startService();
    ({ key } = await service.account({ timeZone: 'Asia/Tashkent' }));
    ({ key: otherKey } = await service.account());
  });
  afterAll(() => service.close());

  async function createLinks(count: number, apiKey = key) {
    const created = await Promise.all(
      Array.from({ length: count }, (_, i) => service.api('Link/Create', apiKey, { 'data[fullLink]': `https://example.com/${i}` })),
    );
    return created.map((envelope) => envelope.data as { id: number; code: string; shortLink: string });
  }
  const exists = async (id: number, apiKey = key) => (await service.api('Link/Get', apiKey, { id: String(id) })).code === 0;
  const del = (body: Record<string, string | string[]> | string, apiKey = key) => service.api('Link/Delete', apiKey, body);

  it('deletes the links given as ids[] and lists them as processed', async () => {
    // Prepare
    const [a, b, kept] = await createLinks(3);

    // Act
    const { status, envelope } = await service.call('Link/Delete', key, { body: `ids[]=${a!.id}&ids[]=${b!.id}` });

    // Assess
    expect(status).toBe(200);
    expect(envelope).toEqual({ code: 0, data: { processed: [a!.id, b!.id], notProcessed: [] }, message: '' });
    expect([await exists(a!.id), await exists(b!.id), await exists(kept!.id)]).toEqual([false, false, true]);
  });

  it.each([
    ['ids[0] and ids[1]', (x: number, y: number) => `ids[0]=${x}&ids[1]=${y}`],
    ['a comma-separated string', (x: number, y: number) => `ids=${x},${y}`],
    ['a comma-separated string with spaces', (x: number, y: number) => `ids=${x}%2C%20${y}`],
  ])('reads ids given as %s', async (_, body) => {
    const [a, b] = await createLinks(2);
    expect(await del(body(a!.id, b!.id))).toEqual({ code: 0, data: { processed: [a!.id, b!.id], notProcessed: [] }, message: '' });
    expect([await exists(a!.id), await exists(b!.id)]).toEqual([false, false]);
  });

  it('reads the same plain name given twice by its last value, as PHP does', async () => {
    const [a, b] = await createLinks(2);
    expect(await del(`ids=${a!.id}&ids=${b!.id}`)).toEqual({ code: 0, data: { processed: [b!.id], notProcessed: [] }, message: '' });
    expect([await exists(a!.id), await exists(b!.id)]).toEqual([true, false]);
  });

  it('deletes a single id given as a plain value', async () => {
    const [a] = await createLinks(1);
    expect(await del({ ids: String(a!.id) })).toEqual({ code: 0, data: { processed: [a!.id], notProcessed: [] }, message: '' });
  });

  it("puts another account's ids in notProcessed and leaves those links alone", async () => {
    // Prepare
    const [mine] = await createLinks(1);
    const [theirs] = await createLinks(1, otherKey);

    // Act
    const envelope = await del({ 'ids[]': [String(theirs!.id), String(mine!.id)] });

    // Assess
    expect(envelope).toEqual({ code: 0, data: { processed: [mine!.id], notProcessed: [theirs!.id] }, message: '' });
    expect(await exists(theirs!.id, otherKey)).toBe(true);
  });

  it('puts unknown, already deleted and non-numeric ids in notProcessed, each once', async () => {
    const [a, b] = await createLinks(2);
    await del({ ids: String(b!.id) });

    const envelope = await del({ 'ids[]': [String(a!.id), '987654321', String(b!.id), 'abc', String(a!.id), '987654321'] });

    expect(envelope).toEqual({ code: 0, data: { processed: [a!.id], notProcessed: [987654321, b!.id, 'abc'] }, message: '' });
  });

  it('makes a deleted link unknown to Link/Get, Link/List and its short URL', async () => {
    // Prepare
    const [a] = await createLinks(1);
    expect((await fetch(`${service.baseUrl}/${a!.code}`, { redirect: 'manual' })).status).toBe(302);

    // Act
    await del({ ids: String(a!.id) });

    // Assess
    expect(await service.api('Link/Get', key, { code: a!.code })).toEqual(failure(2));
    const listed = await service.api('Link/List', key, { 'criteria[query]': a!.code });
    expect(listed.data).toEqual({ items: [], totalItemCount: 0 });
    expect((await fetch(`${service.baseUrl}/${a!.code}`, { redirect: 'manual' })).status).toBe(404);
  });

  it('accepts the parameters in the query string with GET', async () => {
    const [a, b] = await createLinks(2);
    const { envelope } = await service.call('Link/Delete', key, { method: 'GET', body: { 'ids[]': [String(a!.id), String(b!.id)] } });
    expect(envelope).toEqual({ code: 0, data: { processed: [a!.id, b!.id], notProcessed: [] }, message: '' });
  });

  describe('returns code 11', () => {
    it.each([
      ['ids is missing', {}],
      ['ids is blank', { ids: '' }],
      ['ids holds only commas', { ids: ' , ,' }],
      ['ids[] is blank', { 'ids[]': '' }],
    ])('when %s', async (_, body) => {
      expect(await del(body)).toEqual(failure(11));
    });
  });

  describe('returns code 12 and deletes nothing', () => {
    it('when more than 1000 ids are given as a comma string', async () => {
      const [a] = await createLinks(1);
      const ids = [a!.id, ...Array.from({ length: 1000 }, (_, i) => 500_000 + i)];
      expect(await del({ ids: ids.join(',') })).toEqual(failure(12));
      expect(await exists(a!.id)).toBe(true);
    });

    it('when more than 1000 ids are given as ids[]', async () => {
      const [a] = await createLinks(1);
      const ids = [...Array.from({ length: 1000 }, (_, i) => 500_000 + i), a!.id];
      expect(await del({ 'ids[]': ids.map(String) })).toEqual(failure(12));
      expect(await exists(a!.id)).toBe(true);
    });

    it.each([
      ['an unclosed bracket, ids[', (id: number) => `ids[=${id}`],
      ['names that are not indexes', (id: number) => `ids[first]=${id}`],
    ])('when ids has %s', async (_, body) => {
      const [a] = await createLinks(1);
      expect(await del(body(a!.id))).toEqual(failure(12));
      expect(await exists(a!.id)).toBe(true);
    });

    it('when ids are nested', async () => {
      const [a] = await createLinks(1);
      expect(await del(`ids[0][id]=${a!.id}`)).toEqual(failure(12));
      expect(await exists(a!.id)).toBe(true);
    });
  });
});
