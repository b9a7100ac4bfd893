import * as v from 'valibot';
import type { Operator } from '../domain/operators';
import type { PageSize } from '../domain/paging';
import type { AdminPath } from './routes';

/**
 * One operation of the operator API: its path, the valibot schema of its input (the query
 * parameters of a GET, the JSON body of a POST, each a flat object of named fields) and
 * what it does with the services it is handed.
 */
export interface AdminOperation<Deps, Schema extends v.GenericSchema = v.GenericSchema, Result = unknown> {
  path: AdminPath;
  input: Schema;
  run(input: v.InferOutput<Schema>, deps: Deps, operator: Operator): Promise<Result>;
  /** The ids a change is about, for its audit entry: the input's `id` and `…Id` fields unless said otherwise. */
  target?(input: v.InferOutput<Schema>, result: Result | undefined): Record<string, unknown>;
  /** Input fields kept out of the audit entry and the log line. */
  secrets?: readonly string[];
}

export function adminOperation<Deps, Schema extends v.GenericSchema, Result>(
  operation: AdminOperation<Deps, Schema, Result>,
): AdminOperation<Deps, Schema, Result> {
  return operation;
}

/** An input with no fields: a GET that takes no parameters. */
export const NO_INPUT = v.strictObject({}, 'This operation takes no parameters');

/**
 * An entity id: a whole number from 1, as a JSON number or as text (query parameters are
 * text); `what` names it in the message.
 */
export function entityIdField(what: string) {
  const message = `${what} must be a whole number from 1`;
  return v.pipe(
    v.union(
      [v.pipe(v.number(message), v.integer(message)), v.pipe(v.string(message), v.trim(), v.regex(/^\d{1,15}$/, message), v.transform(Number))],
      message,
    ),
    v.minValue(1, message),
    v.maxValue(Number.MAX_SAFE_INTEGER, message),
  );
}

/** Text of at most `max` characters, not blank. */
export function textField(what: string, max: number) {
  return v.pipe(
    v.string(`${what} must be text`),
    v.trim(),
    v.nonEmpty(`${what} must not be empty`),
    v.maxLength(max, `${what} is at most ${max} characters`),
  );
}

/** Paging of a GET list: `page` from 0 (default 0) and `pageSize` 25, 50 or 100 (default 25), as the public lists take. */
export const PAGING = {
  page: v.optional(
    v.pipe(v.string('page must be a whole number from 0'), v.regex(/^\d{1,6}$/, 'page must be a whole number from 0'), v.transform(Number)),
    '0',
  ),
  pageSize: v.optional(
    v.pipe(
      v.picklist(['25', '50', '100'], 'pageSize must be 25, 50 or 100'),
      v.transform((size) => Number(size) as PageSize),
    ),
    '25',
  ),
};

/** The `id` and `…Id` fields of an input: what an audit entry names as the change's target. */
export function idFields(input: unknown): Record<string, unknown> {
  if (typeof input !== 'object' || input === null) return {};
  return Object.fromEntries(Object.entries(input).filter(([name]) => name === 'id' || name.endsWith('Id')));
}
