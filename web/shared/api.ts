/**
 * The console's two clients. The account one speaks the public API as any client does: a
 * form-encoded POST to /service/<Module>/<Method> with the key in the body (never in a URL),
 * answered by the `{code, data, message}` envelope. The operator one speaks the /admin/ JSON
 * API with the token in the Authorization header.
 */

/** The envelope's non-zero code and message; `data` carries field errors for code 1. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** An /admin/ answer with an error: its HTTP status and `{error: {code, message, fields?}}`. */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly kind: string,
    message: string,
    readonly fields: Record<string, unknown> | undefined = undefined,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

/** The public API's code for a missing, unknown or revoked key. */
export const AUTH_FAILED = 8;

export type Fields = Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>;

/** Bracket parameters as the API reads them: arrays repeat `name[]`; undefined and null are left out. */
export function formBody(fields: Fields): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) body.append(`${name}[]`, String(item));
    else body.append(name, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  return body;
}

export async function callService<T>(apiKey: string, operation: string, fields: Fields = {}): Promise<T> {
  const body = formBody(fields);
  body.set('apiKey', apiKey);
  const response = await fetch(`/service/${operation}?output=json&api=v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  const envelope = (await response.json().catch(() => null)) as { code: number; data: T; message: string } | null;
  if (!envelope || typeof envelope.code !== 'number') throw new ApiError(999, `The service answered HTTP ${response.status}`);
  if (envelope.code !== 0) throw new ApiError(envelope.code, envelope.message, envelope.data);
  return envelope.data;
}

/** GET with query parameters (ids and filters) when `body` is absent; POST with a JSON body otherwise. */
export async function callAdmin<T>(token: string, path: string, options: { query?: Fields; body?: unknown } = {}): Promise<T> {
  const query = options.query ? `?${formBody(options.query)}` : '';
  const response = await fetch(`/admin/${path}${query}`, {
    method: options.body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const answer = (await response.json().catch(() => null)) as {
    data?: T;
    error?: { code: string; message: string; fields?: Record<string, unknown> };
  } | null;
  if (response.ok && answer && 'data' in answer) return answer.data as T;
  const error = answer?.error;
  throw new AdminError(response.status, error?.code ?? 'http', error?.message ?? `The service answered HTTP ${response.status}`, error?.fields);
}
