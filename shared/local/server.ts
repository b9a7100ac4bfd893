import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ADMIN_FALLBACK, ADMIN_PREFIX, resolveAdmin } from '../admin/routes';
import { MAX_BODY_BYTES } from '../api/middleware/transport';
import { resolveOperation } from '../api/routes';
import type { ServerSettings } from '../config';
import { KANNEL_REPORT_PATH } from '../sms/kannel';
import { answerClientError } from './client-errors';
import { limitConnectionsPerAddress } from './connection-limit';
import type { Health } from './health';
import { headlines, toEvent } from './http-event';
import { lambdaContext } from './lambda-context';
import { isStaticPath, serveStatic } from './static';

// biome-ignore lint/suspicious/noConfusingVoidType: the shape of aws-lambda's handler types, which a handler returning nothing satisfies.
type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2 | void>;

const EMPTY = Buffer.alloc(0);

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
  server.on('clientError', answerClientError);
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
  if (isStaticPath(path)) return serveStatic(res, path, method);
  let handlerName: string;
  if (isServicePath(path)) {
    const resolution = resolveOperation(path);
    handlerName = resolution.kind === 'operation' ? resolution.handler : 'api-fallback';
  } else if (path.startsWith(ADMIN_PREFIX)) {
    const resolution = resolveAdmin(path, method);
    handlerName = resolution.kind === 'operation' ? resolution.handler : ADMIN_FALLBACK;
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
