import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as v from 'valibot';
import { parseWith } from '../api/params';
import { type AuditLog, withoutSecrets } from '../domain/audit';
import { AppError, ConflictError } from '../domain/errors';
import type { Operator, OperatorService } from '../domain/operators';
import { errorField, logger } from '../telemetry';
import { type AdminOperation, idFields } from './operation';
import { type AdminErrorCode, dataResponse, errorResponse, type TRANSPORT_STATUS } from './responses';
import { ADMIN_ROUTES, resolveAdmin } from './routes';

type Result = APIGatewayProxyStructuredResultV2;
export type AdminLambda = (event: APIGatewayProxyEventV2, context?: Context) => Promise<Result>;

/** Far above any operator request (a webhook URL is the longest field); keeps memory bounded. */
export const ADMIN_MAX_BODY_BYTES = 16 * 1024;

/** What every operation of the operator API needs besides its own services. */
export interface AdminStackDeps {
  operators: Pick<OperatorService, 'authenticate'>;
  audit: Pick<AuditLog, 'record'>;
}

/** Refused by the transport (method, media type, size), before any operation runs. */
class TransportRefusal extends Error {
  constructor(
    readonly code: keyof typeof TRANSPORT_STATUS,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'TransportRefusal';
  }
}

/**
 * One operation as a Lambda handler, in this order: the method, the operator's token, the
 * input (query parameters, or a JSON body of at most ADMIN_MAX_BODY_BYTES) checked against
 * the operation's schema, the operation. A change (POST) whose input was valid is recorded
 * as an audit entry and a log line, made or refused; an invalid one changes nothing and is
 * logged only. Every error becomes its status from the one table (responses.ts); anything
 * unexpected a 500 with the request id, logged.
 */
export function adminHandler<Deps, Schema extends v.GenericSchema, R>(
  operation: AdminOperation<Deps, Schema, R>,
  deps: Deps,
  stack: AdminStackDeps,
): AdminLambda {
  const method = ADMIN_ROUTES[operation.path];
  return async (event, context) => {
    let operator: Operator | undefined;
    // Once the input is valid, change() records the outcome itself.
    let recorded = false;
    try {
      if (event.requestContext.http.method !== method) throw wrongMethod(method);
      operator = await stack.operators.authenticate(header(event, 'authorization'));
      const raw = method === 'GET' ? queryInput(event) : jsonBody(event);
      const input = parseWith(operation.input, raw) as v.InferOutput<Schema>;
      if (method === 'GET') return dataResponse(await operation.run(input, deps, operator));
      recorded = true;
      return dataResponse(await change(operation, input, deps, operator, stack, origin(event, context)));
    } catch (error) {
      // An invalid change (media type, size, JSON, fields) wrote nothing: a log line says who tried it.
      if (operator && method === 'POST' && !recorded && (error instanceof AppError || error instanceof TransportRefusal)) {
        const outcome = error instanceof AppError ? codeOf(error) : error.code;
        logger.info('Operator change refused', { operator, action: operation.path, outcome, message: error.message, ...origin(event, context) });
      }
      return refusal(error, event, context);
    }
  };
}

/** Runs a change and records it, made or refused. */
async function change<Deps, Schema extends v.GenericSchema, R>(
  operation: AdminOperation<Deps, Schema, R>,
  input: v.InferOutput<Schema>,
  deps: Deps,
  operator: Operator,
  stack: AdminStackDeps,
  where: Origin,
): Promise<R> {
  const entry = { operator, action: operation.path, input: withoutSecrets(input as Record<string, unknown>, operation.secrets ?? []) };
  let result: R;
  try {
    result = await operation.run(input, deps, operator);
  } catch (error) {
    if (error instanceof AppError) {
      await audit(stack, { ...entry, target: target(operation, input, undefined), outcome: codeOf(error), message: error.message }, where);
    }
    throw error;
  }
  await audit(stack, { ...entry, target: target(operation, input, result), outcome: 'ok' }, where);
  return result;
}

