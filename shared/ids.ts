import { createHash, randomBytes, randomInt } from 'node:crypto';
import { ulid } from 'ulid';
import type { KeyedId, NewId, RandomInt, RandomToken } from './domain/ids';
import type { Clock } from './domain/time';

/** The production sources of the domain's ids and randomness (shared/domain/ids.ts). */
export const ulidAt: NewId = (at) => ulid(at.getTime());

export const cryptoRandomInt: RandomInt = (below) => randomInt(below);

export const cryptoToken: RandomToken = (bytes) => randomBytes(bytes).toString('base64url');

/** A ULID whose 80 random bits are the first bytes of the key's SHA-256, fed to ulid as its random source. */
export const keyedUlid: KeyedId = (at, key) => {
  const digest = createHash('sha256').update(key).digest();
  let next = 0;
  // ulid draws one Crockford character (5 bits) per call from a number in [0, 1).
  return ulid(at.getTime(), () => (digest[next++ % digest.length] ?? 0) / 256);
};

/** The production clock; the domain reads time only through a Clock it is given. */
export const systemClock: Clock = () => new Date();
