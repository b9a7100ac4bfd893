import * as v from 'valibot';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../domain/paging';
import { parseRequestTs } from '../domain/time';
import { echo, fields, withoutBlanks } from './params';

/**
 * Schemas for `pagination[...]`, `sort[...]` and `criteria[...]` of the list operations,
 * read with readParams: every bad value is a limit violation (code 12), as SPEC §3 fixes
 * for Link/List and Message/List. An absent or blank (`x=`) parameter is no choice made.
 */

const PAGE_SIZE_MESSAGE = `pagination[pageSize] must be one of ${PAGE_SIZES.join(', ')}`;

/** `pagination[pageSize]` (one of PAGE_SIZES) and `pagination[currentPage]` (zero-based). */
export const pagination = v.optional(
  v.pipe(
    fields('pagination must carry pagination[pageSize] and pagination[currentPage]'),
    v.transform(withoutBlanks),
    v.object({
      pageSize: v.optional(
        v.pipe(
          v.string('pagination[pageSize] must be a single value'),
          v.trim(),
          v.regex(/^\d{1,3}$/, PAGE_SIZE_MESSAGE),
          v.transform(Number),
          v.picklist(PAGE_SIZES, PAGE_SIZE_MESSAGE),
        ),
        String(DEFAULT_PAGE_SIZE),
      ),
      currentPage: v.optional(
        v.pipe(
          v.string('currentPage must be a single value'),
          v.trim(),
          v.regex(/^\d{1,9}$/, 'pagination[currentPage] must be a whole number from 0'),
          v.transform(Number),
        ),
        '0',
      ),
    }),
  ),
  {},
);

/** `sort[field]=ASC|DESC` pairs, in the order given; fields outside `allowed` are refused. */
export function sortOf<const F extends string>(allowed: readonly F[]) {
  const direction = (field: F) =>
    v.pipe(
      v.string(`sort[${field}] must be a single value`),
      v.trim(),
      v.toUpperCase(),
      v.picklist(['ASC', 'DESC'], `sort[${field}] must be ASC or DESC`),
    );
  const pair = v.variant(
    'field',
    allowed.map((field) => v.object({ field: v.literal(field), direction: direction(field) })),
    (issue) => `Cannot sort by ${echo(String(issue.input))}; use one of ${allowed.join(', ')}`,
  );
  return v.optional(
    v.pipe(
      fields('sort must be given as sort[field]=ASC or DESC'),
      v.transform((pairs) => Object.entries(pairs).map(([field, direction]) => ({ field, direction }))),
      v.array(pair),
    ),
    {},
  );
}

/** `criteria[field]=value`; blank criteria are "not set", as PHP forms send them. */
export function criteriaOf<const E extends v.ObjectEntries>(entries: E) {
  return v.optional(v.pipe(fields('criteria must be given as criteria[field]=value'), v.transform(withoutBlanks), v.object(entries)), {});
}

/** A single string criterion; arrays and nested values are refused. */
export function criterion(name: string) {
  return v.string(`criteria[${name}] must be a single value`);
}

/** `0` or `1`. */
export function flagCriterion(name: string) {
  return v.optional(
    v.pipe(
      criterion(name),
      v.trim(),
      v.picklist(['0', '1'], `criteria[${name}] must be 0 or 1`),
      v.transform((value) => (value === '1' ? 1 : 0) as 0 | 1),
    ),
  );
}

/** A date or date and time in the account's zone; a bare date is read as `bareDateAs`. */
export function timeCriterion(name: string, zone: string, bareDateAs?: 'startOfDay' | 'endOfDay') {
  return v.optional(
    v.pipe(
      criterion(name),
      v.trim(),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        const instant = parseRequestTs(dataset.value, zone, { allowDate: true, bareDateAs });
        if (typeof instant !== 'string') return instant;
        addIssue({ message: `criteria[${name}] ${instant}` });
        return NEVER;
      }),
    ),
  );
}