function target<Deps, Schema extends v.GenericSchema, R>(
  operation: AdminOperation<Deps, Schema, R>,
  input: v.InferOutput<Schema>,
  result: R | undefined,
) {
  return operation.target ? operation.target(input, result) : idFields(input);
}

/**
 * The entry, then its log line. The change is made by now: an entry that cannot be stored
 * is logged whole at ERROR (the log keeps it) and the operator still gets the answer,
 * so a retry does not make the change twice.
 */
async function audit(stack: AdminStackDeps, change: Parameters<AuditLog['record']>[0], where: Origin): Promise<void> {
  try {
    const entry = await stack.audit.record(change);
    logger.info('Operator change', { audit: entry, ...where });
  } catch (error) {
    logger.error('Operator change not recorded in the audit log', { audit: change, error: errorField(error), ...where });
  }
}

/** Which function and request a log line comes from: the operator API's functions share a log group. */
type Origin = { function?: string; requestId?: string };

function origin(event: APIGatewayProxyEventV2, context: Context | undefined): Origin {
  return { function: context?.functionName, requestId: context?.awsRequestId ?? event.requestContext?.requestId };
}

/** The handler for paths below /admin/ that no operation serves, or with the wrong method. */
export function adminFallbackHandler(): AdminLambda {
  return async (event) => {
    const resolution = resolveAdmin(event.rawPath, event.requestContext.http.method);
    if (resolution.kind === 'wrongMethod') return refusal(wrongMethod(resolution.allow), event);
    return errorResponse('notFound', `No operator API operation at ${event.rawPath.slice(0, 200)}`);
  };
}

function wrongMethod(allow: string): TransportRefusal {
  return new TransportRefusal('methodNotAllowed', `This operation takes ${allow} only`, { allow });
}

function refusal(error: unknown, event: APIGatewayProxyEventV2, context?: Context): Result {
  if (error instanceof TransportRefusal) return errorResponse(error.code, error.message, undefined, error.headers);
  if (error instanceof AppError && error.kind !== 'internal') return errorResponse(codeOf(error), error.message, error.fields);
  const requestId = context?.awsRequestId ?? event.requestContext?.requestId ?? 'unknown';
  logger.error('Unexpected error', { requestId, function: context?.functionName, path: event.rawPath, error: errorField(error) });
  return errorResponse('internal', `Unexpected error; request id ${requestId}`);
}

/** The answer's code for a domain error: its kind, or `conflict` for a ConflictError. */
function codeOf(error: AppError): Exclude<AdminErrorCode, keyof typeof TRANSPORT_STATUS> {
  return error instanceof ConflictError ? 'conflict' : error.kind;
}

function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const headers = event.headers ?? {};
  const found = Object.keys(headers).find((key) => key.toLowerCase() === name);
  return found === undefined ? undefined : headers[found];
}

/** Query parameters as a flat object; a repeated one keeps its last value. */
function queryInput(event: APIGatewayProxyEventV2): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(event.rawQueryString ?? ''));
}

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

function jsonBody(event: APIGatewayProxyEventV2): unknown {
  if (!JSON_MEDIA_TYPE.test(header(event, 'content-type')?.trim() ?? '')) {
    throw new TransportRefusal('unsupportedMediaType', 'Send the body as JSON, with Content-Type: application/json');
  }
  const body = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8');
  if (bytes.length > ADMIN_MAX_BODY_BYTES) throw new TransportRefusal('tooLarge', `The request body is larger than ${ADMIN_MAX_BODY_BYTES} bytes`);
  // What transport could not read as UTF-8 arrives as U+FFFD (as the public API's text() refuses it).
  const text = new TextDecoder('utf-8').decode(bytes);
  if (text.includes('\ufffd'))
    throw new AppError('invalid', 'The request body is not valid UTF-8', { body: ['The request body is not valid UTF-8'] });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError('invalid', 'The request body is not valid JSON', { body: ['The request body is not valid JSON'] });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new AppError('invalid', 'The request body must be a JSON object', { body: ['The request body must be a JSON object'] });
  }
  return parsed;
}
