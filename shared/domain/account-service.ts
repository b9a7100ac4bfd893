import {
  type Account,
  type AccountStatus,
  type ApiKey,
  apiKeyPrefix,
  DEFAULT_CURRENCY,
  DEFAULT_TIME_ZONE,
  EMPTY_SENDING_SETTINGS,
  generateApiKey,
  hashApiKey,
  isApiKeyShaped,
  isCurrencyCode,
  MAX_ACCOUNT_NAME_LENGTH,
  type ModerationPolicy,
  type SendingSettings,
} from './accounts';
import { AppError, ConflictError } from './errors';
import type { NewId, RandomInt } from './ids';
import type { IdSource } from './link-service';
import { isValidRateLimit, MAX_API_RATE_LIMIT } from './rate-limit';
import { isValidSignature } from './senders';
import { lengthProblem } from './text-limits';
import { type Clock, isValidTimeZone } from './time';

/** What account administration and authentication need from storage. */
export interface AccountStore {
  create(account: Account): Promise<void>;
  get(id: number): Promise<Account | undefined>;
  list(): Promise<Account[]>;
  update(id: number, changes: Partial<Pick<Account, 'name' | 'timeZone' | 'currency' | 'status' | 'sending' | 'rateLimit'>>): Promise<boolean>;
}

export interface ApiKeyStore {
  create(hash: string, apiKey: ApiKey): Promise<boolean>;
  findByHash(hash: string): Promise<ApiKey | undefined>;
  listByAccount(accountId: number): Promise<(ApiKey & { hash: string })[]>;
  revoke(hash: string, revokedAt: string): Promise<boolean>;
}

export interface AccountSettings {
  name: string;
  timeZone?: string;
  currency?: string;
}

/** How many unknown keys a process remembers (about 170 bytes each, under 2 MB in all). */
const MAX_UNKNOWN_KEYS = 10_000;

export class AccountService {
  readonly #cache = new Map<string, { account: Account; until: number }>();
  /** Hashes of keys that were looked up and found unknown or revoked, until when to trust that. */
  readonly #unknownKeys = new Map<string, number>();
  readonly #zones = new Map<number, { zone: string; until: number }>();

  constructor(
    private readonly deps: {
      accounts: AccountStore;
      apiKeys: ApiKeyStore;
      /** Account ids. */
      ids: IdSource;
      /** API key ids. */
      keyIds: NewId;
      /** Where the characters of a generated API key are drawn from. */
      random: RandomInt;
      clock: Clock;
      /** How long an authenticated key and its account are trusted without a read. */
      authCacheTtlMs: number;
    },
  ) {}

  async createAccount(settings: AccountSettings): Promise<Account> {
    const account: Account = {
      id: await this.deps.ids.next(),
      name: settings.name,
      timeZone: settings.timeZone ?? DEFAULT_TIME_ZONE,
      currency: settings.currency ?? DEFAULT_CURRENCY,
      status: 'active',
      createdAt: this.deps.clock().toISOString(),
      sending: EMPTY_SENDING_SETTINGS,
      rateLimit: null,
    };
    assertSettings(account);
    await this.deps.accounts.create(account);
    return account;
  }

  async getAccount(id: number): Promise<Account> {
    const account = await this.deps.accounts.get(id);
    if (!account) throw new AppError('notFound', `No account ${id}`);
    return account;
  }

  listAccounts(): Promise<Account[]> {
    return this.deps.accounts.list();
  }

  /** Changes the given settings; absent (undefined) ones stay. `rateLimit: null` goes back to the default. */
  async updateAccount(id: number, changes: Partial<AccountSettings> & { status?: AccountStatus; rateLimit?: number | null }): Promise<Account> {
    const current = await this.getAccount(id);
    const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    assertSettings({ ...current, ...given });
    if (!(await this.deps.accounts.update(id, changes))) throw new AppError('notFound', `No account ${id}`);
    return this.getAccount(id);
  }

