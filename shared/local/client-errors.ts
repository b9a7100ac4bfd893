import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { envelopeResponse } from '../api/envelope';
import { RESULT_CODE } from '../api/result-codes';

/**
 * What the local server answers a request Node's HTTP parser refuses. An API request whose
 * request line holds raw bytes outside ASCII (UTF-8 text a client did not percent-encode:
 * `GET /service/Message/SendSmsMessage?text=Привет`) gets the API's envelope, HTTP 200 and
 * code 12 saying how to send it, as a percent escape that is not UTF-8 does; the parser
 * cannot read such a request any further, so the connection then closes. Anything else gets
 * what Node itself answers (400, 408 for a request that took too long, 431, 413).
 */
export function answerClientError(error: ParseError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const unencoded = error.code === 'HPE_INVALID_URL' ? unencodedApiRequest(error) : undefined;
  // Requests read before it on the connection (pipelined) are answered first, in order.
  if (unencoded) afterInFlight(socket, () => closeWith(socket, envelopeAnswer(unencoded)));
  // As Node does: a response already under way on this connection would be corrupted by another.
  else if (inFlight(socket)?.headersSent) socket.destroy();
  else closeWith(socket, `HTTP/1.1 ${NODE_ANSWERS[error.code ?? ''] ?? '400 Bad Request'}\r\nConnection: close\r\n\r\n`);
}

/** How long a connection answered here may stay half-closed before it is closed outright. */
const LINGER_MS = 5_000;

/** Sends the answer and closes the connection: at once once the client closes its side, within LINGER_MS if it does not (a slow-loris keeps nothing open). */
function closeWith(socket: Socket, answer: string | Buffer): void {
  socket.end(answer);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

type Connection = Socket & { _httpMessage?: ServerResponse | null };

/** The response the server is writing on the connection, if any (Node keeps it there). */
const inFlight = (socket: Socket) => (socket as Connection)._httpMessage ?? undefined;

/** Runs `then` once no response is under way on the connection (each pipelined one attaches after the one before). */
function afterInFlight(socket: Socket, then: () => void): void {
  const response = inFlight(socket);
  if (!response || socket.destroyed) {
    then();
    return;
  }
  let done = false;
  const next = () => {
    if (done) return;
    done = true;
    setImmediate(() => afterInFlight(socket, then));
  };
  response.once('finish', next).once('close', next);
}

const NODE_ANSWERS: Record<string, string> = {
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
};

/** `<METHOD> /service…` then the rest of the line: a request line that names an API operation. */
const API_REQUEST_LINE = /^[A-Z]{3,7} \/service(?:[/?\s]|$)/i;

/** What Node's parser tells of an error: the bytes it was reading, and how far it got in them. */
type ParseError = NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number };

/**
 * The output format the refused request line asks for, when it is an API call's holding a
 * byte above 0x7F: the line the parser stopped in (requests before it on the connection,
 * pipelined in the same packet, were read already). A line begun in an earlier packet is
 * not whole here, and gets Node's answer.
 */
function unencodedApiRequest({ rawPacket: packet, bytesParsed }: ParseError): { output: 'json' | 'xml' } | undefined {
  if (!packet) return undefined;
  const stoppedAt = Math.min(bytesParsed ?? 0, packet.length);
  const before = stoppedAt === 0 ? -1 : packet.lastIndexOf('\r\n', stoppedAt - 1);
  const lineStart = before === -1 ? 0 : before + 2;
  const lineEnd = packet.indexOf('\r\n', lineStart);
  const line = packet.subarray(lineStart, lineEnd === -1 ? packet.length : lineEnd);
  if (!line.some((byte) => byte > 0x7f) || !API_REQUEST_LINE.test(line.toString('latin1'))) return undefined;
  return { output: /[?&]output=xml(?:[&\s]|$)/i.test(line.toString('latin1')) ? 'xml' : 'json' };
}

function envelopeAnswer({ output }: { output: 'json' | 'xml' }): Buffer {
  const message =
    'The request line holds characters that are not percent-encoded: send text outside ASCII in a URL as its UTF-8 bytes in %XX escapes (Привет as %D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82), or in a form body';
  const result = envelopeResponse({ code: RESULT_CODE.limit, data: null, message }, output);
  const body = Buffer.from(result.body ?? '');
  const headers = Object.entries(result.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`);
  return Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\n${headers.join('')}content-length: ${body.length}\r\nconnection: close\r\n\r\n`), body]);
}
