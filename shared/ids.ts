import { randomBytes, randomInt } from 'node:crypto';
import { ulid } from 'ulid';
import type { NewId, RandomInt, RandomToken } from './domain/ids';

/** The production sources of the domain's ids and randomness (shared/domain/ids.ts). */
export const ulidAt: NewId = (at) => ulid(at.getTime());

export const cryptoRandomInt: RandomInt = (below) => randomInt(below);

export const cryptoToken: RandomToken = (bytes) => randomBytes(bytes).toString('base64url');
