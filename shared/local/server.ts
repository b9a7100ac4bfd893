import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import { MAX_BODY_BYTES } from '../api/middleware/transport';
import { resolveOperation } from '../api/routes';
import { KANNEL_REPORT_PATH } from '../sms/kannel';
import { sequentialIds } from './ids';
import { lambdaContext } from './lambda-context';

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2 | void>;

const EMPTY = Buffer.alloc(0);
const nextRequestId = sequentialIds();

/**
 * The local runtime's HTTP front: one Node server that maps the API Gateway routes to
 * the same handler modules Lambda runs, with the same payload-2.0 events, plus the
 * short-link paths and /health on the same port.
 */
export async function startHttpServer(options: { port: number; host?: string }): Promise<{ server: Server; port: number }> {
  const handlers = new Map<string, LambdaHandler>();
  const load = async (name: string) => {
    const handler = ((await import(`../../functions/${name}`)) as { handler: LambdaHandler }).handler;
    handlers.set(name, handler);
    return handler;
  };

  const server = createServer((req, res) => {
    dispatch(req, res, handlers, load).catch((error: unknown) => fail(res, error));
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}

function fail(res: ServerResponse, error: unknown): void {
  console.error(JSON.stringify({ level: 'ERROR', message: 'Local server failure', error: String((error as Error)?.stack ?? error) }));
  if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
  res.end('Internal error');
}

async function dispatch(
  req: IncomingMessage,
  res: ServerResponse,
  handlers: ReadonlyMap<string, LambdaHandler>,
  load: (name: string) => Promise<LambdaHandler>,
): Promise<void> {
  const target = req.url ?? '/';
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  const rawQueryString = queryAt === -1 ? '' : target.slice(queryAt + 1);
  const method = req.method ?? 'GET';
  if (path === '/health') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
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
  writeResult(res, result, method === 'HEAD');
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

function writeResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2, head: boolean): void {
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : undefined;
  // The result is the server's once the handler returned it: its headers object is reused.
  const headers: Record<string, string | number | boolean> = result.headers ?? {};
  headers['content-length'] = body?.length ?? 0;
  res.writeHead(result.statusCode ?? 200, headers as Record<string, string | number>);
  // One write for headers and body together (an empty chunk would cost a second one).
  res.end(head ? undefined : body);
}
