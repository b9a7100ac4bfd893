import { failure, startService, type TestService } from '../support/local-service';
import { observeStore, type StoreCall } from '../support/store-calls';

/**
 * What an unknown API key costs: a key that cannot exist is refused without a read, and
 * a well-formed unknown key is read once per AUTH_CACHE_TTL_MS per process, not once per
 * request. The service's clock stands still unless a test moves it.
 */
describe('unknown API keys', () => {
  const TTL_MS = 60_000;
  let service: TestService;
  let now = Date.parse('2026-11-23T10:00:00Z');
  let calls: StoreCall[];
  /** The store calls authentication makes (key and account reads), apart from the sweeper's. */
  const keyReads = () => calls.filter((call) => call.command === 'GetItemCommand' && /^(APIKEY#[0-9a-f]{64}|ACCOUNT#\d+)$/.test(call.pk));

  beforeAll(async () => {
    service = await startService({ authCacheTtlMs: TTL_MS });
    service.runtime.clock = () => new Date(now);
    calls = observeStore(service.runtime.store);
  });
  afterAll(() => service.close());

  beforeEach(() => {
    calls.length = 0;
  });

  it('answers a repeated unknown key with code 8 from memory: the second call reads nothing', async () => {
    // Prepare
    const unknown = 'unknown0000000000000000000000000000key01';

    // Act + Assess: the first call reads the key
    expect(await service.api('Link/List', unknown)).toEqual(failure(8));
    expect(keyReads()).toEqual([{ command: 'GetItemCommand', pk: expect.stringMatching(/^APIKEY#[0-9a-f]{64}$/) }]);

    // the second does not
    calls.length = 0;
    expect(await service.api('Link/List', unknown)).toEqual(failure(8));
    expect(keyReads()).toEqual([]);

    // until the TTL is over
    now += TTL_MS;
    expect(await service.api('Link/List', unknown)).toEqual(failure(8));
    expect(keyReads()).toHaveLength(1);
  });

  it('refuses a key that cannot exist (not 40 lowercase letters and digits) without reading', async () => {
    for (const key of ['short', 'UPPERCASE000000000000000000000000000KEY1', `${'a'.repeat(40)}b`, `${'a'.repeat(39)}-`]) {
      expect(await service.api('Link/List', key)).toEqual(failure(8));
    }
    expect(keyReads()).toEqual([]);
  });

  it('takes a key issued in this process at once, even when it was tried before it existed', async () => {
    // Prepare: the key is tried (and remembered as unknown), then issued
    const key = 'later000000000000000000000000000000key02';
    expect(await service.api('Link/List', key)).toEqual(failure(8));
    const account = await service.runtime.accounts.createAccount({ name: 'Later' });
    await service.runtime.accounts.issueKey(account.id, key);

    // Act
    const answer = await service.api('Link/List', key);

    // Assess
    expect(answer).toMatchObject({ code: 0, data: { totalItemCount: 0 } });
  });

  it('keeps reading a known key once per TTL, not per request', async () => {
    const { key } = await service.account();
    calls.length = 0;
    for (let i = 0; i < 3; i++) expect((await service.api('Link/List', key)).code).toBe(0);
    expect(keyReads()).toHaveLength(2);
  });
});
