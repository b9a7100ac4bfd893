import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import ipaddr from 'ipaddr.js';
import { MAX_BODY_BYTES } from '../api/middleware/transport';
import { resolveOperation } from '../api/routes';
import type { ServerSettings } from '../config';
import { KANNEL_REPORT_PATH } from '../sms/kannel';
import type { Health } from './health';
import { sequentialIds } from './ids';
import { lambdaContext } from './lambda-context';

// biome-ignore lint/suspicious/noConfusingVoidType: the shape of aws-lambda's handler types, which a handler returning nothing satisfies.
type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2 | void>;

const EMPTY = Buffer.alloc(0);
const nextRequestId = sequentialIds();

/**
 * How long an idle keep-alive connection stays open: longer than the 60 s after which
 * proxies and load balancers drop idle ones, so they close first and never reuse a
 * connection this server has just closed. Idle connections count toward the limits.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** How long the headers may take: a client sends them at once, so only a slow-loris takes longer. */
const HEADERS_TIMEOUT_MS = 10_000;
/** How often Node looks for requests past their time; its default (30 s) would let them linger. */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

export interface HttpServerOptions extends ServerSettings {
  /** What /health reports: the store's state once the runtime is up. */
  health: () => Promise<Health>;
}

export interface HttpServer {
  server: Server;
  port: number;
  /**
   * Stops accepting connections and closes idle ones at once; requests in flight get up to
   * `graceMs` to finish (their answers close their connections), then every connection closes.
   */
  close(graceMs: number): Promise<void>;
}

/**
 * The local runtime's HTTP front: one Node server that maps the API Gateway routes to
 * the same handler modules Lambda runs, with the same payload-2.0 events, plus the
 * short-link paths and /health on the same port.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const handlers = new Map<string, LambdaHandler>();
  const load = async (name: string) => {
    const handler = ((await import(`../../functions/${name}`)) as { handler: LambdaHandler }).handler;
    handlers.set(name, handler);
    return handler;
  };
  const lifecycle: Lifecycle = { stopping: false, health: options.health };

  const server = createServer(
    {
      // Node drops a request whose headers and body have not all arrived in time (408);
      // a slow answer is not the client's doing and is never cut.
      requestTimeout: options.requestTimeoutMs,
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, options.requestTimeoutMs),
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    },
    (req, res) => {
      dispatch(req, res, handlers, load, lifecycle).catch((error: unknown) => fail(req, res, error));
    },
  );
  server.maxConnections = options.maxConnections;
  if (options.maxConnectionsPerIp > 0) limitConnectionsPerAddress(server, options.maxConnectionsPerIp);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    async close(graceMs) {
      lifecycle.stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(deadline);
    },
  };
}

interface Lifecycle {
  /** Set once the server stops: every answer from then on closes its connection. */
  stopping: boolean;
  health: () => Promise<Health>;
}

/**
 * Closes a client's connections beyond `limit` as soon as they open, so one client cannot
 * take every file descriptor. An IPv4 client reaching an IPv6 socket counts as itself.
 */
function limitConnectionsPerAddress(server: Server, limit: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = clientAddress(socket);
    const count = address === undefined ? limit : (open.get(address) ?? 0);
    if (address === undefined || count >= limit) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      // biome-ignore lint/style/noNonNullAssertion: counted above when the connection opened.
      const left = open.get(address)! - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/** The client's address, IPv4-mapped IPv6 as plain IPv4; undefined once the socket is gone. */
function clientAddress(socket: Socket): string | undefined {
  const address = socket.remoteAddress;
  if (address === undefined) return undefined;
  return ipaddr.isValid(address) ? ipaddr.process(address).toString() : address;
}

/**
 * A client that went away before its request arrived in full (closed, reset, or dropped
 * for taking too long) is a warning of one line; anything else is a failure of ours.
 */
function fail(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (!req.complete && (req.destroyed || (error as NodeJS.ErrnoException)?.code === 'ECONNRESET')) {
    const path = req.url?.split('?', 1)[0];
    console.warn(JSON.stringify({ level: 'WARN', message: 'Request abandoned by the client before it arrived in full', method: req.method, path }));
    res.destroy();
    return;
  }
  console.error(JSON.stringify({ level: 'ERROR', message: 'Local server failure', error: String((error as Error)?.stack ?? error) }));
  if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
  res.end('Internal error');
}

async function dispatch(
  req: IncomingMessage,
  res: ServerResponse,
  handlers: ReadonlyMap<string, LambdaHandler>,
  load: (name: string) => Promise<LambdaHandler>,
  lifecycle: Lifecycle,
): Promise<void> {
  const target = req.url ?? '/';
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  const rawQueryString = queryAt === -1 ? '' : target.slice(queryAt + 1);
  const method = req.method ?? 'GET';
  if (lifecycle.stopping) res.setHeader('connection', 'close');
  if (path === '/health') {
    const health = await lifecycle.health();
    res.writeHead(health.status === 'ok' ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify(health));
    return;
  }
  let handlerName: string;
  if (isServicePath(path)) {
    const resolution = resolveOperation(path);
    handlerName = resolution.kind === 'operation' ? resolution.handler : 'api-fallback';
  } else if (path === KANNEL_REPORT_PATH && (method === 'GET' || method === 'POST')) {
    handlerName = 'kannel-report';
  } else if (method === 'GET' || method === 'HEAD') {
    handlerName = 'redirect';
  } else {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const head = headlines(req.rawHeaders);
  // Most short-link requests carry no body: they skip the stream machinery.
  const event = toEvent(req, head, path, rawQueryString, head.hasBody ? await readBody(req) : EMPTY);
  const handler = handlers.get(handlerName) ?? (await load(handlerName));
  const result = (await handler(event, lambdaContext(handlerName, event.requestContext.requestId))) ?? {};
  writeResult(res, result, method === 'HEAD', lifecycle.stopping);
}

/** Reads at most MAX_BODY_BYTES + 1 bytes (enough for the handler to refuse it) and drains the rest. */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let kept = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (kept > MAX_BODY_BYTES) continue;
    const room = MAX_BODY_BYTES + 1 - kept;
    chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    kept += Math.min(chunk.length, room);
  }
  return Buffer.concat(chunks);
}

