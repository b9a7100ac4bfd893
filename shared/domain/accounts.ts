import { createHash } from 'node:crypto';
import type { RandomInt } from './ids';

export const MAX_ACCOUNT_NAME_LENGTH = 100;

export interface Account {
  id: number;
  name: string;
  /** IANA zone; every time the account sends or reads is wall-clock time there. */
  timeZone: string;
  /** ISO 4217 code of the account's prices. */
  currency: string;
  status: AccountStatus;
  createdAt: string;
  /** Sending settings: sender signatures, prices and the moderation policy. */
  sending: SendingSettings;
  /** API requests per second (shared/domain/rate-limit.ts); null: the default, 0: unlimited. */
  rateLimit: number | null;
}

export type AccountStatus = 'active' | 'blocked';

/** `all`: every campaign waits for an administrator; `none`: campaigns go out at once. */
export type ModerationPolicy = 'none' | 'all';

export interface SendingSettings {
  /** Registered sender signatures by name; only approved ones may be used. */
  signatures: Record<string, { approved: boolean; createdAt: string }>;
  /** Used when a send names no `from`; must be an approved signature. */
  defaultSignature: string | null;
  /** Price of one segment by destination country (ISO 3166 alpha-2), `*` for any other. */
  tariff: Record<string, number>;
  moderation: ModerationPolicy;
}

export const EMPTY_SENDING_SETTINGS: SendingSettings = { signatures: {}, defaultSignature: null, tariff: {}, moderation: 'none' };

export interface ApiKey {
  keyId: string;
  accountId: number;
  /** The first characters of the key, so a person can tell keys apart. */
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export const DEFAULT_TIME_ZONE = 'UTC';
export const DEFAULT_CURRENCY = 'USD';
export const API_KEY_LENGTH = 40;
const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const KEY_PATTERN = new RegExp(`^[a-z0-9]{${API_KEY_LENGTH}}$`);
const PREFIX_LENGTH = 6;

/** A new API key: 40 lowercase alphanumerics, each drawn from `random` (a CSPRNG: about 206 bits). */
export function generateApiKey(random: RandomInt): string {
  let key = '';
  for (let i = 0; i < API_KEY_LENGTH; i++) key += KEY_ALPHABET[random(KEY_ALPHABET.length)];
  return key;
}

export function isApiKeyShaped(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/**
 * Keys are stored only as this digest. A fast hash is enough here: keys are random and
 * long, so there is no dictionary to try, unlike passwords.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function apiKeyPrefix(key: string): string {
  return key.slice(0, PREFIX_LENGTH);
}

export function isCurrencyCode(value: string): boolean {
  return /^[A-Z]{3}$/.test(value);
}
