import { startService, type TestService } from '../support/local-service';

const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const PREVIEW_BOT = 'WhatsApp/2.23.20.0';

describe('clicks, redirects and Link/GetStats', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());
  afterEach(() => {
    service.runtime.clock = () => new Date();
  });

  const at = (iso: string) => {
    service.runtime.clock = () => new Date(iso);
  };
  const visit = (code: string, options: { method?: 'GET' | 'HEAD'; userAgent?: string } = {}) =>
    fetch(`${service.baseUrl}/${code}`, {
      method: options.method ?? 'GET',
      redirect: 'manual',
      headers: { 'user-agent': options.userAgent ?? BROWSER },
    });

  async function link(key: string, fields: Record<string, string> = {}) {
    const { data } = await service.api('Link/Create', key, { 'data[fullLink]': 'https://example.com/x', ...fields });
    return data as { id: number; code: string };
  }

  it('counts human clicks on every outcome, redirects only when sent on, and bots and HEAD in neither', async () => {
    // Prepare
    const { key } = await service.account();
    const active = await link(key);
    const inactive = await link(key, { 'data[status]': '0' });
    const blocked = await link(key);
    await service.runtime.links.moderate(blocked.id, 0, null);
    const expired = await link(key, { 'data[expirationDate]': '2030-01-01' });

    // Act
    at('2030-01-02T10:00:00Z');
    expect((await visit(active.code)).status).toBe(302);
    expect((await visit(active.code)).status).toBe(302);
    expect((await visit(active.code, { userAgent: PREVIEW_BOT })).status).toBe(302);
    expect((await visit(active.code, { userAgent: '' })).status).toBe(302);
    expect((await visit(active.code, { method: 'HEAD' })).status).toBe(302);
    expect((await visit(inactive.code)).status).toBe(404);
    expect((await visit(blocked.code)).status).toBe(451);
    expect((await visit(expired.code)).status).toBe(410);
    expect((await visit('zzzzzz')).status).toBe(404);
    await service.local.queues.drain();

    // Assess
    const clickCnt = async (id: number) => (await service.api('Link/Get', key, { id: String(id) })).data.clickCnt;
    expect(await clickCnt(active.id)).toBe(2);
    expect(await clickCnt(inactive.id)).toBe(1);
    expect(await clickCnt(blocked.id)).toBe(1);
    expect(await clickCnt(expired.id)).toBe(1);
    const stored = await service.runtime.store.db.send(
      new (await import('@aws-sdk/lib-dynamodb')).GetCommand({
        TableName: service.runtime.config.tableName,
        Key: { pk: `LINK#${active.id}`, sk: '#CLICKS' },
      }),
    );
    expect(stored.Item).toMatchObject({ clicks: 2, redirects: 2, bots: 2 });
    const stats = await service.api('Link/GetStats', key, {
      'ids[]': [String(active.id), String(inactive.id)],
      type: 'daily',
      'criteria[dateFrom]': '2030-01-01 00:00:00',
      'criteria[dateTo]': '2030-01-03 00:00:00',
    });
    expect(stats).toEqual({
      code: 0,
      data: {
        items: [
          { param: '2030-01-01', clicks0: 0, redirects0: 0, clicks1: 0, redirects1: 0 },
          { param: '2030-01-02', clicks0: 2, redirects0: 2, clicks1: 1, redirects1: 0 },
          { param: '2030-01-03', clicks0: 0, redirects0: 0, clicks1: 0, redirects1: 0 },
        ],
        totals: '3',
      },
      message: '',
    });
  });

  it('shows clickCnt and redirectCnt in Link/Get and Link/List, redirectCnt right after clickCnt', async () => {
    // Prepare: two human clicks on an active link, one on an inactive link, one bot visit
    const { key } = await service.account();
    const active = await link(key);
    const inactive = await link(key, { 'data[status]': '0' });
    await visit(active.code);
    await visit(active.code);
    await visit(active.code, { userAgent: PREVIEW_BOT });
    await visit(inactive.code);
    await service.local.queues.drain();

    // Act
    const got = await service.api('Link/Get', key, { id: String(active.id) });
    const listed = await service.api('Link/List', key, { 'sort[createTs]': 'ASC' });

    // Assess: a click on an inactive link is counted but not sent on
    expect(got.data).toMatchObject({ clickCnt: 2, redirectCnt: 2 });
    expect(Object.keys(got.data).slice(3, 5)).toEqual(['clickCnt', 'redirectCnt']);
    expect(listed.data.items.map((item: Record<string, unknown>) => [item.id, item.clickCnt, item.redirectCnt])).toEqual([
      [active.id, 2, 2],
      [inactive.id, 1, 0],
    ]);
    for (const item of listed.data.items) expect(Object.keys(item).slice(3, 5)).toEqual(['clickCnt', 'redirectCnt']);
  });

  it.each([
    ['Asia/Tashkent', '2026-11-30T19:10:00Z', { monthly: '2026-12', daily: '2026-12-01', hourly: '2026-12-01 00:00', minute: '2026-12-01 00:10' }],
    ['America/St_Johns', '2026-12-01T03:20:00Z', { monthly: '2026-11', daily: '2026-11-30', hourly: '2026-11-30 23:00', minute: '2026-11-30 23:50' }],
  ])('buckets clicks of an account in %s by its local time, for all four types', async (timeZone, instant, expected) => {
    // Prepare
    const { key } = await service.account({ timeZone });
    const target = await link(key);
    at(instant);
    await visit(target.code);
    await visit(target.code);
    await service.local.queues.drain();

    // Act: every type with the default interval, which ends now
    for (const type of ['monthly', 'daily', 'hourly', 'minute'] as const) {
      const { code, data } = await service.api('Link/GetStats', key, { 'ids[]': String(target.id), type });

      // Assess: the last period is the click's, in local time, and holds both clicks
      expect(code).toBe(0);
      expect(data.items.at(-1)).toEqual({ param: expected[type], clicks0: 2, redirects0: 2 });
      expect(data.totals).toBe('2');
    }
  });

  it('clamps intervals by the spec rules and zero-fills every period', async () => {
    const { key } = await service.account();
    const target = await link(key);
    at('2026-05-10T08:30:00Z');
    await visit(target.code);
    await service.local.queues.drain();
    const stats = (fields: Record<string, string>) => service.api('Link/GetStats', key, { 'ids[0]': String(target.id), ...fields });

    // Only dateFrom: the maximum interval from it (3 hours of minutes → 181 periods)
    const fromOnly = await stats({ type: 'minute', 'criteria[dateFrom]': '2026-05-10 08:00:00' });
    expect(fromOnly.data.items).toHaveLength(181);
    expect(fromOnly.data.items[30]).toEqual({ param: '2026-05-10 08:30', clicks0: 1, redirects0: 1 });
    // A gap beyond the maximum is cut to the maximum from dateFrom
    const tooLong = await stats({ type: 'hourly', 'criteria[dateFrom]': '2026-05-09 00:00:00', 'criteria[dateTo]': '2026-06-30 00:00:00' });
    expect(tooLong.data.items).toHaveLength(169);
    expect(tooLong.data.items.at(-1).param).toBe('2026-05-16 00:00');
    expect(tooLong.data.totals).toBe('1');
    // Only dateTo: the maximum interval ending there
    const toOnly = await stats({ type: 'monthly', 'criteria[dateTo]': '2026-05-31 23:59:59' });
    expect(toOnly.data.items[0].param).toBe('2023-05');
    expect(toOnly.data.items.at(-1)).toEqual({ param: '2026-05', clicks0: 1, redirects0: 1 });
  });

  it('reads ids of other accounts and unknown ids as links without clicks', async () => {
    const owner = await service.account();
    const other = await service.account();
    const target = await link(owner.key);
    await visit(target.code);
    await service.local.queues.drain();
    const stats = await service.api('Link/GetStats', other.key, { ids: `${target.id},999999`, type: 'daily' });
    expect(stats.code).toBe(0);
    expect(stats.data.totals).toBe('0');
    expect(stats.data.items.at(-1)).toEqual({ param: expect.any(String), clicks0: 0, redirects0: 0, clicks1: 0, redirects1: 0 });
  });

  it.each([
    ['no ids', { type: 'daily' }, 11],
    ['more than 5 ids', { ids: '1,2,3,4,5,6', type: 'daily' }, 12],
    ['an unknown type', { ids: '1', type: 'weekly' }, 12],
    ['no type', { ids: '1' }, 12],
    ['a malformed dateFrom', { ids: '1', type: 'daily', 'criteria[dateFrom]': '2026-13-01 00:00:00' }, 12],
  ])('returns the right code for %s', async (_, fields, code) => {
    const { key } = await service.account();
    expect((await service.api('Link/GetStats', key, fields as Record<string, string>)).code).toBe(code);
  });
});
