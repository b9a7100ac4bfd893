import { startService, type TestService } from '../support/local-service';
import { adminCall, operatorToken } from '../support/operators';

/** The operator API (/admin/) over HTTP on the local server: its auth and transport, and the account operations. */
describe('operator API: auth, transport and accounts', () => {
  let service: TestService;
  let token: string;
  let tokenId: string;

  beforeAll(async () => {
    service = await startService();
    ({ token, tokenId } = await operatorToken(service, 'Alice'));
  });
  afterAll(() => service.close());

  const call = (path: string, options?: Parameters<typeof adminCall>[3], bearer: string | null = token) =>
    adminCall(service.baseUrl, bearer, path, options);
  const auditEntries = async () => (await call('audit/list')).json?.data as any[];

  it('answers whoami with the token id and its name', async () => {
    // Act
    const answer = await call('operators/whoami');

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.json).toEqual({ data: { tokenId, name: 'Alice' } });
  });

  describe('authentication', () => {
    it('refuses a request without a token with 401', async () => {
      const answer = await call('operators/whoami', {}, null);
      expect(answer.status).toBe(401);
      expect(answer.json?.error).toEqual({ code: 'unauthenticated', message: expect.stringContaining('Authorization: Bearer') });
    });

    it('refuses an unknown token with 401', async () => {
      const answer = await call('accounts/list', {}, `op_${'x'.repeat(40)}`);
      expect(answer.status).toBe(401);
      expect(answer.json?.error).toEqual({ code: 'unauthenticated', message: 'Invalid operator token' });
    });

    it('refuses a revoked token with 401 from the next request on', async () => {
      // Prepare
      const revoked = await operatorToken(service, 'Bob');
      expect((await call('operators/whoami', {}, revoked.token)).status).toBe(200);

      // Act
      await import('../../shared/admin/services').then(({ adminServices }) => adminServices(service.runtime).operators.revoke(revoked.tokenId));
      const answer = await call('operators/whoami', {}, revoked.token);

      // Assess
      expect(answer.status).toBe(401);
      expect(answer.json?.error?.message).toBe('Invalid operator token');
    });

    it('refuses an account API key with 401, saying it is not an operator token', async () => {
      // Prepare
      const { key } = await service.account();

      // Act
      const answer = await call('accounts/list', {}, key);

      // Assess
      expect(answer.status).toBe(401);
      expect(answer.json?.error).toEqual({ code: 'unauthenticated', message: 'An account API key is not an operator token' });
    });

    it('refuses a token given otherwise than as a Bearer header (query parameter)', async () => {
      const answer = await call('operators/whoami', { query: { token } }, null);
      expect(answer.status).toBe(401);
    });

    it('answers an operator token used as apiKey on /service with code 8', async () => {
      // Act
      const answer = await service.call('Link/List', token);

      // Assess
      expect(answer.status).toBe(200);
      expect(answer.envelope).toMatchObject({ code: 8, data: null });
    });
  });

  describe('transport', () => {
    it('answers an unknown path under /admin/ with 404 JSON', async () => {
      const answer = await call('accounts/frobnicate');
      expect(answer.status).toBe(404);
      expect(answer.json?.error?.code).toBe('notFound');
    });

    it('answers the wrong method with 405 and allow', async () => {
      const get = await call('accounts/create');
      const post = await call('accounts/list', { body: {} });
      expect([get.status, get.headers.get('allow'), post.status, post.headers.get('allow')]).toEqual([405, 'POST', 405, 'GET']);
      expect(get.json?.error?.code).toBe('methodNotAllowed');
    });

    it('answers a body that is not JSON with 415, and writes nothing', async () => {
      // Prepare
      const before = (await service.runtime.accounts.listAccounts()).length;

      // Act
      const answer = await call('accounts/create', { raw: 'name=Form', contentType: 'application/x-www-form-urlencoded' });

      // Assess
      expect(answer.status).toBe(415);
      expect(answer.json?.error?.code).toBe('unsupportedMediaType');
      expect(await service.runtime.accounts.listAccounts()).toHaveLength(before);
    });

    it('answers a body over 16 KiB with 413', async () => {
      const answer = await call('accounts/create', { body: { name: 'x'.repeat(20_000) } });
      expect(answer.status).toBe(413);
      expect(answer.json?.error?.code).toBe('tooLarge');
    });

    it.each([
      ['malformed JSON', '{"name": ', 'The request body is not valid JSON'],
      ['a JSON array', '[1]', 'The request body must be a JSON object'],
      ['bytes that are not UTF-8', Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), 'The request body is not valid UTF-8'],
    ])('answers %s with 400 and writes nothing', async (_case, raw, message) => {
      // Prepare
      const before = (await auditEntries()).length;
      const accounts = (await service.runtime.accounts.listAccounts()).length;

      // Act
      const answer = await call('accounts/create', { raw });

      // Assess
      expect(answer.status).toBe(400);
      expect(answer.json?.error).toMatchObject({ code: 'invalid', message });
      expect(await service.runtime.accounts.listAccounts()).toHaveLength(accounts);
      expect(await auditEntries()).toHaveLength(before);
    });

    it.each([
      ['a missing name', {}, 'name'],
      ['a name that is not text', { name: 5 }, 'name'],
      ['an unknown field', { name: 'A', owner: 'x' }, 'owner'],
      ['a time zone that does not exist', { name: 'A', timeZone: 'Mars/Olympus' }, undefined],
    ])('answers accounts/create with %s with 400, naming the field, and writes nothing', async (_case, body, field) => {
      // Prepare
      const accounts = (await service.runtime.accounts.listAccounts()).length;

      // Act
      const answer = await call('accounts/create', { body });

      // Assess
      expect(answer.status).toBe(400);
      expect(answer.json?.error?.code).toBe('invalid');
      if (field) expect(Object.keys(answer.json?.error?.fields ?? {})).toContain(field);
      expect(await service.runtime.accounts.listAccounts()).toHaveLength(accounts);
    });

    it('answers bad query parameters with 400', async () => {
      const answer = await call('accounts/get', { query: { id: 'abc' } });
      expect(answer.status).toBe(400);
      expect(answer.json?.error).toMatchObject({ code: 'invalid', fields: { id: ['id must be a whole number from 1'] } });
    });
  });

  describe('accounts', () => {
    it('creates, lists, gets, updates, blocks and unblocks an account', async () => {
      // Act
      const created = await call('accounts/create', { body: { name: 'Shop', timeZone: 'Asia/Tashkent', currency: 'uzs' } });
      const id = created.json?.data.id as number;
      const listed = await call('accounts/list');
      const got = await call('accounts/get', { query: { id: String(id) } });
      const updated = await call('accounts/update', { body: { id, name: 'Shop 2', rateLimit: 5 } });
      const blocked = await call('accounts/block', { body: { id } });
      const unblocked = await call('accounts/unblock', { body: { id } });
      const reset = await call('accounts/update', { body: { id, rateLimit: null } });

      // Assess
      expect(created.json?.data).toMatchObject({ name: 'Shop', timeZone: 'Asia/Tashkent', currency: 'UZS', status: 'active', rateLimit: null });
      expect(listed.json?.data).toContainEqual(created.json?.data);
      expect(got.json?.data).toEqual(created.json?.data);
      expect(updated.json?.data).toMatchObject({ id, name: 'Shop 2', rateLimit: 5 });
      expect(blocked.json?.data.status).toBe('blocked');
      expect(unblocked.json?.data.status).toBe('active');
      expect(reset.json?.data.rateLimit).toBeNull();
      expect((await service.runtime.accounts.getAccount(id)).name).toBe('Shop 2');
    });

    it('answers an unknown account with 404', async () => {
      expect((await call('accounts/get', { query: { id: '999999' } })).status).toBe(404);
      expect((await call('accounts/block', { body: { id: 999999 } })).status).toBe(404);
    });

    it('logs every change as one structured line with who, what, target and outcome', async () => {
      // Prepare
      const lines: string[] = [];
      const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        lines.push(String(chunk));
        return true;
      });

      // Act
      let id: number;
      try {
        id = (await call('accounts/create', { body: { name: 'Logged' } })).json?.data.id;
      } finally {
        write.mockRestore();
      }

      // Assess
      const logged = lines
        .flatMap((line) => line.split('\n'))
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line));
      expect(logged).toContainEqual(
        expect.objectContaining({
          level: 'INFO',
          message: 'Operator change',
          audit: expect.objectContaining({
            operator: { tokenId, name: 'Alice' },
            action: 'accounts/create',
            target: { id },
            input: { name: 'Logged' },
            outcome: 'ok',
          }),
        }),
      );
    });

    it('records every change as an audit entry with who, what, target and outcome, newest first', async () => {
      // Act
      const created = await call('accounts/create', { body: { name: 'Audited' } });
      const id = created.json?.data.id as number;
      await call('accounts/block', { body: { id } });
      await call('accounts/block', { body: { id: 999998 } });
      const entries = await auditEntries();

      // Assess
      expect(entries.slice(0, 3)).toEqual([
        expect.objectContaining({ operator: { tokenId, name: 'Alice' }, action: 'accounts/block', target: { id: 999998 }, outcome: 'notFound' }),
        expect.objectContaining({ operator: { tokenId, name: 'Alice' }, action: 'accounts/block', target: { id }, input: { id }, outcome: 'ok' }),
        expect.objectContaining({ action: 'accounts/create', target: { id }, input: { name: 'Audited' }, outcome: 'ok', at: expect.any(String) }),
      ]);
      const older = await call('audit/list', { query: { limit: '1', before: entries[0].id } });
      expect(older.json?.data).toEqual([entries[1]]);
    });
  });
});
