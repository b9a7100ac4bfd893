import * as v from 'valibot';
import { AppError, type ErrorKind, type FieldErrors } from '../domain/errors';
import { isLongerThan } from '../domain/text-limits';

/**
 * Building blocks for the valibot schemas beside each operation. Parameters arrive as
 * strings, arrays and nested objects from PHP bracket syntax, so every schema starts
 * from `unknown` and says in words what it wanted.
 */

export type Params = Record<string, unknown>;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `0` or `1`. */
export function flag(message: string) {
  return v.pipe(
    v.string(message),
    v.trim(),
    v.picklist(['0', '1'], message),
    v.transform((value) => (value === '1' ? 1 : 0) as 0 | 1),
  );
}

/** Free text; rejects what decoding could not read as UTF-8 (U+FFFD). */
export function text(message: string) {
  return v.pipe(
    v.string(message),
    v.check((value) => !value.includes('\ufffd'), `${message}: it is not valid UTF-8 text`),
  );
}

/** At most `max` characters, counted as the domain counts them (code points, see text-limits). */
export function maxCharacters(max: number, message: string) {
  return v.check((value: string) => !isLongerThan(value, max), message);
}

/**
 * A list of identifiers in any of the shapes clients send: `ids[]=1&ids[]=2`,
 * `ids[0]=1&ids[1]=2` (both arrive as arrays or index-keyed objects), a comma-separated
 * string `1,2`, or one scalar. Empty entries are dropped; each entry stays a string.
 * Other keys are no list: `ids[=5` (an unclosed bracket) arrives as `{ '[': '5' }`.
 */
export function listOf(value: unknown): string[] | undefined {
  let entries: unknown[];
  if (Array.isArray(value)) entries = value;
  else if (isRecord(value) && Object.keys(value).every((index) => /^\d+$/.test(index))) entries = Object.values(value);
  else if (typeof value === 'string') entries = value.split(',');
  else return undefined;
  if (entries.some((entry) => typeof entry !== 'string')) return undefined;
  return (entries as string[]).map((entry) => entry.trim()).filter((entry) => entry !== '');
}

/** Parameter present with some content (PHP clients send `x=` for "not given"). */
export function isGiven(value: unknown): boolean {
  return value !== undefined && value !== '';
}

/**
 * Validates `input` with `schema`; on failure raises an AppError of `kind` whose fields
 * map each offending parameter (its last name, without `data[...]`) to messages.
 */
export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown, kind: ErrorKind = 'invalid'): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const fields: FieldErrors = {};
  for (const issue of result.issues) {
    const path = issue.path?.map((item) => String(item.key)) ?? [];
    const field = path.at(-1) ?? 'request';
    fields[field] = [...(fields[field] ?? []), issue.message];
  }
  throw new AppError(kind, result.issues[0].message, fields);
}

/**
 * Validates request parameters (not an entity's fields) with `schema`: the first problem
 * becomes an AppError of `kind`, code 12 unless said otherwise, with the issue's message
 * and no field map (such errors carry `data: null`).
 */
export function readParams<S extends v.GenericSchema>(schema: S, input: unknown, kind: ErrorKind = 'limit'): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  throw new AppError(kind, result.issues[0].message);
}

/** Fields in bracket syntax (`name[field]=...`); lists and single values are refused. */
export function fields(message: string) {
  return v.custom<Record<string, unknown>>(isRecord, message);
}

/** The fields of `record` that carry something: `field=` is how PHP clients leave one out. */
export function withoutBlanks(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== ''));
}

/** A list of identifiers in any shape listOf reads, each entry a string. */
export function idList(message: string) {
  return v.pipe(v.unknown(), v.transform(listOf), v.array(v.string(message), message));
}

/**
 * A stored entity's id: a positive integer of at most 15 digits. Any other text is no
 * entity's id, so callers read it with kind `notFound` and `message` says what was not found.
 */
export function entityId(message: string) {
  return v.pipe(v.string(message), v.trim(), v.regex(/^\d{1,15}$/, message), v.transform(Number));
}

/** How much of a caller's value an error message repeats back. */
const ECHO_LENGTH = 40;

/**
 * A caller's value as an error message repeats it: at most ECHO_LENGTH characters, so a
 * megabyte-long sort key or status never comes back whole.
 */
export function echo(value: string): string {
  const characters = Array.from(value);
  return characters.length <= ECHO_LENGTH ? value : `${characters.slice(0, ECHO_LENGTH).join('')}…`;
}