/** `/service` or `/service/…`, in any letter case. */
function isServicePath(path: string): boolean {
  return path.length >= 8 && (path.length === 8 || path.charCodeAt(8) === 47) && path.slice(1, 8).toLowerCase() === 'service';
}

interface Headlines {
  host: string;
  userAgent: string;
  hasBody: boolean;
}

/**
 * What routing and the event's request context need, straight from the raw header list:
 * a short-link request then never needs Node's headers object, which is made only when a
 * handler reads the event's headers.
 */
function headlines(raw: string[]): Headlines {
  const found: Headlines = { host: 'localhost', userAgent: '', hasBody: false };
  // biome-ignore-start lint/style/noNonNullAssertion: Node's raw headers come in name, value pairs; i < length.
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    switch (name.length) {
      case 4:
        if (name.toLowerCase() === 'host') found.host = raw[i + 1]!;
        break;
      case 10:
        if (name.toLowerCase() === 'user-agent') found.userAgent = raw[i + 1]!;
        break;
      case 14:
      case 17:
        if (name.toLowerCase() === 'content-length' || name.toLowerCase() === 'transfer-encoding') found.hasBody = true;
        break;
    }
  }
  // biome-ignore-end lint/style/noNonNullAssertion: end of the range above
  return found;
}

function toEvent(req: IncomingMessage, head: Headlines, path: string, rawQueryString: string, body: Buffer): APIGatewayProxyEventV2 {
  // API Gateway joins repeated query parameters with commas.
  const queryStringParameters = rawQueryString
    ? Object.fromEntries(
        Object.entries(parseQueryString(rawQueryString)).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : (value ?? '')]),
      )
    : undefined;
  const now = Date.now();
  return new LocalEvent(req, path, rawQueryString, queryStringParameters, body.length > 0 ? body.toString('utf8') : undefined, {
    accountId: 'local',
    apiId: 'local',
    domainName: head.host,
    domainPrefix: 'local',
    http: {
      method: req.method ?? 'GET',
      path,
      protocol: req.httpVersion === '1.1' ? 'HTTP/1.1' : `HTTP/${req.httpVersion}`,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      userAgent: head.userAgent,
    },
    requestId: nextRequestId(),
    routeKey: '$default',
    stage: '$default',
    time: httpTime(now),
    timeEpoch: now,
  });
}

/** A payload-2.0 event as API Gateway builds it, its headers object made on first read. */
class LocalEvent implements APIGatewayProxyEventV2 {
  readonly version = '2.0';
  readonly routeKey = '$default';
  readonly isBase64Encoded = false;
  #headers: Record<string, string> | undefined;

  constructor(
    private readonly req: IncomingMessage,
    readonly rawPath: string,
    readonly rawQueryString: string,
    readonly queryStringParameters: Record<string, string> | undefined,
    readonly body: string | undefined,
    readonly requestContext: APIGatewayProxyEventV2['requestContext'],
  ) {}

  get headers(): Record<string, string> {
    // biome-ignore lint/suspicious/noAssignInExpressions: made on first read; the redirect path never reads them.
    return (this.#headers ??= joinedHeaders(this.req));
  }

  set headers(headers: Record<string, string>) {
    this.#headers = headers;
  }
}

/**
 * The request's headers by lower-case name. Node joins repeated headers itself except
 * set-cookie, which it gives as an array; API Gateway joins that too.
 */
function joinedHeaders(req: IncomingMessage): Record<string, string> {
  const headers = req.headers;
  if (headers['set-cookie'] === undefined) return headers as Record<string, string>;
  return Object.fromEntries(
    Object.entries(headers).flatMap(([key, value]) => (value === undefined ? [] : [[key, Array.isArray(value) ? value.join(',') : value]])),
  );
}

let timeSecond = -1;
let timeText = '';

/** The request time as text, made once a second. */
function httpTime(now: number): string {
  const second = Math.floor(now / 1000);
  if (second !== timeSecond) {
    timeSecond = second;
    timeText = new Date(second * 1000).toUTCString();
  }
  return timeText;
}

function writeResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2, head: boolean, stopping: boolean): void {
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : undefined;
  // The result is the server's once the handler returned it: its headers object is reused.
  const headers: Record<string, string | number | boolean> = result.headers ?? {};
  headers['content-length'] = body?.length ?? 0;
  // A request that was under way when the server began to stop: the connection ends with it.
  if (stopping) headers.connection = 'close';
  res.writeHead(result.statusCode ?? 200, headers as Record<string, string | number>);
  // One write for headers and body together (an empty chunk would cost a second one).
  res.end(head ? undefined : body);
}
