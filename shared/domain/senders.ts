import type { Account, SendingSettings } from './accounts';
import { AppError } from './errors';

/** The longest signature: a numeric sender of 15 digits. */
export const MAX_SIGNATURE_LENGTH = 15;

/**
 * Sender signatures: alphanumeric names of 1–11 characters (letters, digits, space,
 * `.`, `-`, `_`, with at least one letter) or numeric senders of up to 15 digits, as
 * networks accept them.
 */
export function isValidSignature(name: string): boolean {
  return (/^[A-Za-z0-9 ._-]{1,11}$/.test(name) && /[A-Za-z]/.test(name)) || /^\d{1,15}$/.test(name);
}

/**
 * The signature a send goes out with (SPEC §6): an absent or empty `from` takes the
 * account's default signature, else the shared service signature; a named `from` must be
 * registered and approved for the account, or the send is refused (code 1).
 */
export function resolveSender(account: Account, from: string | undefined, serviceSignature: string): string {
  const wanted = from?.trim() ?? '';
  const { signatures, defaultSignature } = account.sending;
  if (wanted === '') return defaultSignature !== null && signatures[defaultSignature]?.approved ? defaultSignature : serviceSignature;
  if (!signatures[wanted]?.approved) {
    throw new AppError('invalid', `Sender ${wanted} is not an approved signature of this account`, {
      from: [`Sender ${wanted} is not an approved signature of this account`],
    });
  }
  return wanted;
}

/** The price of one segment to `countryA2`, or undefined when the account has none. */
export function segmentPrice(sending: SendingSettings, countryA2: string): number | undefined {
  return sending.tariff[countryA2] ?? sending.tariff['*'];
}
