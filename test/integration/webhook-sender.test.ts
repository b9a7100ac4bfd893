import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookTargetPolicy } from '../../shared/domain/webhook-targets';
import { type Resolve, webhookSender } from '../../shared/webhooks/http-sender';

/** A receiver on a loopback address that records what reaches it and answers as told. */
class Receiver {
  readonly requests: { method: string; path: string; host: string; body: string }[] = [];
  answer: (request: IncomingMessage, response: ServerResponse) => void = (_, response) => response.writeHead(204).end();
  readonly #server: Server;
  url = '';
  port = 0;

  constructor(readonly address: string) {
    this.#server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        this.requests.push({ method: request.method!, path: request.url!, host: request.headers.host!, body });
        this.answer(request, response);
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, this.address, () => resolve()));
    this.port = (this.#server.address() as AddressInfo).port;
    this.url = `http://${this.address}:${this.port}`;
  }

  redirect(status: number, location: string): void {
    this.answer = (_, response) => response.writeHead(status, { location }).end();
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** Names the tests make up, resolved by a table instead of DNS. */
const resolveFrom =
  (table: Record<string, string[]>): Resolve =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    return addresses;
  };

describe('webhookSender', () => {
  const body = JSON.stringify({ eventId: 'E1', attempt: 1 });
  const relaxed: WebhookTargetPolicy = { allowPrivate: true, ownBases: [] };
  const strict: WebhookTargetPolicy = { allowPrivate: false, ownBases: [] };
  const first = new Receiver('127.0.0.1');
  const second = new Receiver('127.0.0.2');

  beforeAll(async () => {
    await first.start();
    await second.start();
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });
  beforeEach(() => {
    for (const receiver of [first, second]) {
      receiver.requests.length = 0;
      receiver.answer = (_, response) => response.writeHead(204).end();
    }
  });

  /**
   * `first` stands in for a public receiver: this policy allows private addresses until
   * `first` has been called, and refuses them from then on (for where it redirects).
   */
  const firstIsPublic: WebhookTargetPolicy = {
    ownBases: [],
    get allowPrivate() {
      return first.requests.length === 0;
    },
  };

  describe('with private targets allowed', () => {
    it('posts the JSON body and succeeds on a 2xx', async () => {
      const result = await webhookSender(relaxed)(`${first.url}/hooks/sms`, body, 5_000);

      expect(result).toEqual({ ok: true, detail: 'HTTP 204' });
      expect(first.requests).toEqual([{ method: 'POST', path: '/hooks/sms', host: `127.0.0.1:${first.port}`, body }]);
    });

    it('fails on any other status', async () => {
      first.answer = (_, response) => response.writeHead(500).end('no');

      expect(await webhookSender(relaxed)(first.url, body, 5_000)).toEqual({ ok: false, detail: 'HTTP 500' });
    });

    it('connects to the address it resolved and checked, sending the name as the host', async () => {
      const post = webhookSender(relaxed, resolveFrom({ 'hooks.example.test': ['127.0.0.2'] }));

      const result = await post(`http://hooks.example.test:${second.port}/sms`, body, 5_000);

      expect(result).toEqual({ ok: true, detail: 'HTTP 204' });
      expect(second.requests).toEqual([{ method: 'POST', path: '/sms', host: `hooks.example.test:${second.port}`, body }]);
    });

    it('resolves once per request, so the checked answer is the one connected to', async () => {
      // A rebinding name: the first answer passes the check, any later one would point elsewhere.
      const answers = [['127.0.0.2'], ['127.0.0.1']];
      let lookups = 0;
      const post = webhookSender(relaxed, async () => answers[lookups++]!);

      const result = await post(`http://rebind.example.test:${second.port}/hook`, body, 5_000);

      expect(result).toEqual({ ok: true, detail: 'HTTP 204' });
      expect(lookups).toBe(1);
      expect(second.requests).toHaveLength(1);
    });

    it('follows one 302, posting the same body to the new target', async () => {
      first.redirect(302, `${second.url}/moved`);

      const result = await webhookSender(relaxed)(`${first.url}/old`, body, 5_000);

      expect(result).toEqual({ ok: true, detail: `HTTP 204 (redirected to ${second.url}/moved)` });
      expect(first.requests.map((request) => request.path)).toEqual(['/old']);
      expect(second.requests).toEqual([{ method: 'POST', path: '/moved', host: `127.0.0.2:${second.port}`, body }]);
    });

    it('follows a 301 to a relative location', async () => {
      first.answer = (request, response) =>
        request.url === '/old' ? response.writeHead(301, { location: '/new' }).end() : response.writeHead(200).end();

      const result = await webhookSender(relaxed)(`${first.url}/old`, body, 5_000);

      expect(result).toEqual({ ok: true, detail: `HTTP 200 (redirected to ${first.url}/new)` });
      expect(first.requests.map((request) => [request.path, request.body])).toEqual([
        ['/old', body],
        ['/new', body],
      ]);
    });

    it('fails on a second redirect without following it', async () => {
      first.redirect(302, `${second.url}/hop`);
      second.redirect(302, `${first.url}/again`);

      const result = await webhookSender(relaxed)(`${first.url}/start`, body, 5_000);

      expect(result).toEqual({ ok: false, detail: `HTTP 302 (redirected to ${second.url}/hop): a second redirect; one is followed` });
      expect(first.requests.map((request) => request.path)).toEqual(['/start']);
      expect(second.requests.map((request) => request.path)).toEqual(['/hop']);
    });

    it('does not follow other redirects (307)', async () => {
      first.redirect(307, `${second.url}/moved`);

      expect(await webhookSender(relaxed)(first.url, body, 5_000)).toEqual({ ok: false, detail: 'HTTP 307' });
      expect(second.requests).toEqual([]);
    });

    it('refuses a redirect to the service itself', async () => {
      first.redirect(302, `${second.url}/service/Link/Delete?ids=2`);

      const result = await webhookSender({ allowPrivate: true, ownBases: [second.url] })(first.url, body, 5_000);

      expect(result).toEqual({
        ok: false,
        refused: true,
        detail: `Redirected to ${second.url}/service/Link/Delete?ids=2: Webhook URL must not point at this service (127.0.0.2:${second.port})`,
      });
      expect(second.requests).toEqual([]);
    });

    it('gives up when no answer comes within the timeout', async () => {
      first.answer = () => undefined; // never answers

      expect(await webhookSender(relaxed)(first.url, body, 200)).toEqual({ ok: false, detail: 'No answer within 200 ms' });
    });
  });

  describe('with private targets refused', () => {
    it('refuses a loopback address without connecting', async () => {
      const result = await webhookSender(strict)(`${first.url}/hook`, body, 5_000);

      expect(result).toEqual({
        ok: false,
        refused: true,
        detail: 'Webhook URL must not point at 127.0.0.1, a loopback address (WEBHOOK_ALLOW_PRIVATE_TARGETS=1 allows private targets)',
      });
      expect(first.requests).toEqual([]);
    });

    it('refuses a name that resolves to loopback at delivery time', async () => {
      const post = webhookSender(strict, resolveFrom({ 'hooks.example.test': ['127.0.0.1'] }));

      const result = await post(`http://hooks.example.test:${first.port}/hook`, body, 5_000);

      expect(result).toEqual({
        ok: false,
        refused: true,
        detail: 'Webhook host hooks.example.test resolves to 127.0.0.1, a loopback address (WEBHOOK_ALLOW_PRIVATE_TARGETS=1 allows private targets)',
      });
      expect(first.requests).toEqual([]);
    });

    it('refuses a name when any of its addresses is refused', async () => {
      const post = webhookSender(strict, resolveFrom({ 'hooks.example.test': ['93.184.215.14', '::ffff:169.254.169.254'] }));

      const result = await post(`http://hooks.example.test:${first.port}/hook`, body, 5_000);

      expect(result).toMatchObject({ ok: false, refused: true, detail: expect.stringContaining('::ffff:169.254.169.254, a link-local address') });
    });

    it('refuses a 302 to a loopback address', async () => {
      first.redirect(302, `${second.url}/internal`);

      const result = await webhookSender(firstIsPublic)(first.url, body, 5_000);

      expect(result).toEqual({
        ok: false,
        refused: true,
        detail: `Redirected to ${second.url}/internal: Webhook URL must not point at 127.0.0.2, a loopback address (WEBHOOK_ALLOW_PRIVATE_TARGETS=1 allows private targets)`,
      });
      expect(first.requests).toHaveLength(1);
      expect(second.requests).toEqual([]);
    });

    it('refuses a 302 to a name that resolves to loopback', async () => {
      first.redirect(302, `http://inside.example.test:${second.port}/internal`);
      const resolve = resolveFrom({ 'inside.example.test': ['127.0.0.2'] });

      const result = await webhookSender(firstIsPublic, resolve)(first.url, body, 5_000);

      expect(result).toEqual({
        ok: false,
        refused: true,
        detail: `Redirected to http://inside.example.test:${second.port}/internal: Webhook host inside.example.test resolves to 127.0.0.2, a loopback address (WEBHOOK_ALLOW_PRIVATE_TARGETS=1 allows private targets)`,
      });
      expect(second.requests).toEqual([]);
      // The same redirect with private targets allowed does reach the second receiver.
      first.requests.length = 0;
      expect(await webhookSender(relaxed, resolve)(first.url, body, 5_000)).toMatchObject({ ok: true });
      expect(second.requests).toHaveLength(1);
    });
  });
});
