import { generateApiKey, hashApiKey, isApiKeyShaped } from './accounts';
import { AppError, ConflictError } from './errors';
import type { NewId, RandomInt } from './ids';
import { lengthProblem } from './text-limits';
import type { Clock } from './time';

/**
 * Operator tokens: what the operator API (/admin/) takes as `Authorization: Bearer`. An
 * operator token is `op_` and 40 lowercase letters and digits, so it can never pass for an
 * API key (which has no `_`) nor an API key for it; stored, like API keys, only as a hash.
 */
export interface OperatorToken {
  tokenId: string;
  /** Who or what holds it: shown in the audit log beside its id. */
  name: string;
  /** The first characters after `op_`, so a person can tell tokens apart. */
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

/** Who made a request of the operator API. */
export interface Operator {
  tokenId: string;
  name: string;
}

export interface OperatorTokenStore {
  /** Stores a token by its hash; false when that hash is already stored. */
  create(hash: string, token: OperatorToken): Promise<boolean>;
  findByHash(hash: string): Promise<OperatorToken | undefined>;
  list(): Promise<(OperatorToken & { hash: string })[]>;
  /** False when it is unknown or already revoked. */
  revoke(hash: string, revokedAt: string): Promise<boolean>;
}

export const OPERATOR_TOKEN_PREFIX = 'op_';
export const MAX_OPERATOR_NAME_LENGTH = 100;
const TOKEN_PATTERN = /^op_[a-z0-9]{40}$/;
const PREFIX_LENGTH = 6;

export function isOperatorTokenShaped(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

export class OperatorService {
  constructor(
    private readonly deps: {
      tokens: OperatorTokenStore;
      tokenIds: NewId;
      random: RandomInt;
      clock: Clock;
    },
  ) {}

  /** A new token for `name`, in clear: the only time it exists so (only its hash is stored). */
  async issue(name: string): Promise<{ token: string; operatorToken: OperatorToken }> {
    const trimmed = name.trim();
    if (trimmed === '') throw new AppError('invalid', 'An operator token needs a name');
    const problem = lengthProblem('An operator name', trimmed, MAX_OPERATOR_NAME_LENGTH);
    if (problem) throw new AppError('invalid', problem);
    const token = `${OPERATOR_TOKEN_PREFIX}${generateApiKey(this.deps.random)}`;
    const now = this.deps.clock();
    const operatorToken: OperatorToken = {
      tokenId: this.deps.tokenIds(now),
      name: trimmed,
      prefix: token.slice(OPERATOR_TOKEN_PREFIX.length, OPERATOR_TOKEN_PREFIX.length + PREFIX_LENGTH),
      createdAt: now.toISOString(),
      revokedAt: null,
    };
    if (!(await this.deps.tokens.create(hashApiKey(token), operatorToken))) throw new Error('A generated operator token collided with a stored one');
    return { token, operatorToken };
  }

  async list(): Promise<OperatorToken[]> {
    return (await this.deps.tokens.list()).map(({ hash: _hash, ...token }) => token);
  }

  async revoke(tokenId: string): Promise<OperatorToken> {
    const found = (await this.deps.tokens.list()).find((token) => token.tokenId === tokenId);
    if (!found) throw new AppError('notFound', `No operator token ${tokenId}`);
    const revokedAt = this.deps.clock().toISOString();
    if (!(await this.deps.tokens.revoke(found.hash, revokedAt))) throw new ConflictError(`Operator token ${tokenId} is already revoked`);
    const { hash: _hash, ...token } = found;
    return { ...token, revokedAt };
  }

  /**
   * The operator behind an `Authorization` header. No cache: a revocation takes effect on
   * the next request (operators make few). An account API key is named as such, so whoever
   * pasted one learns why it does not work here.
   */
  async authenticate(authorization: string | undefined): Promise<Operator> {
    if (authorization === undefined || authorization.trim() === '') {
      throw new AppError('unauthenticated', 'An operator token is required: send it as Authorization: Bearer <token>');
    }
    const match = /^Bearer +(\S+)\s*$/i.exec(authorization.trim());
    if (!match?.[1]) throw new AppError('unauthenticated', 'Send the operator token as Authorization: Bearer <token>');
    const given = match[1];
    if (isApiKeyShaped(given)) throw new AppError('unauthenticated', 'An account API key is not an operator token');
    if (!isOperatorTokenShaped(given)) throw new AppError('unauthenticated', 'Invalid operator token');
    const token = await this.deps.tokens.findByHash(hashApiKey(given));
    if (!token || token.revokedAt !== null) throw new AppError('unauthenticated', 'Invalid operator token');
    return { tokenId: token.tokenId, name: token.name };
  }
}
