import { MAX_BODY_BYTES, MAX_PARAMETERS } from '../middleware/transport';
import { RESULT_CODE } from '../result-codes';
import type { ResultDoc } from './operations';

/**
 * What the stack around every operation (shared/api/handler.ts) may answer, whatever the
 * operation: transport checks, authentication, the rate limit and the catch-all.
 */
export const STACK_RESULTS: ResultDoc[] = [
  { kind: 'invalid', when: 'The body is not a valid URL-encoded or multipart form, or carries a file' },
  { kind: 'internal', when: 'An unexpected failure; the message carries the request id' },
  { kind: 'unknownOutput', when: '`output` is neither json nor xml' },
  { kind: 'unauthenticated', when: '`apiKey` is missing, unknown or revoked' },
  { kind: 'limit', when: `\`api\` is not v1, the body is over ${MAX_BODY_BYTES} bytes, or more than ${MAX_PARAMETERS} parameters` },
  { kind: 'accountBlocked', when: 'The account is blocked' },
  { kind: 'rateLimited', when: 'The account is over its request rate' },
];

export interface ResultCodeDoc {
  code: number;
  kind: string;
  when: string[];
}

/** An operation's results and the stack's, one entry per code, in code order. */
export function resultCodesOf(results: ResultDoc[]): ResultCodeDoc[] {
  const byCode = new Map<number, ResultCodeDoc>();
  for (const { kind, when } of [...results, ...STACK_RESULTS]) {
    const code = RESULT_CODE[kind];
    const entry = byCode.get(code) ?? { code, kind, when: [] };
    entry.when.push(when);
    byCode.set(code, entry);
  }
  return [...byCode.values()].sort((a, b) => a.code - b.code);
}

/** The whole table (SPEC §3), for the document's introduction. */
export const RESULT_CODE_MEANINGS: Record<keyof typeof RESULT_CODE, string> = {
  success: 'Success',
  invalid: 'Validation error of entity data; `data` maps each field to its messages',
  notFound: 'Record not found',
  internal: 'Unexpected application error',
  unknownModule: 'Unknown module',
  unknownMethod: 'Unknown method',
  unknownOutput: 'Unknown output format',
  unauthenticated: 'Authentication failed',
  forbidden: 'Method not allowed for this key',
  missingParameter: 'Required parameter missing',
  limit: 'A parameter violates a limit',
  accountBlocked: 'Account blocked',
  rateLimited: 'Rate limit exceeded',
  general: 'General service error',
};
