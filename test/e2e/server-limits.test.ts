import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Health, storeHealthCheck } from '../../shared/local/health';
import { type HttpServer, startHttpServer } from '../../shared/local/server';
import { createStore } from '../../shared/store/client';
import { eventually } from '../support/eventually';
import { formBody } from '../support/local-service';
import { startServer, stop } from '../support/serve-process';

/**
 * The local server's defences against clients that hold connections, its stop, and
 * /health, over real sockets. Where it is about the process, bin/serve.ts runs as one.
 */
const DEMO_KEY = 'demo0000000000000000000000000000000key01';
/** Generous bound for anything that should happen "at once" or "within seconds". */
const WITHIN = 10_000;

jest.setTimeout(90_000);
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/** One client connection spoken to byte by byte: what it received, and whether it closed. */
class RawConnection {
  text = '';
  isClosed = false;
  readonly #waiters = new Set<() => void>();

  private constructor(readonly socket: Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.text += chunk;
      this.#wake();
    });
    socket.on('error', () => undefined); // a reset shows as the close that follows
    socket.on('close', () => {
      this.isClosed = true;
      this.#wake();
    });
  }

  static open(host: string, port: number, localAddress?: string): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port, localAddress });
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /**
   * A connection the server may close at once: under load its reset can come before the
   * client sees the connection open, so either settles it, and `isClosed` tells which.
   */
  static attempt(host: string, port: number, localAddress?: string): Promise<RawConnection> {
    return new Promise((resolve) => {
      const connection = new RawConnection(connect({ host, port, localAddress }));
      connection.socket.once('connect', () => resolve(connection));
      connection.socket.once('close', () => resolve(connection));
    });
  }

  send(data: string): void {
    this.socket.write(data);
  }

  /** Resolves once `pattern` has arrived; fails if the connection closes first or it takes longer than WITHIN. */
  received(pattern: RegExp): Promise<void> {
    return this.#until(
      () => pattern.test(this.text),
      () => (this.isClosed ? `closed before ${pattern} arrived: ${JSON.stringify(this.text)}` : undefined),
    );
  }

  closed(): Promise<void> {
    return this.#until(
      () => this.isClosed,
      () => undefined,
    );
  }

  #until(done: () => boolean, failure: () => string | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`not within ${WITHIN} ms; received ${JSON.stringify(this.text)}`)), WITHIN);
      const finish = (error?: Error) => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const check = () => {
        if (done()) return finish();
        const problem = failure();
        if (problem) finish(new Error(problem));
      };
      this.#waiters.add(check);
      check();
    });
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}

/** A request whose headers and the first bytes of a body of `length` have been sent; the rest is up to the test. */
function startBody(connection: RawConnection, path: string, length: number, first: string): void {
  connection.send(
    `POST ${path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n${first}`,
  );
}

function healthFrom(baseUrl: string, localAddress: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(`${baseUrl}/health`, { localAddress, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    }).once('error', reject);
  });
}

function logLines(output: string[], level: string): string[] {
  return output
    .join('')
    .split('\n')
    .filter((line) => line.includes(`"level":"${level}"`));
}

