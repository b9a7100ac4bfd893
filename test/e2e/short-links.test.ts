import { startService, type TestService } from '../support/local-service';

describe('short links (GET|HEAD {short_link_base}/<code>)', () => {
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

  const visit = (code: string, method: 'GET' | 'HEAD' = 'GET') => fetch(`${service.baseUrl}/${code}`, { method, redirect: 'manual' });

  async function createLink(fields: Record<string, string> = {}) {
    const { data } = await service.api('Link/Create', key, { 'data[fullLink]': 'www.example.com/offer', ...fields });
    return data as { id: number; code: string };
  }

  it('answers 404 for an unknown code before any link exists, without writing anything', async () => {
    // Act
    const response = await visit('abcd');

    // Assess: the read-only path found no code secret and did not create one
    expect(response.status).toBe(404);
    expect(await service.runtime.settings.existingLinkCodeSecret()).toBeUndefined();
  });

  it('redirects an active link with 302 to its full link, adding http:// when it had no scheme', async () => {
    const link = await createLink();
    const response = await visit(link.code);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('http://www.example.com/offer');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect((await visit(link.code.toUpperCase())).status).toBe(302);
  });

  it('answers 404 for an inactive link, 451 for a blocked one and 410 for an expired one', async () => {
    const inactive = await createLink({ 'data[status]': '0' });
    const blocked = await createLink();
    await service.runtime.links.moderate(blocked.id, 0, 'Phishing');
    const expiring = await createLink({ 'data[expirationDate]': '2030-06-01' });

    expect((await visit(inactive.code)).status).toBe(404);
    const blockedPage = await visit(blocked.code);
    expect(blockedPage.status).toBe(451);
    expect(blockedPage.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await blockedPage.text()).toContain('blocked');

    // Valid through the end of 2030-06-01 in Asia/Tashkent (UTC+05:00), that is 18:59:59.999 UTC.
    service.runtime.clock = () => new Date('2030-06-01T18:59:59.999Z');
    expect((await visit(expiring.code)).status).toBe(302);
    service.runtime.clock = () => new Date('2030-06-01T19:00:00.000Z');
    expect((await visit(expiring.code)).status).toBe(410);
  });

  it('answers HEAD like GET without a body', async () => {
    const inactive = await createLink({ 'data[status]': '0' });
    const response = await visit(inactive.code, 'HEAD');
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('');
  });

  it('answers 404 for paths that cannot be codes', async () => {
    expect((await visit('no/such/path')).status).toBe(404);
    expect((await visit('favicon.ico')).status).toBe(404);
  });
});
