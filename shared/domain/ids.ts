/**
 * Where new identifiers and random values come from. The domain says what it needs and
 * the composition roots supply it (shared/ids.ts: ULIDs and node:crypto); tests supply
 * predictable ones.
 */

/** A new unique id that sorts by the instant given (a ULID in production). */
export type NewId = (at: Date) => string;

/** A uniformly random whole number from 0 up to, not including, `below` (a CSPRNG in production). */
export type RandomInt = (below: number) => number;

/** `bytes` random bytes as base64url text without padding (a CSPRNG in production). */
export type RandomToken = (bytes: number) => string;

/**
 * The id of something that must exist once per key: the same key always gives the same
 * id, which sorts by the instant given (a ULID whose random part is drawn from a hash of
 * the key, in production), so a second attempt to make it finds the first.
 */
export type KeyedId = (at: Date, key: string) => string;
