import type { LocalService } from '../../shared/local/runtime';

/**
 * Starts the local runtime in this test process, in memory, on a free port, and talks
 * to it over real HTTP. The runtime reads its settings from the environment, as on
 * Lambda, so it is imported only after they are set.
 */
export async function startService(options: { demoApiKey?: string; shortLinkBase?: string; authCacheTtlMs?: number } = {}): Promise<TestService> {
  // No authentication cache unless a test asks: tests change accounts and keys and expect it at once.
  process.env.AUTH_CACHE_TTL_MS = String(options.authCacheTtlMs ?? 0);
  process.env.SIMULATOR_LATENCY_MS = '20';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const { startLocal } = await import('../../shared/local/runtime');
  const service = await startLocal({ port: 0, demoApiKey: options.demoApiKey, shortLinkBase: options.shortLinkBase });
  return new TestService(service);
}

export interface ApiCall {
  /** Form fields for the body; arrays repeat the name. Or a raw body string. */
  body?: Record<string, string | string[]> | string;
  /** Extra query string parameters besides apiKey/output/api. */
  query?: Record<string, string>;
  method?: 'GET' | 'POST';
  apiKey?: string | null;
  contentType?: string;
}

export interface Envelope<T = any> {
  code: number;
  data: T;
  message: string;
}

export class TestService {
  constructor(readonly local: LocalService) {}

  get baseUrl(): string {
    return this.local.baseUrl;
  }

  get runtime() {
    return this.local.runtime;
  }

  /** A fresh account with one key, for tests that need their own data. */
  async account(settings: { name?: string; timeZone?: string } = {}): Promise<{ id: number; key: string }> {
    const account = await this.runtime.accounts.createAccount({ name: settings.name ?? 'Test', timeZone: settings.timeZone });
    const { key } = await this.runtime.accounts.issueKey(account.id);
    return { id: account.id, key };
  }

  /** Calls `/service/<path>` and returns the HTTP response and parsed envelope. */
  async call<T = any>(path: string, key: string | null, options: ApiCall = {}): Promise<{ status: number; envelope: Envelope<T>; raw: Response }> {
    const query = new URLSearchParams({ output: 'json', api: 'v1', ...(key === null ? {} : { apiKey: key }), ...options.query });
    const method = options.method ?? 'POST';
    const body = typeof options.body === 'string' ? options.body : options.body ? formBody(options.body) : undefined;
    let url = `${this.baseUrl}/service/${path}?${query}`;
    if (method === 'GET' && body) url += `&${body}`;
    const raw = await fetch(url, {
      method,
      headers: method === 'POST' ? { 'content-type': options.contentType ?? 'application/x-www-form-urlencoded' } : {},
      body: method === 'POST' ? body : undefined,
    });
    const text = await raw.text();
    return { status: raw.status, envelope: JSON.parse(text) as Envelope<T>, raw };
  }

  /**
   * POSTs a body exactly as given (bytes or text, any content type), for the transport and
   * malformed-body tests. `envelope` is the parsed JSON answer, undefined when it is not JSON.
   */
  async post<T = any>(
    path: string,
    key: string | null,
    body: string | Buffer | undefined,
    options: { contentType?: string; query?: Record<string, string> } = {},
  ): Promise<{ status: number; contentType: string | null; text: string; envelope: Envelope<T> | undefined }> {
    const query = new URLSearchParams({ output: 'json', api: 'v1', ...(key === null ? {} : { apiKey: key }), ...options.query });
    const raw = await fetch(`${this.baseUrl}/service/${path}?${query}`, {
      method: 'POST',
      headers: { 'content-type': options.contentType ?? 'application/x-www-form-urlencoded' },
      body,
    });
    const text = await raw.text();
    let envelope: Envelope<T> | undefined;
    try {
      envelope = JSON.parse(text) as Envelope<T>;
    } catch {
      envelope = undefined;
    }
    return { status: raw.status, contentType: raw.headers.get('content-type'), text, envelope };
  }

  /** Shorthand: POST and return the envelope. */
  async api<T = any>(path: string, key: string | null, body?: Record<string, string | string[]> | string): Promise<Envelope<T>> {
    return (await this.call<T>(path, key, { body })).envelope;
  }

  /**
   * Resolves once the queues have delivered every message they can, including what one
   * delivery passes on to another queue (a final status becomes a webhook event). From then
   * on the service does nothing until a request comes, the clock moves or a timer fires
   * (the simulator's reports); a message waiting out a visibility timeout stays waiting.
   */
  async settled(): Promise<void> {
    const depths = () =>
      Object.values(this.local.queues.queues)
        .map((queue) => queue.depth)
        .join();
    let before: string;
    do {
      before = depths();
      await this.local.queues.drain();
    } while (depths() !== before);
  }

  close(): Promise<void> {
    return this.local.close();
  }
}

export function formBody(fields: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, item);
  }
  return params.toString();
}

/** The envelope of a failed call: its code, `data` (null unless fields are named) and an English message. */
export function failure(code: number, data: unknown = null): Envelope {
  return { code, data, message: expect.stringMatching(/\w/) };
}
