/** Page sizes the interface allows for list operations. */
export const PAGE_SIZES = [25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 25;

export interface Pagination {
  pageSize: PageSize;
  /** Zero-based. */
  currentPage: number;
}

export type SortDirection = 'ASC' | 'DESC';
export type SortOrder<F extends string> = { field: F; direction: SortDirection }[];

export function page<T>(items: T[], { pageSize, currentPage }: Pagination): T[] {
  return items.slice(currentPage * pageSize, (currentPage + 1) * pageSize);
}

/** The lists' order of one field's values: nulls first, numbers by value, strings by code point (DynamoDB's UTF-8 byte order), never by locale. */
export function compareValues(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return compareCodePoints(String(a), String(b));
}

/** Code point order, which is UTF-8 byte order (UTF-16 code units differ above U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const difference = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
}