describe('local server limits (bin/serve.ts with HOST=127.0.0.2, MAX_CONNECTIONS_PER_IP=4, REQUEST_TIMEOUT_MS=3000)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shortsms-limits-'));
  let server: { child: ChildProcess; output: string[]; baseUrl: string };
  const opened: RawConnection[] = [];

  beforeAll(async () => {
    server = await startServer(dataDir, {
      demoApiKey: DEMO_KEY,
      env: { HOST: '127.0.0.2', MAX_CONNECTIONS_PER_IP: '4', REQUEST_TIMEOUT_MS: '3000' },
    });
  });

  afterAll(async () => {
    for (const connection of opened) connection.socket.destroy();
    await stop(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('listens on HOST only, and its URLs and short links name that address', async () => {
    // Prepare
    const port = Number(new URL(server.baseUrl).port);

    // Act
    const created = await fetch(`${server.baseUrl}/service/Link/Create?output=json&api=v1&apiKey=${DEMO_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: formBody({ 'data[fullLink]': 'https://example.com/host' }),
    }).then((r) => r.json() as Promise<any>);

    // Assess
    expect(server.baseUrl).toBe(`http://127.0.0.2:${port}`);
    expect(created.data.shortLink).toBe(`http://127.0.0.2:${port}/${created.data.code}`);
    await expect(RawConnection.open('127.0.0.1', port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('closes a client connection beyond the limit at once, drops requests that do not arrive in time, then answers that client again', async () => {
    // Prepare: four connections from 127.0.0.7, each answered once (so the server holds
    // all four), then each starting a request whose body never completes
    const { hostname, port } = new URL(server.baseUrl);
    const trickling: RawConnection[] = [];
    for (let i = 0; i < 4; i++) {
      const connection = await RawConnection.open(hostname, Number(port), '127.0.0.7');
      opened.push(connection);
      connection.send('GET /health HTTP/1.1\r\nHost: test\r\n\r\n');
      await connection.received(/\{"status":"ok"\}/);
      startBody(connection, `/service/Link/Create?apiKey=${DEMO_KEY}`, 1000, 'data%5BfullLink%5D=');
      trickling.push(connection);
    }

    // Act: a fifth connection from the same address
    const extra = await RawConnection.attempt(hostname, Number(port), '127.0.0.7');
    opened.push(extra);
    await extra.closed();

    // Assess: it was closed with nothing said while the four were still open
    expect(extra.text).toBe('');
    expect(trickling.map((connection) => connection.isClosed)).toEqual([false, false, false, false]);
    // Another client is served meanwhile.
    expect(await healthFrom(server.baseUrl, '127.0.0.3')).toEqual({ status: 200, body: '{"status":"ok"}' });

    // Assess: the requests that never arrived are dropped (408), and the client is served again
    for (const connection of trickling) {
      await connection.closed();
      expect(connection.text).toMatch(/HTTP\/1\.1 408 /);
    }
    // The server frees a slot once it has seen its connection close, which on a loaded machine
    // may come just after the client saw it: a connection refused meanwhile is tried again.
    let answer: { status: number; body: string } | undefined;
    let refusals = 0;
    await eventually(
      async () => {
        answer = await healthFrom(server.baseUrl, '127.0.0.7').catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ECONNRESET') throw error;
          refusals++;
          return undefined;
        });
        return answer !== undefined;
      },
      { failure: () => `127.0.0.7 was still refused after ${refusals} tries` },
    );
    expect(answer).toEqual({ status: 200, body: '{"status":"ok"}' });
  });
});

describe('aborted requests and stopping (bin/serve.ts)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shortsms-stop-'));
  let server: { child: ChildProcess; output: string[]; baseUrl: string };

  beforeAll(async () => {
    server = await startServer(dataDir, { demoApiKey: DEMO_KEY });
  });

  afterAll(async () => {
    await stop(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs a request its client abandons mid-body as one WARN line, without a stack', async () => {
    // Prepare: two requests that reach the server (it answers 100-continue) and then lose their client
    const { hostname, port } = new URL(server.baseUrl);
    const closedMidBody = await RawConnection.open(hostname, Number(port));
    const resetMidBody = await RawConnection.open(hostname, Number(port));
    for (const connection of [closedMidBody, resetMidBody]) {
      connection.send(`POST /service/Link/Create?apiKey=${DEMO_KEY} HTTP/1.1\r\nHost: test\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n`);
      await connection.received(/100 Continue/);
      connection.send('data%5BfullLink%5D=');
    }

    // Act
    closedMidBody.socket.destroy();
    resetMidBody.socket.resetAndDestroy();

    // Assess: one short JSON warning each (the count is checked again once the process has exited)
    await waitFor(() => logLines(server.output, 'WARN').length >= 2);
    for (const line of logLines(server.output, 'WARN')) {
      expect(JSON.parse(line)).toEqual({
        level: 'WARN',
        message: expect.stringMatching(/abandoned/),
        method: 'POST',
        path: '/service/Link/Create',
      });
    }
  });

  it('on SIGTERM closes idle connections, refuses new ones, lets a request in flight finish, then exits 0', async () => {
    // Prepare: an idle keep-alive connection, and a request whose body is half sent
    const { hostname, port } = new URL(server.baseUrl);
    const idle = await RawConnection.open(hostname, Number(port));
    idle.send('GET /health HTTP/1.1\r\nHost: test\r\n\r\n');
    await idle.received(/\{"status":"ok"\}/);
    const body = formBody({ 'data[fullLink]': 'https://example.com/in-flight' });
    const inFlight = await RawConnection.open(hostname, Number(port));
    inFlight.send(
      `POST /service/Link/Create?output=json&api=v1&apiKey=${DEMO_KEY} HTTP/1.1\r\nHost: test\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await inFlight.received(/100 Continue/);
    inFlight.send(body.slice(0, 10));
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));

    // Act
    server.child.kill('SIGTERM');
    await waitFor(() => server.output.join('').includes('Stopping (SIGTERM)'));

    // Assess: the idle connection is closed and nobody new gets in
    await idle.closed();
    await expect(RawConnection.open(hostname, Number(port))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(inFlight.isClosed).toBe(false);

    // Act: the rest of the body arrives
    inFlight.send(body.slice(10));

    // Assess: the request is answered in full, on a connection that then closes, and the process exits cleanly
    await inFlight.received(/"code":0.*\}$/s);
    const [head, answer] = inFlight.text.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '').split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 200 /m);
    expect(head).toMatch(/^connection: close$/im);
    expect(JSON.parse(answer)).toMatchObject({ code: 0, data: { id: expect.any(Number), code: expect.any(String) } });
    await inFlight.closed();
    expect(await exited).toBe(0);
    // Nothing else was logged as a warning or failure: one WARN line per abandoned request.
    expect(logLines(server.output, 'WARN')).toHaveLength(2);
    expect(logLines(server.output, 'ERROR')).toEqual([]);
    expect(server.output.join('')).not.toMatch(/^\s+at /m);
  });
});

describe('GET /health and the connection ceiling (the HTTP server in this process)', () => {
  let blackHole: Server;
  let http: HttpServer | undefined;

  beforeAll(async () => {
    // A "store" that accepts connections and never answers.
    blackHole = createServer(() => undefined);
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', () => resolve()));
  });

  afterEach(async () => {
    await http?.close(0);
    http = undefined;
  });

  afterAll(async () => {
    blackHole.close();
  });

  const settings = { host: '127.0.0.1', port: 0, maxConnectionsPerIp: 0, maxConnections: 100, requestTimeoutMs: 30_000 };

  it('answers 503 with the reason when the store does not answer', async () => {
    // Prepare
    const { port } = blackHole.address() as { port: number };
    const store = createStore({ tableName: 'shortsms', region: 'us-east-1', dynamoEndpoint: `http://127.0.0.1:${port}` });
    http = await startHttpServer({ ...settings, health: storeHealthCheck(store, 500) });

    // Act
    const response = await fetch(`http://127.0.0.1:${http.port}/health`);

    // Assess
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'unavailable', reason: 'The store did not answer within 500 ms' });
    store.db.destroy();
  });

  it('does not cut a request whose answer is slow: REQUEST_TIMEOUT_MS bounds only its arrival', async () => {
    // Prepare: an answer that takes longer than the request timeout and a check interval together
    const slowHealth = () => new Promise<Health>((resolve) => setTimeout(() => resolve({ status: 'ok' }), 2500));
    http = await startHttpServer({ ...settings, requestTimeoutMs: 1000, health: slowHealth });

    // Act
    const response = await fetch(`http://127.0.0.1:${http.port}/health`);

    // Assess
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('closes connections beyond MAX_CONNECTIONS at once, whatever their address', async () => {
    // Prepare
    http = await startHttpServer({ ...settings, maxConnections: 2, health: async () => ({ status: 'ok' }) });
    const held = [await RawConnection.open('127.0.0.1', http.port, '127.0.0.4'), await RawConnection.open('127.0.0.1', http.port, '127.0.0.5')];
    for (const connection of held) {
      connection.send('GET /health HTTP/1.1\r\nHost: test\r\n\r\n');
      await connection.received(/\{"status":"ok"\}/);
    }

    // Act
    const third = await RawConnection.attempt('127.0.0.1', http.port, '127.0.0.6');
    await third.closed();

    // Assess
    expect(third.text).toBe('');
    expect(held.map((connection) => connection.isClosed)).toEqual([false, false]);
    for (const connection of held) connection.socket.destroy();
  });
});

/** Polls `condition` (log output of another process, which has no event to wait on) for up to WITHIN. */
async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + WITHIN;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${WITHIN} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
