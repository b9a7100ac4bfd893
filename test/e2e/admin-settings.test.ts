import { startService, type TestService } from '../support/local-service';
import { adminCall, operatorToken } from '../support/operators';

/** The operator API over HTTP: keys, signatures, tariffs, the moderation policy, messages and webhooks. */
describe('operator API: keys, sending settings, messages and webhooks', () => {
  let service: TestService;
  let token: string;
  let accountId: number;

  beforeAll(async () => {
    service = await startService();
    ({ token } = await operatorToken(service, 'Support'));
    accountId = (await service.runtime.accounts.createAccount({ name: 'Settings' })).id;
  });
  afterAll(() => service.close());

  const call = (path: string, options?: Parameters<typeof adminCall>[3]) => adminCall(service.baseUrl, token, path, options);
  const latestAudit = async () => ((await call('audit/list', { query: { limit: '1' } })).json?.data as any[] | undefined)?.[0];

  it('issues a key shown once that the public API takes, lists it without the key, and revokes it', async () => {
    // Act
    const issued = await call('keys/issue', { body: { accountId } });
    const key = issued.json?.data.key as string;
    const before = await service.api('Link/List', key);
    const audited = await latestAudit();
    const listed = await call('keys/list', { query: { accountId: String(accountId) } });
    const revoked = await call('keys/revoke', { body: { accountId, keyId: issued.json?.data.apiKey.keyId } });
    const after = await service.api('Link/List', key);
    const again = await call('keys/revoke', { body: { accountId, keyId: issued.json?.data.apiKey.keyId } });

    // Assess
    expect(issued.json?.data).toEqual({
      key: expect.stringMatching(/^[a-z0-9]{40}$/),
      apiKey: expect.objectContaining({ accountId, revokedAt: null }),
    });
    expect(before.code).toBe(0);
    expect(audited).toMatchObject({ action: 'keys/issue', target: { accountId, keyId: issued.json?.data.apiKey.keyId }, input: { accountId } });
    expect(JSON.stringify(audited)).not.toContain(key);
    expect(listed.json?.data).toEqual([issued.json?.data.apiKey]);
    expect(JSON.stringify(listed.json)).not.toContain(key);
    expect(revoked.json?.data).toEqual({ keyId: issued.json?.data.apiKey.keyId, revoked: true });
    expect(after.code).toBe(8);
    expect(again.status).toBe(409);
    expect(again.json?.error?.code).toBe('conflict');
  });

  it('adds, approves and defaults a signature, and goes back to the service signature with null', async () => {
    // Act
    const added = await call('signatures/add', { body: { accountId, name: 'Shop' } });
    const early = await call('signatures/default', { body: { accountId, name: 'Shop' } });
    const approved = await call('signatures/approve', { body: { accountId, name: 'Shop' } });
    const defaulted = await call('signatures/default', { body: { accountId, name: 'Shop' } });
    const listed = await call('signatures/list', { query: { accountId: String(accountId) } });
    const reset = await call('signatures/default', { body: { accountId, name: null } });

    // Assess
    expect(added.json?.data.sending.signatures.Shop).toEqual({ approved: false, createdAt: expect.any(String) });
    expect(early.status).toBe(400);
    expect(approved.json?.data.sending.signatures.Shop.approved).toBe(true);
    expect(defaulted.json?.data.sending.defaultSignature).toBe('Shop');
    expect(listed.json?.data).toMatchObject({ signatures: { Shop: { approved: true } }, defaultSignature: 'Shop' });
    expect(reset.json?.data.sending.defaultSignature).toBeNull();
    expect((await call('signatures/approve', { body: { accountId, name: 'Nope' } })).status).toBe(404);
  });

  it('sets and removes prices, and reads the tariff with its currency', async () => {
    // Act
    await call('tariffs/set', { body: { accountId, country: 'gb', price: 0.04 } });
    await call('tariffs/set', { body: { accountId, country: '*', price: 0.07 } });
    const both = await call('tariffs/get', { query: { accountId: String(accountId) } });
    await call('tariffs/set', { body: { accountId, country: '*', price: null } });
    const one = await call('tariffs/get', { query: { accountId: String(accountId) } });
    const negative = await call('tariffs/set', { body: { accountId, country: 'DE', price: -1 } });
    const text = await call('tariffs/set', { body: { accountId, country: 'DE', price: '1' } });

    // Assess
    expect(both.json?.data).toEqual({ currency: 'USD', tariff: { GB: 0.04, '*': 0.07 } });
    expect(one.json?.data).toEqual({ currency: 'USD', tariff: { GB: 0.04 } });
    expect([negative.status, text.status]).toEqual([400, 400]);
    expect((await service.runtime.accounts.getAccount(accountId)).sending.tariff).toEqual({ GB: 0.04 });
  });

  it('sets the moderation policy, refusing anything but none and all', async () => {
    // Act
    const all = await call('moderation/set', { body: { accountId, moderation: 'all' } });
    const bad = await call('moderation/set', { body: { accountId, moderation: 'some' } });
    const none = await call('moderation/set', { body: { accountId, moderation: 'none' } });

    // Assess
    expect(all.json?.data.sending.moderation).toBe('all');
    expect(bad.status).toBe(400);
    expect(bad.json?.error?.fields).toEqual({ moderation: ['moderation must be none or all'] });
    expect(none.json?.data.sending.moderation).toBe('none');
  });

  it('reads a message and the ambiguous ones', async () => {
    // Prepare
    const { key, id } = await service.account();
    await service.runtime.accounts.setPrice(id, '*', 0.05);
    const sent = (await service.api('Message/SendSmsMessage', key, { recipient: '447400123450', text: 'Read me' })).data;

    // Act
    const message = await call('messages/get', { query: { id: String(sent.messageId) } });
    const ambiguous = await call('messages/ambiguous');
    const unknown = await call('messages/get', { query: { id: '999999999' } });

    // Assess
    expect(message.json?.data).toMatchObject({ id: sent.messageId, accountId: id, campaignId: sent.campaignId, to: '447400123450', text: 'Read me' });
    expect(ambiguous.status).toBe(200);
    expect(Array.isArray(ambiguous.json?.data)).toBe(true);
    expect(unknown.status).toBe(404);
  });

  it('adds a webhook whose secret is shown once and kept out of the audit log, lists it without it, and removes it', async () => {
    // Prepare
    const secret = 'a-webhook-secret-of-32-characters';

    // Act
    const added = await call('webhooks/add', { body: { accountId, url: 'https://hooks.example.com/dlr', secret } });
    const audited = await latestAudit();
    const listed = await call('webhooks/list', { query: { accountId: String(accountId) } });
    const removed = await call('webhooks/remove', { body: { accountId, webhookId: added.json?.data.id } });
    const after = await call('webhooks/list', { query: { accountId: String(accountId) } });
    const again = await call('webhooks/remove', { body: { accountId, webhookId: added.json?.data.id } });

    // Assess
    expect(added.json?.data).toMatchObject({ accountId, url: 'https://hooks.example.com/dlr', secret });
    expect(audited).toMatchObject({ action: 'webhooks/add', target: { accountId, webhookId: added.json?.data.id }, input: { secret: '[redacted]' } });
    expect(JSON.stringify(audited)).not.toContain(secret);
    expect(listed.json?.data).toEqual([{ id: added.json?.data.id, accountId, url: 'https://hooks.example.com/dlr', createdAt: expect.any(String) }]);
    expect(removed.json?.data).toEqual({ removed: added.json?.data.id });
    expect(after.json?.data).toEqual([]);
    expect(again.status).toBe(404);
  });

  it('refuses a webhook to a private address or for an unknown account, and adds nothing', async () => {
    // Act
    const local = await call('webhooks/add', { body: { accountId, url: 'http://127.0.0.1:9/x' } });
    const unknown = await call('webhooks/add', { body: { accountId: 999999, url: 'https://hooks.example.com/dlr' } });

    // Assess
    expect(local.status).toBe(400);
    expect(local.json?.error?.fields).toHaveProperty('url');
    expect(unknown.status).toBe(404);
    expect((await call('webhooks/list', { query: { accountId: String(accountId) } })).json?.data).toEqual([]);
  });
});
