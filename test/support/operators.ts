import { adminServices } from '../../shared/admin/services';
import type { TestService } from './local-service';
import { adminAsync } from './serve-process';

/**
 * An operator token for a local service started as a process (bin/serve.ts on `dataDir`,
 * test/support/serve-process.ts): issued by the admin CLI, which reaches the running
 * service's store, as an operator would (`npm run admin -- operator token issue --name NAME`).
 */
export async function issueOperatorToken(dataDir: string, name = 'Test operator'): Promise<{ token: string; tokenId: string }> {
  const issued = await adminAsync(dataDir, 'operator', 'token', 'issue', '--name', name, '--json');
  if (issued.status !== 0) throw new Error(`operator token issue failed: ${issued.stderr}`);
  const { token, tokenId } = JSON.parse(issued.stdout) as { token: string; tokenId: string };
  return { token, tokenId };
}

/** An operator token for a service started in this process (test/support/local-service.ts). */
export async function operatorToken(service: TestService, name = 'Test operator'): Promise<{ token: string; tokenId: string }> {
  const { token, operatorToken } = await adminServices(service.runtime).operators.issue(name);
  return { token, tokenId: operatorToken.tokenId };
}

export interface AdminAnswer<T = any> {
  status: number;
  headers: Headers;
  /** The parsed JSON answer; undefined when the body is not JSON. */
  json:
    | { data: T; error?: undefined }
    | { data?: undefined; error: { code: string; message: string; fields?: Record<string, string[]> } }
    | undefined;
}

/**
 * One request to the operator API: a GET with `query`, or a POST with `body` as JSON (or a
 * raw string with its own content type), with the token as a Bearer header unless null.
 */
export async function adminCall<T = any>(
  baseUrl: string,
  token: string | null,
  path: string,
  options: { method?: string; query?: Record<string, string>; body?: unknown; raw?: string | Buffer; contentType?: string } = {},
): Promise<AdminAnswer<T>> {
  const method = options.method ?? (options.body !== undefined || options.raw !== undefined ? 'POST' : 'GET');
  const url = `${baseUrl}/admin/${path}${options.query ? `?${new URLSearchParams(options.query)}` : ''}`;
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let json: AdminAnswer<T>['json'];
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json };
}
