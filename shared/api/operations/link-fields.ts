import * as v from 'valibot';
import { MAX_COMMENT_LENGTH } from '../../domain/links';
import { calendarDateProblem } from '../../domain/time';
import { flag, maxCharacters, text } from '../params';

/** Schemas for the `data[...]` fields Link/Create and Link/Update share. */

export const linkStatus = flag('Status must be 0 or 1');

/** `YYYY-MM-DD`, or empty for "no expiration". */
export const expirationDate = v.pipe(
  v.string('Expiration date must be a date, YYYY-MM-DD'),
  v.trim(),
  v.rawCheck(({ dataset, addIssue }) => {
    const problem = dataset.typed && dataset.value !== '' ? calendarDateProblem(dataset.value) : undefined;
    if (problem) addIssue({ message: `Expiration date ${problem}` });
  }),
  v.transform((value) => (value === '' ? null : value)),
);

/** At most 255 characters; empty means no comment. */
export const comment = v.pipe(
  text('Comment must be text'),
  maxCharacters(MAX_COMMENT_LENGTH, `Comment must be at most ${MAX_COMMENT_LENGTH} characters`),
  v.transform((value) => (value === '' ? null : value)),
);

/** Treats `field=` (empty) like an absent field, as PHP clients send it. */
export function blankAsAbsent(data: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const copy = { ...data };
  for (const field of fields) if (copy[field] === '') delete copy[field];
  return copy;
}
