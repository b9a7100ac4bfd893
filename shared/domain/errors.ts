/**
 * The one error type the service raises on purpose. `kind` names what went wrong in
 * domain words; shared/api/result-codes.ts maps each kind to the API's result code.
 */
export type ErrorKind =
  | 'invalid' // an entity field has a bad value
  | 'notFound'
  | 'internal'
  | 'unknownModule'
  | 'unknownMethod'
  | 'unknownOutput'
  | 'unauthenticated'
  | 'forbidden'
  | 'missingParameter'
  | 'limit' // a parameter violates a documented limit
  | 'accountBlocked'
  | 'rateLimited';

/** Field name → messages, as returned in `data` of a validation error. */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly fields: FieldErrors | undefined;

  constructor(kind: ErrorKind, message: string, fields?: FieldErrors, options?: ErrorOptions) {
    super(message, options);
    this.name = 'AppError';
    this.kind = kind;
    this.fields = fields;
  }
}

/** A validation error on one entity field; the message doubles as the field's message. */
export function invalidField(field: string, message: string): AppError {
  return new AppError('invalid', message, { [field]: [message] });
}

/**
 * A change refused because its entity is not in a state it applies to (a campaign no longer
 * held, a key already revoked). An invalid request to the public API (code 1); the operator
 * API answers it with 409.
 */
export class ConflictError extends AppError {
  constructor(message: string, options?: ErrorOptions) {
    super('invalid', message, undefined, options);
    this.name = 'ConflictError';
  }
}
