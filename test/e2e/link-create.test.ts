import { startService, type TestService } from '../support/local-service';

describe('Link/Create', () => {
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await startService();
    ({ key } = await service.account());
  });
  afterAll(() => service.close());

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
    expect(got.data).toMatchObject({ status: 1, moderatorStatus: 1, clickCnt: 0, expirationDate: null, comment: null });
  });

  it('returns code 11 when data is missing', async () => {
    const envelope = await service.api('Link/Create', key, { other: 'x' });
    expect(envelope).toEqual({ code: 11, data: null, message: expect.stringContaining('data') });
  });

  it('returns code 1 with the field named when fullLink has a javascript: scheme', async () => {
    const envelope = await service.api('Link/Create', key, { 'data[fullLink]': 'javascript:alert(1)' });
    expect(envelope).toEqual({ code: 1, data: { fullLink: ['Links with the javascript: scheme are not allowed'] }, message: expect.any(String) });
  });
});