  /** Registers a sender signature; it can be used once approved. */
  async addSignature(accountId: number, name: string): Promise<Account> {
    if (!isValidSignature(name)) {
      throw new AppError('invalid', 'A signature is 1–11 letters, digits, spaces, dots, dashes or underscores with a letter, or up to 15 digits');
    }
    return this.#changeSending(accountId, (sending) => {
      if (sending.signatures[name]) throw new AppError('invalid', `Signature ${name} is already registered`);
      return { ...sending, signatures: { ...sending.signatures, [name]: { approved: false, createdAt: this.deps.clock().toISOString() } } };
    });
  }

  approveSignature(accountId: number, name: string): Promise<Account> {
    return this.#changeSending(accountId, (sending) => {
      const signature = sending.signatures[name];
      if (!signature) throw new AppError('notFound', `Account ${accountId} has no signature ${name}`);
      return { ...sending, signatures: { ...sending.signatures, [name]: { ...signature, approved: true } } };
    });
  }

  /** Makes an approved signature the account's default; null returns to the service signature. */
  setDefaultSignature(accountId: number, name: string | null): Promise<Account> {
    return this.#changeSending(accountId, (sending) => {
      if (name !== null && !sending.signatures[name]?.approved) throw new AppError('invalid', `Signature ${name} is not approved`);
      return { ...sending, defaultSignature: name };
    });
  }

  /** Sets the price of one segment to a country (`*` for any other); null removes it. */
  async setPrice(accountId: number, country: string, price: number | null): Promise<Account> {
    const key = country === '*' ? '*' : country.toUpperCase();
    if (key !== '*' && !/^[A-Z]{2}$/.test(key)) throw new AppError('invalid', 'A country is an ISO 3166 alpha-2 code, or * for any other');
    if (price !== null && !(Number.isFinite(price) && price >= 0)) throw new AppError('invalid', 'A price is a number from 0');
    return this.#changeSending(accountId, (sending) => {
      const tariff = { ...sending.tariff };
      if (price === null) delete tariff[key];
      else tariff[key] = price;
      return { ...sending, tariff };
    });
  }

  async setModeration(accountId: number, moderation: ModerationPolicy): Promise<Account> {
    if (moderation !== 'none' && moderation !== 'all') throw new AppError('invalid', 'Moderation is none or all');
    return this.#changeSending(accountId, (sending) => ({ ...sending, moderation }));
  }

  /** Read, change, write: sending settings are edited by administrators, one at a time. */
  async #changeSending(accountId: number, change: (sending: SendingSettings) => SendingSettings): Promise<Account> {
    const account = await this.getAccount(accountId);
    const sending = change(account.sending);
    if (!(await this.deps.accounts.update(accountId, { sending }))) throw new AppError('notFound', `No account ${accountId}`);
    return { ...account, sending };
  }

  /**
   * Issues a key for the account and returns it in clear, the only time it exists so:
   * only its hash is stored. `fixedKey` lets scripts use a known key (DEMO_API_KEY).
   */
  async issueKey(accountId: number, fixedKey?: string): Promise<{ key: string; apiKey: ApiKey }> {
    await this.getAccount(accountId);
    const key = fixedKey ?? generateApiKey(this.deps.random);
    if (!isApiKeyShaped(key)) throw new AppError('invalid', 'An API key is 40 lowercase letters and digits');
    const now = this.deps.clock();
    const apiKey: ApiKey = {
      keyId: this.deps.keyIds(now),
      accountId,
      prefix: apiKeyPrefix(key),
      createdAt: now.toISOString(),
      revokedAt: null,
    };
    const hash = hashApiKey(key);
    if (!(await this.deps.apiKeys.create(hash, apiKey))) throw new AppError('invalid', 'That API key is already in use');
    this.#unknownKeys.delete(hash);
    return { key, apiKey };
  }

  async listKeys(accountId: number): Promise<ApiKey[]> {
    return (await this.deps.apiKeys.listByAccount(accountId)).map(({ hash: _hash, ...apiKey }) => apiKey);
  }

  async revokeKey(accountId: number, keyId: string): Promise<void> {
    const found = (await this.deps.apiKeys.listByAccount(accountId)).find((k) => k.keyId === keyId);
    if (!found) throw new AppError('notFound', `Account ${accountId} has no key ${keyId}`);
    if (!(await this.deps.apiKeys.revoke(found.hash, this.deps.clock().toISOString()))) {
      throw new ConflictError(`Key ${keyId} is already revoked`);
    }
  }

  /** Whether a key is already stored (for DEMO_API_KEY on restarts). */
  async keyExists(key: string): Promise<boolean> {
    return (await this.deps.apiKeys.findByHash(hashApiKey(key))) !== undefined;
  }

  /**
   * Time zones of accounts, for bucketing clicks. Kept a minute per container: a zone
   * change applies to clicks from then on.
   */
  async zonesOf(accountIds: number[]): Promise<Map<number, string>> {
    const now = this.deps.clock().getTime();
    const zones = new Map<number, string>();
    await Promise.all(
      accountIds.map(async (id) => {
        let entry = this.#zones.get(id);
        if (!entry || entry.until <= now) {
          const account = await this.deps.accounts.get(id);
          entry = { zone: account?.timeZone ?? 'UTC', until: now + 60_000 };
          this.#zones.set(id, entry);
        }
        zones.set(id, entry.zone);
      }),
    );
    return zones;
  }

  /**
   * The account behind an API key. Unknown and revoked keys fail alike (code 8); a
   * blocked account fails with code 14. A container keeps the answer for a few seconds,
   * so a revocation or block takes effect within authCacheTtlMs. It keeps "no such key"
   * as long, so a repeated unknown key costs no read; a key that cannot exist (not 40
   * lowercase letters and digits) is refused before any read.
   */
  async authenticate(key: unknown): Promise<Account> {
    if (typeof key !== 'string' || key === '') throw new AppError('unauthenticated', 'The apiKey parameter is required');
    if (!isApiKeyShaped(key)) throw new AppError('unauthenticated', 'Invalid API key');
    const hash = hashApiKey(key);
    const now = this.deps.clock().getTime();
    let account = this.#cache.get(hash);
    if (!account || account.until <= now) {
      if ((this.#unknownKeys.get(hash) ?? 0) > now) throw new AppError('unauthenticated', 'Invalid API key');
      const found = await this.#lookup(hash, now);
      account = { account: found, until: now + this.deps.authCacheTtlMs };
      if (this.deps.authCacheTtlMs > 0) this.#cache.set(hash, account);
    }
    if (account.account.status === 'blocked') throw new AppError('accountBlocked', 'The account is blocked');
    return account.account;
  }

  async #lookup(hash: string, now: number): Promise<Account> {
    const apiKey = await this.deps.apiKeys.findByHash(hash);
    const account = apiKey && apiKey.revokedAt === null ? await this.deps.accounts.get(apiKey.accountId) : undefined;
    if (!account) {
      this.#rememberUnknown(hash, now);
      throw new AppError('unauthenticated', 'Invalid API key');
    }
    this.#unknownKeys.delete(hash);
    return account;
  }

  /**
   * Bounded: past MAX_UNKNOWN_KEYS the oldest entry goes, so a flood of distinct random
   * keys costs one read each (as without this) and a fixed amount of memory.
   */
  #rememberUnknown(hash: string, now: number): void {
    if (this.deps.authCacheTtlMs <= 0) return;
    this.#unknownKeys.delete(hash);
    this.#unknownKeys.set(hash, now + this.deps.authCacheTtlMs);
    if (this.#unknownKeys.size <= MAX_UNKNOWN_KEYS) return;
    const oldest = this.#unknownKeys.keys().next();
    if (!oldest.done) this.#unknownKeys.delete(oldest.value);
  }
}

function assertSettings(account: Pick<Account, 'name' | 'timeZone' | 'currency' | 'rateLimit'>): void {
  if (account.name.trim() === '') throw new AppError('invalid', 'An account needs a name');
  const nameProblem = lengthProblem('An account name', account.name, MAX_ACCOUNT_NAME_LENGTH);
  if (nameProblem) throw new AppError('invalid', nameProblem);
  if (account.rateLimit !== null && !isValidRateLimit(account.rateLimit)) {
    throw new AppError('invalid', `A rate limit is a whole number of requests per second from 0 (unlimited) to ${MAX_API_RATE_LIMIT}`);
  }
  if (!isValidTimeZone(account.timeZone)) throw new AppError('invalid', `Unknown IANA time zone: ${account.timeZone}`);
  if (!isCurrencyCode(account.currency)) throw new AppError('invalid', `Not an ISO 4217 currency code: ${account.currency}`);
}
