import { AccountService } from '../../shared/domain/account-service';
import { AppError } from '../../shared/domain/errors';
import { cryptoRandomInt, ulidAt } from '../../shared/ids';
import { AccountsRepository, ApiKeysRepository } from '../../shared/store/accounts-repo';
import type { Store } from '../../shared/store/client';
import { IdAllocator } from '../../shared/store/id-allocator';
import { SettingsRepository } from '../../shared/store/settings-repo';
import { startTestStore } from '../support/dynamo';

let store: Store;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ store, close } = await startTestStore());
});
afterAll(() => close());

describe('IdAllocator', () => {
  it('never hands out the same id twice across containers under concurrency', async () => {
    // Prepare: three "containers" sharing one counter
    const containers = [0, 1, 2].map(() => new IdAllocator(store, 'unique-test'));

    // Act: 600 concurrent requests spread over them
    const ids = await Promise.all(Array.from({ length: 600 }, (_, i) => containers[i % 3]!.next()));

    // Assess
    expect(new Set(ids).size).toBe(600);
    expect(Math.min(...ids)).toBe(1);
  });

  it('reserves growing blocks when drained quickly, so the counter is written far less than once per id', async () => {
    // Prepare
    const allocator = new IdAllocator(store, 'block-test');
    const sent: unknown[] = [];
    const original = store.db.send.bind(store.db);
    const spy = jest.spyOn(store.db, 'send').mockImplementation(((command: unknown) => {
      sent.push(command);
      return original(command as never);
    }) as never);

    // Act
    for (let i = 0; i < 500; i++) await allocator.next();
    spy.mockRestore();

    // Assess: 1 + 2 + 4 + … + 256 covers 500 ids in about ten writes
    expect(sent.length).toBeLessThanOrEqual(12);
  });
});

describe('AccountService', () => {
  const build = (ttl: number) =>
    new AccountService({
      accounts: new AccountsRepository(store),
      apiKeys: new ApiKeysRepository(store),
      ids: new IdAllocator(store, 'account-test'),
      keyIds: ulidAt,
      random: cryptoRandomInt,
      clock: () => new Date(),
      authCacheTtlMs: ttl,
    });

  it('stores only the hash of a key and authenticates with the key', async () => {
    // Prepare
    const service = build(0);
    const account = await service.createAccount({ name: 'Acme', timeZone: 'Europe/Berlin', currency: 'EUR' });

    // Act
    const { key, apiKey } = await service.issueKey(account.id);

    // Assess
    expect(key).toMatch(/^[a-z0-9]{40}$/);
    expect(await service.authenticate(key)).toEqual(account);
    const stored = JSON.stringify(await new ApiKeysRepository(store).listByAccount(account.id));
    expect(stored).not.toContain(key);
    expect(stored).toContain(apiKey.keyId);
  });

  it('refuses revoked keys with unauthenticated and blocked accounts with accountBlocked', async () => {
    const service = build(0);
    const account = await service.createAccount({ name: 'Acme' });
    const { key, apiKey } = await service.issueKey(account.id);

    await service.updateAccount(account.id, { status: 'blocked' });
    await expect(service.authenticate(key)).rejects.toMatchObject({ kind: 'accountBlocked' });

    await service.updateAccount(account.id, { status: 'active' });
    await service.revokeKey(account.id, apiKey.keyId);
    await expect(service.authenticate(key)).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(service.revokeKey(account.id, apiKey.keyId)).rejects.toBeInstanceOf(AppError);
  });

  it('refuses unknown time zones and currencies', async () => {
    const service = build(0);
    await expect(service.createAccount({ name: 'X', timeZone: 'Mars/Base' })).rejects.toThrow('Unknown IANA time zone');
    await expect(service.createAccount({ name: 'X', currency: 'euro' })).rejects.toThrow('ISO 4217');
  });

  it('trusts a cached authentication for its TTL only', async () => {
    const service = build(60_000);
    const account = await service.createAccount({ name: 'Cached' });
    const { key, apiKey } = await service.issueKey(account.id);
    await service.authenticate(key);
    await service.revokeKey(account.id, apiKey.keyId);
    // Still cached in this container: the documented revocation delay.
    await expect(service.authenticate(key)).resolves.toMatchObject({ id: account.id });
    await expect(build(60_000).authenticate(key)).rejects.toMatchObject({ kind: 'unauthenticated' });
  });
});

describe('AccountService sending settings', () => {
  const service = () =>
    new AccountService({
      accounts: new AccountsRepository(store),
      apiKeys: new ApiKeysRepository(store),
      ids: new IdAllocator(store, 'account-test'),
      keyIds: ulidAt,
      random: cryptoRandomInt,
      clock: () => new Date('2026-11-22T10:00:00Z'),
      authCacheTtlMs: 0,
    });

  it('registers, approves and defaults signatures, prices and moderation, and reads them back', async () => {
    // Prepare
    const accounts = service();
    const { id } = await accounts.createAccount({ name: 'Shop' });

    // Act
    await accounts.addSignature(id, 'Shop');
    await expect(accounts.setDefaultSignature(id, 'Shop')).rejects.toThrow('not approved');
    await accounts.approveSignature(id, 'Shop');
    await accounts.setDefaultSignature(id, 'Shop');
    await accounts.setPrice(id, 'kz', 0.02);
    await accounts.setPrice(id, '*', 0.05);
    await accounts.setPrice(id, '*', null);
    await accounts.setModeration(id, 'all');

    // Assess: what a fresh read (as authentication does) sees
    expect((await service().getAccount(id)).sending).toEqual({
      signatures: { Shop: { approved: true, createdAt: '2026-11-22T10:00:00.000Z' } },
      defaultSignature: 'Shop',
      tariff: { KZ: 0.02 },
      moderation: 'all',
    });
  });

  it('refuses bad signatures, duplicate ones, unknown countries and negative prices', async () => {
    const accounts = service();
    const { id } = await accounts.createAccount({ name: 'Shop' });
    await expect(accounts.addSignature(id, 'Way too long name')).rejects.toThrow('A signature is');
    await accounts.addSignature(id, 'Shop');
    await expect(accounts.addSignature(id, 'Shop')).rejects.toThrow('already registered');
    await expect(accounts.approveSignature(id, 'Other')).rejects.toMatchObject({ kind: 'notFound' });
    await expect(accounts.setPrice(id, 'Kazakhstan', 1)).rejects.toThrow('ISO 3166');
    await expect(accounts.setPrice(id, 'KZ', -1)).rejects.toThrow('from 0');
    await expect(accounts.setModeration(id, 'some' as never)).rejects.toThrow('none or all');
  });
});

describe('SettingsRepository', () => {
  it('creates the link code secret once, even when processes race for it', async () => {
    const secrets = await Promise.all([0, 1, 2, 3].map(() => new SettingsRepository(store).linkCodeSecret()));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toMatch(/^[0-9a-f]{64}$/);
  });
});
