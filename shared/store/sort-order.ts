import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';

/** DynamoDB's order: numbers by value, strings by their UTF-8 bytes. */
export function compareSortValues(a: NativeAttributeValue, b: NativeAttributeValue): number {
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  if (typeof a === 'number' || typeof a === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  return compareText(String(a), String(b));
}

const SURROGATE = /[\ud800-\udfff]/;

/** UTF-8 byte order, which is code point order: UTF-16 code units differ from it only around surrogates. */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  if (SURROGATE.test(a) || SURROGATE.test(b)) return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  return a < b ? -1 : 1;
}

/** The longest start two strings share, not ending inside a surrogate pair. */
export function commonStart(a: string, b: string): string {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  if (n > 0 && /[\uD800-\uDBFF]/.test(a[n - 1] ?? '')) n--;
  return a.slice(0, n);
}
