import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Envelope, startService, type TestService } from '../support/local-service';
import { adminAsync } from '../support/serve-process';
import { observeStore, type StoreCall } from '../support/store-calls';

/**
 * The per-account request rate over HTTP: code 30 for what goes beyond the bucket, no
 * work done for it, and the limit an administrator sets. The service's clock stands
 * still unless a test moves it, so the bucket refills only when the test says so.
 */
describe('API rate limit', () => {
  let service: TestService;
  let now = Date.parse('2026-11-23T10:00:00Z');
  let calls: StoreCall[];
  // The admin CLI reaches the in-process dynalite through DYNAMODB_ENDPOINT (set by the service).
  const adminDir = mkdtempSync(join(tmpdir(), 'shortsms-admin-'));
  const admin = (...args: string[]) => adminAsync(adminDir, ...args);

  beforeAll(async () => {
    // The default for every account in this file: 2 requests a second, 4 at once.
    process.env.API_RATE_LIMIT = '2';
    service = await startService();
    service.runtime.clock = () => new Date(now);
    calls = observeStore(service.runtime.store);
  });

  afterAll(async () => {
    await service.close();
    delete process.env.API_RATE_LIMIT;
    rmSync(adminDir, { recursive: true, force: true });
  });

  /** Sends `count` Link/List calls at once and counts the answers by code. */
  async function burst(key: string, count: number): Promise<{ codes: Record<number, number>; refused: Envelope[] }> {
    const answers = await Promise.all(Array.from({ length: count }, () => service.api('Link/List', key)));
    const codes: Record<number, number> = {};
    for (const answer of answers) codes[answer.code] = (codes[answer.code] ?? 0) + 1;
    return { codes, refused: answers.filter((answer) => answer.code === 30) };
  }

  it('answers code 30 to the requests beyond the burst, with a message saying so, and admits again as the bucket refills', async () => {
    // Prepare
    const { key } = await service.account();

    // Act: the burst (4) and 3 more at once
    const first = await burst(key, 7);

    // Assess
    expect(first.codes).toEqual({ 0: 4, 30: 3 });
    expect(first.refused[0]).toEqual({
      code: 30,
      data: null,
      message: 'Rate limit exceeded: this account may make 2 requests a second (4 at once); try again in 0.5 s',
    });

    // A second refills 2 requests; a minute refills the burst, and no more.
    now += 1000;
    expect((await burst(key, 4)).codes).toEqual({ 0: 2, 30: 2 });
    now += 60_000;
    expect((await burst(key, 6)).codes).toEqual({ 0: 4, 30: 2 });
  });

  it('does no work for a refused call: a Link/Create answered 30 writes no link', async () => {
    // Prepare: an account whose bucket is spent
    const { key } = await service.account();
    expect((await burst(key, 4)).codes).toEqual({ 0: 4 });
    calls.length = 0;

    // Act
    const refused = await Promise.all(
      Array.from({ length: 3 }, (_, i) => service.api('Link/Create', key, { 'data[fullLink]': `https://example.com/${i}` })),
    );

    // Assess: only authentication read the store (the key, then its account; no cache in tests)
    expect(refused.map((answer) => answer.code)).toEqual([30, 30, 30]);
    expect(requestCalls(calls)).toEqual(
      Array.from({ length: 6 }, () => ({ command: 'GetItemCommand', pk: expect.stringMatching(/^(APIKEY|ACCOUNT)#/) })),
    );
    now += 1000;
    expect((await service.api('Link/List', key)).data.totalItemCount).toBe(0);
    // The same call admitted writes its link (so the observation above could have seen one).
    calls.length = 0;
    expect((await service.api('Link/Create', key, { 'data[fullLink]': 'https://example.com/admitted' })).code).toBe(0);
    expect(requestCalls(calls)).toContainEqual({ command: 'PutItemCommand', pk: expect.stringMatching(/^LINK#/) });
  });

  it("applies an account's own limit set with the admin CLI: N a second, 0 unlimited, default back to API_RATE_LIMIT", async () => {
    // Prepare
    const { id, key } = await service.account();

    // Act + Assess: 5 a second, 10 at once
    const set = await admin('account', 'update', String(id), '--rate-limit', '5');
    expect(set).toMatchObject({ status: 0, stdout: `Account ${id} updated (rate limit: 5 req/s)\n` });
    expect((await burst(key, 13)).codes).toEqual({ 0: 10, 30: 3 });

    // 0: unlimited
    expect((await admin('account', 'update', String(id), '--rate-limit', '0')).stdout).toContain('rate limit: unlimited');
    expect((await burst(key, 30)).codes).toEqual({ 0: 30 });
    expect((await admin('account', 'list')).stdout).toMatch(new RegExp(`^${id}\\tactive\\tUTC\\tUSD\\tunlimited\\tTest$`, 'm'));

    // default: the service's API_RATE_LIMIT (2 a second, 4 at once) again
    const reset = await admin('account', 'update', String(id), '--rate-limit', 'default', '--json');
    expect(JSON.parse(reset.stdout)).toMatchObject({ id, rateLimit: null });
    now += 60_000;
    expect((await burst(key, 6)).codes).toEqual({ 0: 4, 30: 2 });

    // What is not a limit is refused.
    const bad = await admin('account', 'update', String(id), '--rate-limit', 'fast');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('--rate-limit takes a number of requests per second (0: unlimited) or default');
  }, 120_000);
});

/** The calls requests made, leaving out the deferred-send sweeper's, which runs on its own timer. */
function requestCalls(calls: StoreCall[]): StoreCall[] {
  return calls.filter((call) => !call.pk.startsWith('SCHEDULE#') && call.pk !== 'SETTING#schedule-swept-until');
}
