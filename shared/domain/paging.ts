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

/** Sorts by each field in turn; nulls sort first in ASC, last in DESC, as SQL's default does. */
export function sortBy<T, F extends string>(items: T[], order: SortOrder<F>, fieldValue: (item: T, field: F) => string | number | null): T[] {
  return [...items].sort((a, b) => {
    for (const { field, direction } of order) {
      const difference = compare(fieldValue(a, field), fieldValue(b, field));
      if (difference !== 0) return direction === 'ASC' ? difference : -difference;
    }
    return 0;
  });
}

export function page<T>(items: T[], { pageSize, currentPage }: Pagination): T[] {
  return items.slice(currentPage * pageSize, (currentPage + 1) * pageSize);
}

function compare(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}
