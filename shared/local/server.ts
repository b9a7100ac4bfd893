import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import { MAX_BODY_BYTES } from '../api/middleware/transport';
import { resolveOperation } from '../api/routes';
import { lambdaContext } from './lambda-context';

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2 | void>;

const EMPTY = Buffer.alloc(0);

/**
 * The local runtime's HTTP front: one Node server that maps the API Gateway routes to
 * the same handler modules Lambda runs, with the same payload-2.0 events, plus the
 * short-link paths and /health on the same port.
 */
export async function startHttpServer(options: { port: number; host?: string }): Promise<{ server: Server; port: number }> {
  const handlers = new Map<string, LambdaHandler>();
  const load = async (name: string) => {
    let handler = handlers.get(name);
    if (!handler) {
      handler = ((await import(`../../functions/${name}`)) as { handler: LambdaHandler }).handler;
      handlers.set(name, handler);
    }
    return handler;
  };

  const server = createServer((req, res) => void route(req, res, load));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}

async function route(req: IncomingMessage, res: ServerResponse, load: (name: string) => Promise<LambdaHandler>): Promise<void> {
  try {
    await dispatch(req, res, load);
  } catch (error) {
    console.error(JSON.stringify({ level: 'ERROR', message: 'Local server failure', error: String((error as Error)?.stack ?? error) }));
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('Internal error');
  }
}

async function dispatch(req: IncomingMessage, res: ServerResponse, load: (name: string) => Promise<LambdaHandler>): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://local');
  const method = req.method ?? 'GET';
  if (url.pathname === '/health') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  let handlerName: string;
  if (/^\/service(\/|$)/i.test(url.pathname)) {
    const resolution = resolveOperation(url.pathname);
    handlerName = resolution.kind === 'operation' ? resolution.handler : 'api-fallback';
  } else if (method === 'GET' || method === 'HEAD') {
    handlerName = 'redirect';
  } else {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  // Most short-link requests carry no body: they skip the stream machinery.
  const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  const event = toEvent(req, url, hasBody ? await readBody(req) : EMPTY);
  const handler = await load(handlerName);
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

function toEvent(req: IncomingMessage, url: URL, body: Buffer): APIGatewayProxyEventV2 {
  const rawQueryString = url.search.replace(/^\?/, '');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  // API Gateway joins repeated query parameters with commas.
  const queryStringParameters = rawQueryString
    ? Object.fromEntries(
        Object.entries(parseQueryString(rawQueryString)).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : (value ?? '')]),
      )
    : undefined;
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString,
    headers,
    queryStringParameters,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    body: body.length > 0 ? body.toString('utf8') : undefined,
    isBase64Encoded: false,
  };
}

function writeResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2, head: boolean): void {
  const body = result.body === undefined ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  const headers: Record<string, string | number | boolean> = { ...(result.headers ?? {}) };
  headers['content-length'] = body.length;
  res.writeHead(result.statusCode ?? 200, headers as Record<string, string>);
  // One write for headers and body together (an empty chunk would cost a second one).
  res.end(head || body.length === 0 ? undefined : body);
}
