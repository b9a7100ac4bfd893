import type { ErrorKind } from '../domain/errors';

/** The API's result codes (SPEC §3). Every envelope's code comes from here. */
export const RESULT_CODE = {
  success: 0,
  invalid: 1,
  notFound: 2,
  internal: 3,
  unknownModule: 4,
  unknownMethod: 5,
  unknownOutput: 6,
  unauthenticated: 8,
  forbidden: 9,
  missingParameter: 11,
  limit: 12,
  accountBlocked: 14,
  rateLimited: 30,
  general: 999,
} as const satisfies Record<ErrorKind | 'success' | 'general', number>;

export type ResultCode = (typeof RESULT_CODE)[keyof typeof RESULT_CODE];

export function resultCodeOf(kind: ErrorKind): ResultCode {
  return RESULT_CODE[kind];
}
