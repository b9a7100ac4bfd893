import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ErrorKind, FieldErrors } from '../domain/errors';

/**
 * The operator API's answers: `{"data": …}` with 200, or `{"error": {code, message,
 * fields?}}` with the status of its kind from this one table (the public API's result
 * codes: shared/api/result-codes.ts).
 */
export const ADMIN_STATUS = {
  invalid: 400,
  missingParameter: 400,
  limit: 400,
  unknownModule: 404,
  unknownMethod: 404,
  unknownOutput: 400,
  unauthenticated: 401,
  forbidden: 403,
  accountBlocked: 403,
  notFound: 404,
  rateLimited: 429,
  internal: 500,
} as const satisfies Record<ErrorKind, number>;

/** What the transport refuses before an operation runs, beside the domain's kinds. */
export const TRANSPORT_STATUS = {
  methodNotAllowed: 405,
  tooLarge: 413,
  unsupportedMediaType: 415,
} as const;

/** ConflictError (a domain refusal of kind `invalid`) answers 409 with code `conflict`. */
export const CONFLICT_STATUS = 409;

export type AdminErrorCode = ErrorKind | 'conflict' | keyof typeof TRANSPORT_STATUS;

const HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

export function dataResponse(data: unknown): APIGatewayProxyStructuredResultV2 {
  return { statusCode: 200, headers: { ...HEADERS }, body: JSON.stringify({ data: data ?? null }) };
}

export function errorResponse(
  code: AdminErrorCode,
  message: string,
  fields?: FieldErrors,
  headers: Record<string, string> = {},
): APIGatewayProxyStructuredResultV2 {
  const statusCode =
    code === 'conflict'
      ? CONFLICT_STATUS
      : code in TRANSPORT_STATUS
        ? TRANSPORT_STATUS[code as keyof typeof TRANSPORT_STATUS]
        : ADMIN_STATUS[code as ErrorKind];
  return {
    statusCode,
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify({ error: { code, message, ...(fields && Object.keys(fields).length > 0 && { fields }) } }),
  };
}
