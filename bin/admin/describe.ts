import type { SendingSettings } from '../../shared/domain/accounts';
import { AppError } from '../../shared/domain/errors';

// How the CLI reads its option values and prints what it shows.

export function describeSignatures(sending: SendingSettings): string {
  const names = Object.entries(sending.signatures).map(
    ([name, signature]) => `${name} (${signature.approved ? 'approved' : 'pending'}${name === sending.defaultSignature ? ', default' : ''})`,
  );
  return names.join(', ') || 'none';
}

/** `--rate-limit`: a number of requests per second, or `default`; undefined when not given. */
export function rateLimitOption(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'default') return null;
  if (!/^\d+$/.test(value)) throw new AppError('invalid', '--rate-limit takes a number of requests per second (0: unlimited) or default');
  return Number(value);
}

export function describeRateLimit(rateLimit: number | null): string {
  if (rateLimit === null) return 'default rate';
  return rateLimit === 0 ? 'unlimited' : `${rateLimit} req/s`;
}

export function describeTariff(tariff: Record<string, number>): string {
  return (
    Object.entries(tariff)
      .map(([country, price]) => `${country} ${price}`)
      .join(', ') || 'no prices'
  );
}
