import { createHmac } from 'node:crypto';

/**
 * Short-link codes are a keyed permutation of link ids, so a code is unique by
 * construction (no uniqueness retry loop), decodes back to its id (one GetItem on a
 * redirect), and says nothing about its neighbours' codes without the secret key.
 *
 * Ids fill the 4-character space first, then 5 characters, and so on: id n maps to the
 * (n-1)-th slot of the first tier with room. Within a tier of 36^L codes a Feistel network
 * over the next even bit width, with cycle-walking back into range, is the permutation.
 */

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const RADIX = ALPHABET.length;
export const MIN_CODE_LENGTH = 4;
/** 36^10 is still below 2^53, so plain numbers stay exact. */
export const MAX_CODE_LENGTH = 10;
const ROUNDS = 8;
const CODE_PATTERN = new RegExp(`^[0-9a-z]{${MIN_CODE_LENGTH},${MAX_CODE_LENGTH}}$`);

interface Tier {
  length: number;
  offset: number; // ids before this tier
  size: number; // 36^length
  halfBits: number;
}

const TIERS: Tier[] = (() => {
  const tiers: Tier[] = [];
  let offset = 0;
  for (let length = MIN_CODE_LENGTH; length <= MAX_CODE_LENGTH; length++) {
    const size = RADIX ** length;
    const halfBits = Math.ceil(Math.ceil(Math.log2(size)) / 2);
    tiers.push({ length, offset, size, halfBits });
    offset += size;
  }
  return tiers;
})();

export function isCodeShaped(code: string): boolean {
  return CODE_PATTERN.test(code);
}

export class LinkCodec {
  /** Two 32-bit round keys per (tier, round), derived once from the secret. */
  readonly #roundKeys: Map<number, Uint32Array>;

  constructor(secret: string) {
    if (secret.length < 32) throw new Error('The link code secret must have at least 32 characters');
    this.#roundKeys = new Map(
      TIERS.map((tier) => {
        const mac = createHmac('sha256', secret).update(`link-code:${tier.length}`).digest();
        const keys = new Uint32Array(ROUNDS * 2);
        for (let i = 0; i < keys.length; i++) keys[i] = mac.readUInt32BE((i * 4) % 32) ^ Math.imul(i + 1, 0x9e3779b9);
        return [tier.length, keys];
      }),
    );
  }

  encode(id: number): string {
    if (!Number.isSafeInteger(id) || id < 1) throw new RangeError(`Link id out of range: ${id}`);
    const slot = id - 1;
    const tier = TIERS.find((t) => slot < t.offset + t.size);
    if (!tier) throw new RangeError(`Link id beyond the code space: ${id}`);
    const value = this.#walk(tier, slot - tier.offset, (x) => this.#forward(tier, x));
    return value.toString(RADIX).padStart(tier.length, '0');
  }

  /** The id a code stands for, or undefined when the string cannot be a code. */
  decode(code: string): number | undefined {
    if (!isCodeShaped(code)) return undefined;
    const tier = TIERS.find((t) => t.length === code.length);
    if (!tier) return undefined;
    const value = parseInt(code, RADIX);
    return tier.offset + this.#walk(tier, value, (x) => this.#backward(tier, x)) + 1;
  }

  /** Cycle-walking: apply the permutation until the value lands inside the tier. */
  #walk(tier: Tier, value: number, step: (x: number) => number): number {
    let x = step(value);
    while (x >= tier.size) x = step(x);
    return x;
  }

  #forward(tier: Tier, x: number): number {
    const mod = 2 ** tier.halfBits;
    let left = Math.floor(x / mod);
    let right = x % mod;
    for (let round = 0; round < ROUNDS; round++) {
      const next = (left ^ this.#round(tier, round, right)) >>> 0;
      left = right;
      right = next % mod;
    }
    return left * mod + right;
  }

  #backward(tier: Tier, x: number): number {
    const mod = 2 ** tier.halfBits;
    let left = Math.floor(x / mod);
    let right = x % mod;
    for (let round = ROUNDS - 1; round >= 0; round--) {
      const previous = (right ^ this.#round(tier, round, left)) >>> 0;
      right = left;
      left = previous % mod;
    }
    return left * mod + right;
  }

  /**
   * The round function: a keyed 32-bit avalanche mix (murmur3's finaliser constants).
   * A MAC per round would cost microseconds on the redirect path; the secret round keys
   * are what keep codes unguessable.
   */
  #round(tier: Tier, round: number, half: number): number {
    // biome-ignore-start lint/style/noNonNullAssertion: the constructor made ROUNDS × 2 keys for every tier; no check on the redirect path.
    const keys = this.#roundKeys.get(tier.length)!;
    let h = Math.imul(half ^ keys[round * 2]!, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h ^ keys[round * 2 + 1]!, 0xc2b2ae35);
    // biome-ignore-end lint/style/noNonNullAssertion: end of the range above
    h ^= h >>> 16;
    return (h >>> 0) % 2 ** tier.halfBits;
  }
}
