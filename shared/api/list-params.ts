import { AppError } from '../domain/errors';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type PageSize, type Pagination, type SortOrder } from '../domain/paging';
import { echo, isRecord } from './params';

/**
 * `pagination[...]`, `sort[...]` and `criteria[...]` of the list operations. Every bad
 * value is a limit violation (code 12), as SPEC §3 fixes for Link/List and Message/List.
 */

export function paginationOf(value: unknown): Pagination {
  if (value === undefined || value === '') return { pageSize: DEFAULT_PAGE_SIZE, currentPage: 0 };
  if (!isRecord(value)) throw new AppError('limit', 'pagination must carry pagination[pageSize] and pagination[currentPage]');
  const rawSize =
    value.pageSize === undefined || value.pageSize === '' ? String(DEFAULT_PAGE_SIZE) : scalar(value.pageSize, 'pagination[pageSize]').trim();
  const pageSize = /^\d{1,3}$/.test(rawSize) ? Number(rawSize) : NaN;
  if (!PAGE_SIZES.includes(pageSize as PageSize)) throw new AppError('limit', `pagination[pageSize] must be one of ${PAGE_SIZES.join(', ')}`);
  const rawPage = value.currentPage === undefined || value.currentPage === '' ? '0' : scalar(value.currentPage, 'currentPage').trim();
  if (!/^\d{1,9}$/.test(rawPage)) throw new AppError('limit', 'pagination[currentPage] must be a whole number from 0');
  return { pageSize: pageSize as PageSize, currentPage: Number(rawPage) };
}

/** `sort[field]=ASC|DESC` pairs, in the order given; fields outside `allowed` are refused. */
export function sortOf<F extends string>(value: unknown, allowed: readonly F[]): SortOrder<F> {
  if (value === undefined || value === '') return [];
  if (!isRecord(value)) throw new AppError('limit', 'sort must be given as sort[field]=ASC or DESC');
  return Object.entries(value).map(([field, direction]) => {
    if (!allowed.includes(field as F)) throw new AppError('limit', `Cannot sort by ${echo(field)}; use one of ${allowed.join(', ')}`);
    const normalized = scalar(direction, `sort[${field}]`).trim().toUpperCase();
    if (normalized !== 'ASC' && normalized !== 'DESC') throw new AppError('limit', `sort[${echo(field)}] must be ASC or DESC`);
    return { field: field as F, direction: normalized };
  });
}

export function criteriaOf(value: unknown): Record<string, unknown> {
  if (value === undefined || value === '') return {};
  if (!isRecord(value)) throw new AppError('limit', 'criteria must be given as criteria[field]=value');
  // Empty criteria are "not set", as PHP forms send them.
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== ''));
}

/** A single string parameter; arrays and nested values are refused. */
export function scalar(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new AppError('limit', `${name} must be a single value`);
  return value;
}
