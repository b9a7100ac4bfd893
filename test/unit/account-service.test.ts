import { createHash } from 'node:crypto';
import { AccountService, type AccountStore, type ApiKeyStore } from '../../shared/domain/account-service';
import type { Account, ApiKey } from '../../shared/domain/accounts';

/** Accounts in a map, counting reads. */
class MemoryAccounts implements AccountStore {
  readonly items = new Map<number, Account>();
  reads = 0;

  async create(account: Account): Promise<void> {
    this.items.set(account.id, structuredClone(account));
  }
  async get(id: number): Promise<Account | undefined> {
    this.reads++;
    const account = this.items.get(id);
    return account && structuredClone(account);
  }
  async list(): Promise<Account[]> {
    return [...this.items.values()];
  }
  async update(id: number, changes: Partial<Account>): Promise<boolean> {
    const account = this.items.get(id);
    if (account) Object.assign(account, changes);
    return account !== undefined;
  }
}

/** Keys by hash, counting lookups. */
class MemoryApiKeys implements ApiKeyStore {
  readonly items = new Map<string, ApiKey>();
  lookups = 0;

  async create(hash: string, apiKey: ApiKey): Promise<boolean> {
    if (this.items.has(hash)) return false;
    this.items.set(hash, { ...apiKey });
    return true;
  }
  async findByHash(hash: string): Promise<ApiKey | undefined> {
    this.lookups++;
    const apiKey = this.items.get(hash);
    return apiKey && { ...apiKey };
  }
  async listByAccount(accountId: number): Promise<(ApiKey & { hash: string })[]> {
    return [...this.items].filter(([, apiKey]) => apiKey.accountId === accountId).map(([hash, apiKey]) => ({ ...apiKey, hash }));
  }
  async revoke(hash: string, revokedAt: string): Promise<boolean> {
    const apiKey = this.items.get(hash);
    if (!apiKey || apiKey.revokedAt !== null) return false;
    apiKey.revokedAt = revokedAt;
    return true;
  }
}

const T0 = Date.parse('2032-03-01T09:00:00Z');
const TTL = 5_000;

/** A service over in-memory stores, a clock the test moves and predictable ids and random numbers. */
function harness() {
  const accounts = new MemoryAccounts();
  const apiKeys = new MemoryApiKeys();
  let now = T0;
  let accountIds = 0;
  let draws = 0;
  const service = new AccountService({
    accounts,
    apiKeys,
    ids: { next: async () => ++accountIds },
    keyIds: (at) => `key-${at.toISOString()}`,
    // 0, 1, 2, …: the key spells the alphabet from the draw count on
    random: (below) => draws++ % below,
    clock: () => new Date(now),
    authCacheTtlMs: TTL,
  });
  return { service, accounts, apiKeys, advance: (ms: number) => (now += ms) };
}

