import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { SmsDispatcher } from '../domain/sms-dispatcher';
import { isValidReportSignature, kannelReportStatus } from './kannel';

/**
 * `GET {DLR_BASE_URL}/dlr/kannel?message=…[&part=…]&sig=…&type=%d&answer=%A&fid=%F&ts=%T`:
 * Kannel's delivery reports, on a message or on one part of a concatenated one. The
 * signature (an HMAC of the message id, and part, with DLR_SECRET, made when the message
 * was submitted) authenticates the caller; a report moves the message only forward, so
 * repeated and out-of-order reports change nothing further along.
 *
 * 200 taken (also a repeat, or a report that changes nothing); 400 malformed; 403 bad
 * signature; 404 no such message from this gateway. Nothing is written unless it is 200.
 */
export async function kannelReport(
  event: APIGatewayProxyEventV2,
  deps: { dispatcher: SmsDispatcher; secret: (() => Promise<string>) | undefined; clock: () => Date },
): Promise<APIGatewayProxyStructuredResultV2> {
  const query = event.queryStringParameters ?? {};
  if (!deps.secret) return text(404, "Kannel is not this service's gateway");
  const messageId = Number(query.message);
  const type = Number(query.type);
  // A concatenated message sent part by part has a dlr-url per part.
  const part = query.part === undefined ? undefined : Number(query.part);
  if (!Number.isSafeInteger(messageId) || messageId <= 0 || !query.sig || !Number.isInteger(type)) {
    return text(400, 'Expected message, sig and a numeric type');
  }
  if (part !== undefined && !(Number.isSafeInteger(part) && part >= 1)) return text(400, 'part must be a part number from 1');
  if (!isValidReportSignature(await deps.secret(), messageId, query.sig, part)) return text(403, 'Bad signature');
  const status = kannelReportStatus(type, query.answer ?? '');
  const seconds = Number(query.ts);
  const at = Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : deps.clock();
  // %F: the SMSC's id, as Kannel passes it on (its msg-id-type setting decides hex or decimal)
  const smscMessageId = query.fid?.trim() || undefined;
  const known = await deps.dispatcher.reportForMessage({ messageId, gateway: 'kannel', status, at, part, smscMessageId });
  if (!known) return text(404, 'No such message from this gateway');
  return text(200, status === undefined ? 'OK (no status change)' : 'OK');
}

function text(statusCode: number, body: string): APIGatewayProxyStructuredResultV2 {
  return { statusCode, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, body };
}
