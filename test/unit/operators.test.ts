import { createHash } from 'node:crypto';
import { isApiKeyShaped } from '../../shared/domain/accounts';
import { type AuditEntry, AuditLog, type AuditStore, withoutSecrets } from '../../shared/domain/audit';
import { isOperatorTokenShaped, OperatorService, type OperatorToken, type OperatorTokenStore } from '../../shared/domain/operators';

/** Tokens by hash, in a map, as the repository keeps them. */
class MemoryTokens implements OperatorTokenStore {
  readonly items = new Map<string, OperatorToken>();

  async create(hash: string, token: OperatorToken): Promise<boolean> {
    if (this.items.has(hash)) return false;
    this.items.set(hash, { ...token });
    return true;
  }
  async findByHash(hash: string): Promise<OperatorToken | undefined> {
    const token = this.items.get(hash);
    return token && { ...token };
  }
  async list(): Promise<(OperatorToken & { hash: string })[]> {
    return [...this.items].map(([hash, token]) => ({ ...token, hash }));
  }
  async revoke(hash: string, revokedAt: string): Promise<boolean> {
    const token = this.items.get(hash);
    if (!token || token.revokedAt !== null) return false;
    token.revokedAt = revokedAt;
    return true;
  }
}

const at = new Date('2026-11-24T10:00:00Z');

function service() {
  const tokens = new MemoryTokens();
  let n = 0;
  let draws = 0;
  const operators = new OperatorService({ tokens, tokenIds: () => `TOKEN${++n}`, random: (below) => draws++ % below, clock: () => at });
  return { operators, tokens };
}

describe('OperatorService', () => {
  it('issues op_ and 40 lowercase letters and digits, a shape no API key has, and stores only its hash', async () => {
    // Prepare
    const { operators, tokens } = service();

    // Act
    const { token, operatorToken } = await operators.issue('  Alice ');

    // Assess
    expect(token).toMatch(/^op_[a-z0-9]{40}$/);
    expect(isOperatorTokenShaped(token)).toBe(true);
    expect(isApiKeyShaped(token)).toBe(false);
    expect(isOperatorTokenShaped(token.slice(3))).toBe(false);
    expect(operatorToken).toEqual({ tokenId: 'TOKEN1', name: 'Alice', prefix: token.slice(3, 9), createdAt: at.toISOString(), revokedAt: null });
    expect([...tokens.items.keys()]).toEqual([createHash('sha256').update(token).digest('hex')]);
    expect(JSON.stringify([...tokens.items.values()])).not.toContain(token);
  });

  it('refuses a blank or overlong name', async () => {
    const { operators } = service();
    await expect(operators.issue(' ')).rejects.toMatchObject({ kind: 'invalid' });
    await expect(operators.issue('x'.repeat(101))).rejects.toMatchObject({ kind: 'invalid' });
  });

  it.each([
    ['no header', undefined, 'An operator token is required: send it as Authorization: Bearer <token>'],
    ['another scheme', 'Basic b3A6eA==', 'Send the operator token as Authorization: Bearer <token>'],
    ['an API key', `Bearer ${'a'.repeat(40)}`, 'An account API key is not an operator token'],
    ['a token of the wrong shape', 'Bearer op_short', 'Invalid operator token'],
    ['an unknown token', `Bearer op_${'b'.repeat(40)}`, 'Invalid operator token'],
  ])('refuses %s as unauthenticated', async (_case, header, message) => {
    const { operators } = service();
    await operators.issue('Alice');
    await expect(operators.authenticate(header)).rejects.toMatchObject({ kind: 'unauthenticated', message });
  });

  it('authenticates a Bearer token (any letter case of the scheme) until it is revoked, then refuses it', async () => {
    // Prepare
    const { operators } = service();
    const { token, operatorToken } = await operators.issue('Alice');

    // Act
    const before = await operators.authenticate(`bearer ${token}`);
    const revoked = await operators.revoke(operatorToken.tokenId);

    // Assess
    expect(before).toEqual({ tokenId: 'TOKEN1', name: 'Alice' });
    expect(revoked.revokedAt).toBe(at.toISOString());
    await expect(operators.authenticate(`Bearer ${token}`)).rejects.toMatchObject({ kind: 'unauthenticated', message: 'Invalid operator token' });
    await expect(operators.revoke(operatorToken.tokenId)).rejects.toMatchObject({ name: 'ConflictError', kind: 'invalid' });
    await expect(operators.revoke('nope')).rejects.toMatchObject({ kind: 'notFound' });
    expect(await operators.list()).toEqual([{ ...operatorToken, revokedAt: at.toISOString() }]);
  });
});

describe('AuditLog', () => {
  it('stamps entries with an id and the time, and keeps a page within 1 to 100', async () => {
    // Prepare
    const recorded: AuditEntry[] = [];
    const limits: number[] = [];
    const store: AuditStore = {
      record: async (entry) => void recorded.push(entry),
      list: async (limit) => {
        limits.push(limit);
        return [];
      },
    };
    const audit = new AuditLog({ store, ids: () => 'ENTRY1', clock: () => at });

    // Act
    const entry = await audit.record({
      operator: { tokenId: 'T', name: 'A' },
      action: 'accounts/block',
      target: { id: 1 },
      input: { id: 1 },
      outcome: 'ok',
    });
    await audit.list(0);
    await audit.list(500);

    // Assess
    expect(entry).toEqual({
      id: 'ENTRY1',
      at: at.toISOString(),
      operator: { tokenId: 'T', name: 'A' },
      action: 'accounts/block',
      target: { id: 1 },
      input: { id: 1 },
      outcome: 'ok',
    });
    expect(recorded).toEqual([entry]);
    expect(limits).toEqual([1, 100]);
  });

  it('redacts the secrets of an input that has them', () => {
    expect(withoutSecrets({ url: 'u', secret: 's' }, ['secret'])).toEqual({ url: 'u', secret: '[redacted]' });
    expect(withoutSecrets({ url: 'u' }, ['secret'])).toEqual({ url: 'u' });
  });
});
