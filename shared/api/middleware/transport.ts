import { type ParsedUrlQuery, parse as parseQueryString } from 'node:querystring';
import type middy from '@middy/core';
import qs from 'qs';
import { AppError } from '../../domain/errors';
import { echo, type Params } from '../params';
import type { ApiEvent, ApiResult } from '../types';

export const API_VERSIONS = ['v1'];
export const OUTPUT_FORMATS = ['json', 'xml'];
/** Far above any legitimate request (2,000-character URLs, 100 ids); keeps memory bounded. */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * node:querystring, which reads the body (@middy/http-urlencode-body-parser) and the query
 * string, keeps only the first 1,000 `&`-separated pairs and drops the rest without a word.
 */
export const MAX_PARAMETERS = 1000;

/** `output` (json/xml, else code 6) and `api` (v1, else code 12), from the query string. */
export function apiVersion(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const apiVersionBefore: middy.MiddlewareFn<ApiEvent, ApiResult> = async (request) => {
    const given = queryParameter(request.event, 'output');
    const output = given?.toLowerCase() ?? 'json';
    if (!OUTPUT_FORMATS.includes(output)) throw new AppError('unknownOutput', `Unknown output format: ${echo(given ?? '')}`);
    const api = queryParameter(request.event, 'api') ?? 'v1';
    if (!API_VERSIONS.includes(api)) throw new AppError('limit', `Unsupported API version: ${echo(api)}; use v1`);
  };
  return { before: apiVersionBefore };
}

/**
 * One query string parameter as PHP reads it: its last value. Read from rawQueryString,
 * since API Gateway joins a repeated parameter's values with commas in
 * queryStringParameters (`output=json&output=xml` would read as `json,xml`).
 */
export function queryParameter(event: Pick<ApiEvent, 'rawQueryString'>, name: string): string | undefined {
  const value = parseQueryString(event.rawQueryString ?? '', undefined, undefined, { maxKeys: 0 })[name];
  return Array.isArray(value) ? value.at(-1) : value;
}

/** Refuses bodies over MAX_BODY_BYTES with code 12 before anything parses them. */
export function bodyLimit(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const bodyLimitBefore: middy.MiddlewareFn<ApiEvent, ApiResult> = async (request) => {
    const { body, isBase64Encoded } = request.event;
    if (typeof body !== 'string') return;
    const bytes = isBase64Encoded ? Math.floor((body.length * 3) / 4) : Buffer.byteLength(body);
    if (bytes > MAX_BODY_BYTES) throw new AppError('limit', `The request body is larger than ${MAX_BODY_BYTES} bytes`);
  };
  return { before: bodyLimitBefore };
}

/**
 * Refuses a body or query string with more pairs than the parser reads (code 12), so a
 * long `ids[]` list is never cut short in silence.
 */
export function parameterLimit(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const parameterLimitBefore: middy.MiddlewareFn<ApiEvent, ApiResult> = async (request) => {
    const { body, isBase64Encoded, rawQueryString } = request.event;
    // Multipart bodies count their parts as they are read (multipartBody); other bodies are not read.
    const isForm = URLENCODED.test(request.event.headers?.['content-type'] ?? '');
    const form = isForm && typeof body === 'string' ? (isBase64Encoded ? Buffer.from(body, 'base64').toString() : body) : '';
    if (pairCount(form) > MAX_PARAMETERS || pairCount(rawQueryString ?? '') > MAX_PARAMETERS) {
      throw new AppError('limit', `A request may carry at most ${MAX_PARAMETERS} parameters in its body and as many in its query string`);
    }
  };
  return { before: parameterLimitBefore };
}

/** Pairs as node:querystring counts them toward its limit: every `&`-separated piece. */
function pairCount(form: string): number {
  if (form === '') return 0;
  let pairs = 1;
  for (let at = form.indexOf('&'); at !== -1; at = form.indexOf('&', at + 1)) pairs++;
  return pairs;
}

const URLENCODED = /^application\/x-www-form-urlencoded\s*(;|$)/;
const MULTIPART = /^multipart\/form-data\s*(;|$)/;

/**
 * Media types are case-insensitive, the body parsers' patterns are not: they would skip a
 * form sent as `Application/X-WWW-Form-Urlencoded`. This lowercases the media type, and
 * names the header `content-type` for the checks and parsers after it.
 */