describe('AccountService', () => {
  describe('issueKey', () => {
    it('draws a 40-character key from the random source, stores only its hash, and takes the key id and time from their sources', async () => {
      // Prepare
      const { service, apiKeys } = harness();
      const account = await service.createAccount({ name: 'Acme' });

      // Act
      const { key, apiKey } = await service.issueKey(account.id);

      // Assess
      expect(key).toBe('abcdefghijklmnopqrstuvwxyz0123456789abcd');
      expect(apiKey).toEqual({
        keyId: `key-${new Date(T0).toISOString()}`,
        accountId: account.id,
        prefix: 'abcdef',
        createdAt: new Date(T0).toISOString(),
        revokedAt: null,
      });
      expect([...apiKeys.items]).toEqual([[createHash('sha256').update(key).digest('hex'), apiKey]]);
    });

    it('refuses a fixed key that is not 40 lowercase letters and digits, and one already in use', async () => {
      // Prepare
      const { service, apiKeys } = harness();
      const account = await service.createAccount({ name: 'Acme' });
      const fixed = 'k'.repeat(40);
      await service.issueKey(account.id, fixed);

      // Act
      const misshapen = service.issueKey(account.id, 'K'.repeat(40));
      const reused = service.issueKey(account.id, fixed);

      // Assess
      await expect(misshapen).rejects.toMatchObject({ kind: 'invalid', message: 'An API key is 40 lowercase letters and digits' });
      await expect(reused).rejects.toMatchObject({ kind: 'invalid', message: 'That API key is already in use' });
      expect(apiKeys.items.size).toBe(1);
    });
  });

  describe('authenticate', () => {
    it('answers the account of an issued key and refuses unknown, misshapen and missing keys alike', async () => {
      // Prepare
      const { service, apiKeys } = harness();
      const account = await service.createAccount({ name: 'Acme' });
      const { key } = await service.issueKey(account.id);

      // Act
      const found = await service.authenticate(key);
      const unknown = service.authenticate('z'.repeat(40));
      const misshapen = service.authenticate('not-a-key');
      const missing = service.authenticate(undefined);

      // Assess
      expect(found).toEqual(account);
      await expect(unknown).rejects.toMatchObject({ kind: 'unauthenticated', message: 'Invalid API key' });
      await expect(misshapen).rejects.toMatchObject({ kind: 'unauthenticated', message: 'Invalid API key' });
      await expect(missing).rejects.toMatchObject({ kind: 'unauthenticated', message: 'The apiKey parameter is required' });
      expect(apiKeys.lookups).toBe(2); // the misshapen and missing keys cost no read
    });

    it('trusts a key for authCacheTtlMs of the clock: a revocation and a block take effect when it passes', async () => {
      // Prepare
      const { service, advance } = harness();
      const account = await service.createAccount({ name: 'Acme' });
      const { key, apiKey } = await service.issueKey(account.id);
      const other = await service.issueKey(account.id);
      await service.authenticate(key);
      await service.authenticate(other.key);

      // Act
      await service.revokeKey(account.id, apiKey.keyId);
      await service.updateAccount(account.id, { status: 'blocked' });
      advance(TTL - 1);
      const withinTtl = await Promise.all([service.authenticate(key), service.authenticate(other.key)]);
      advance(1);
      const revoked = service.authenticate(key);
      const blocked = service.authenticate(other.key);

      // Assess
      expect(withinTtl.map(({ status }) => status)).toEqual(['active', 'active']);
      await expect(revoked).rejects.toMatchObject({ kind: 'unauthenticated' });
      await expect(blocked).rejects.toMatchObject({ kind: 'accountBlocked', message: 'The account is blocked' });
    });

    it('remembers an unknown key for authCacheTtlMs of the clock, and forgets it when that key is issued', async () => {
      // Prepare
      const { service, apiKeys, advance } = harness();
      const account = await service.createAccount({ name: 'Acme' });
      const key = 'q'.repeat(40);
      await expect(service.authenticate(key)).rejects.toMatchObject({ kind: 'unauthenticated' });

      // Act
      advance(TTL - 1);
      await expect(service.authenticate(key)).rejects.toMatchObject({ kind: 'unauthenticated' });
      const lookupsWithinTtl = apiKeys.lookups;
      advance(1);
      await expect(service.authenticate(key)).rejects.toMatchObject({ kind: 'unauthenticated' });
      const lookupsAfterTtl = apiKeys.lookups;
      await service.issueKey(account.id, key);
      const found = await service.authenticate(key);

      // Assess
      expect([lookupsWithinTtl, lookupsAfterTtl]).toEqual([1, 2]);
      expect(found.id).toBe(account.id);
    });
  });

  describe('zonesOf', () => {
    it('keeps a zone a minute of the clock', async () => {
      // Prepare
      const { service, accounts, advance } = harness();
      const account = await service.createAccount({ name: 'Acme', timeZone: 'Asia/Almaty' });
      accounts.reads = 0;

      // Act
      const first = await service.zonesOf([account.id]);
      await service.updateAccount(account.id, { timeZone: 'Europe/Berlin' });
      const readsBefore = accounts.reads;
      advance(59_999);
      const cached = await service.zonesOf([account.id]);
      advance(1);
      const reread = await service.zonesOf([account.id]);

      // Assess
      expect([first.get(account.id), cached.get(account.id), reread.get(account.id)]).toEqual(['Asia/Almaty', 'Asia/Almaty', 'Europe/Berlin']);
      expect(accounts.reads).toBe(readsBefore + 1);
    });
  });
});
