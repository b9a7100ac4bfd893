import type { Account } from './accounts';
import { AppError } from './errors';
import type { Clock } from './time';

/** The default requests per second of an account (API_RATE_LIMIT); 0 means unlimited. */
export const DEFAULT_API_RATE_LIMIT = 100;
/** An account may send this many seconds' worth of requests at once after a pause. */
export const BURST_SECONDS = 2;
/** Above this an account is better left unlimited (0): the process could not serve it anyway. */
export const MAX_API_RATE_LIMIT = 1_000_000;

export function isValidRateLimit(perSecond: number): boolean {
  return Number.isInteger(perSecond) && perSecond >= 0 && perSecond <= MAX_API_RATE_LIMIT;
}

interface Bucket {
  tokens: number;
  /** When `tokens` was last worked out, epoch milliseconds. */
  at: number;
}

/**
 * Per-account token buckets: each account may make `perSecond` requests a second, and up
 * to `BURST_SECONDS` times that at once after a pause (a full bucket). The limit is the
 * account's own (`rateLimit`) or the default; 0 means unlimited and keeps no state.
 *
 * Memory is bounded: the buckets are kept in order of use and, past `maxAccounts`, the
 * least recently used goes. A bucket goes back to full after `BURST_SECONDS` idle, so
 * forgetting one only matters for an account that was busy within the last seconds
 * while `maxAccounts` others were busier; it then gets a fresh (full) bucket.
 */
export class RateLimiter {
  readonly #buckets = new Map<number, Bucket>();

  constructor(
    private readonly deps: {
      clock: Clock;
      /** Requests per second for accounts without a limit of their own; 0: unlimited. */
      defaultPerSecond: number;
      /** Buckets kept at most (about 120 bytes each). */
      maxAccounts?: number;
    },
  ) {}

  /** The requests per second that apply to the account; 0: unlimited. */
  limitOf(account: Pick<Account, 'rateLimit'>): number {
    return account.rateLimit ?? this.deps.defaultPerSecond;
  }

  /** Takes one request from the account's bucket, or refuses it (code 30) when the bucket is empty. */
  admit(account: Pick<Account, 'id' | 'rateLimit'>): void {
    const perSecond = this.limitOf(account);
    if (perSecond <= 0) return;
    const burst = perSecond * BURST_SECONDS;
    const now = this.deps.clock().getTime();
    const bucket = this.#buckets.get(account.id) ?? { tokens: burst, at: now };
    // A clock that steps back adds nothing (and takes nothing away).
    bucket.tokens = Math.min(burst, bucket.tokens + (Math.max(0, now - bucket.at) * perSecond) / 1000);
    bucket.at = now;
    this.#touch(account.id, bucket);
    if (bucket.tokens < 1) {
      const waitSeconds = Math.ceil(((1 - bucket.tokens) / perSecond) * 10) / 10;
      throw new AppError(
        'rateLimited',
        `Rate limit exceeded: this account may make ${perSecond} requests a second (${burst} at once); try again in ${waitSeconds.toFixed(1)} s`,
      );
    }
    bucket.tokens -= 1;
  }

  /** How many accounts' buckets are kept. */
  get size(): number {
    return this.#buckets.size;
  }

  /** Moves the bucket to the back (most recently used); drops the front one past the bound. */
  #touch(accountId: number, bucket: Bucket): void {
    this.#buckets.delete(accountId);
    this.#buckets.set(accountId, bucket);
    if (this.#buckets.size > (this.deps.maxAccounts ?? 10_000)) {
      const oldest = this.#buckets.keys().next();
      if (!oldest.done) this.#buckets.delete(oldest.value);
    }
  }
}