export function formContentType(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const formContentTypeBefore: middy.MiddlewareFn<ApiEvent, ApiResult> = async (request) => {
    const headers = request.event.headers;
    const name = headers && Object.keys(headers).find((header) => header.toLowerCase() === 'content-type');
    const value = name === undefined ? undefined : headers[name];
    if (name === undefined || value === undefined) return;
    delete headers[name];
    headers['content-type'] = value.replace(/^[^;]*/, (mediaType) => mediaType.trim().toLowerCase());
  };
  return { before: formContentTypeBefore };
}

/**
 * Reads a `multipart/form-data` body (what PHP's curl sends for an array of fields) into
 * the same flat name → value pairs as a URL-encoded form, so bracket names and the
 * parameter limit work alike. A file part is refused (code 1): no parameter takes a file.
 * @middy/http-multipart-body-parser is not used: it folds `data[fullLink]` into `data`.
 * API Gateway hands this body over base64-encoded, the local server as text.
 */
export function multipartBody(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const multipartBodyBefore: middy.MiddlewareFn<ApiEvent, ApiResult> = async (request) => {
    const { event } = request;
    const contentType = event.headers?.['content-type'] ?? '';
    if (!MULTIPART.test(contentType) || typeof event.body !== 'string') return;
    event.body = await readMultipart(Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8'), contentType);
  };
  return { before: multipartBodyBefore };
}

/**
 * Node's own multipart reader (the Fetch API's `formData()`), which every runtime from
 * Node 18 on carries: a parser library bundled instead would add about 27 KB to every API
 * function. The body is at most MAX_BODY_BYTES here (bodyLimit runs first).
 */
async function readMultipart(body: Buffer, contentType: string): Promise<ParsedUrlQuery> {
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    const message = 'The request body is not a valid multipart form';
    throw new AppError('invalid', message, { body: [message] });
  }
  const fields: ParsedUrlQuery = Object.create(null);
  const files: string[] = [];
  let parts = 0;
  for (const [name, value] of form) {
    if (++parts > MAX_PARAMETERS) {
      throw new AppError('limit', `A request may carry at most ${MAX_PARAMETERS} parameters in its body and as many in its query string`);
    }
    if (typeof value !== 'string') {
      files.push(name);
      continue;
    }
    const earlier = fields[name];
    fields[name] = earlier === undefined ? value : [...(Array.isArray(earlier) ? earlier : [earlier]), value];
  }
  if (files.length > 0) {
    const message = 'Files are not accepted; send each parameter as a text field';
    throw new AppError('invalid', message, Object.fromEntries(files.map((name) => [name, [message]])));
  }
  return { ...fields };
}

/**
 * Expands PHP bracket syntax (`ids[]`, `ids[0]`, `data[fullLink]`, nested arrays) with qs,
 * over the query string and the body the form parsers decoded into flat pairs. As in
 * PHP, a name given more than once keeps its last value unless it has `[]`, which
 * appends; body parameters win over query parameters of the same name.
 */
export function bracketParams(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const bracketParamsBefore: middy.MiddlewareFn<ApiEvent, ApiResult> = async (request) => {
    const { event } = request;
    const fromQuery = expand(parseQueryString(event.rawQueryString ?? ''));
    const fromBody = typeof event.body === 'object' && event.body !== null ? expand(event.body as ParsedUrlQuery) : {};
    event.params = { ...fromQuery, ...fromBody };
  };
  return { before: bracketParamsBefore };
}

function expand(flat: ParsedUrlQuery): Params {
  const lastValues = Object.fromEntries(
    Object.entries(flat).map(([name, value]) => [name, Array.isArray(value) && !name.includes('[]') ? value.at(-1) : value]),
  );
  return qs.parse(lastValues as Record<string, string>, {
    depth: 5,
    arrayLimit: 1000,
    parameterLimit: 2000,
    allowPrototypes: false,
  }) as Params;
}

/**
 * The body parser answers a form it cannot read with a 415 error; that is the caller's
 * mistake, so it becomes a validation error (code 1) instead of an internal one.
 */
export function malformedBody(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const malformedBodyOnError: middy.MiddlewareFn<ApiEvent, ApiResult> = async (request) => {
    const error = request.error as { statusCode?: number; message?: string } | null;
    if (error?.statusCode === 415) {
      request.error = new AppError('invalid', 'The request body is not a valid URL-encoded form', {
        body: ['The request body is not a valid URL-encoded form'],
      });
    }
  };
  return { onError: malformedBodyOnError };
}
