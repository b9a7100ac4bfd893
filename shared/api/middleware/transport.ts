import type middy from '@middy/core';
import { parse as parseQueryString } from 'node:querystring';
import qs from 'qs';
import { AppError } from '../../domain/errors';
import type { Params } from '../params';
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
    const query = request.event.queryStringParameters ?? {};
    const output = query.output?.toLowerCase() ?? 'json';
    if (!OUTPUT_FORMATS.includes(output)) throw new AppError('unknownOutput', `Unknown output format: ${query.output}`);
    const api = query.api ?? 'v1';
    if (!API_VERSIONS.includes(api)) throw new AppError('limit', `Unsupported API version: ${api}; use v1`);
  };
  return { before: apiVersionBefore };
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
    const form = typeof body === 'string' ? (isBase64Encoded ? Buffer.from(body, 'base64').toString() : body) : '';
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

/**
 * Media types are case-insensitive, the body parser's pattern is not: it would skip a
 * form sent as `Application/X-WWW-Form-Urlencoded`. This lowercases the media type.
 */
export function formContentType(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const formContentTypeBefore: middy.MiddlewareFn<ApiEvent, ApiResult> = async (request) => {
    const headers = request.event.headers;
    const name = headers && Object.keys(headers).find((header) => header.toLowerCase() === 'content-type');
    if (!name) return;
    const value = headers[name]!;
    delete headers[name];
    headers['content-type'] = value.replace(/^[^;]*/, (mediaType) => mediaType.trim().toLowerCase());
  };
  return { before: formContentTypeBefore };
}

/**
 * Expands PHP bracket syntax (`ids[]`, `ids[0]`, `data[fullLink]`, nested arrays) with qs,
 * over the query string and the body that @middy/http-urlencode-body-parser decoded into
 * flat pairs. Body parameters win over query parameters of the same name.
 */
export function bracketParams(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const bracketParamsBefore: middy.MiddlewareFn<ApiEvent, ApiResult> = async (request) => {
    const { event } = request;
    const fromQuery = expand(parseQueryString(event.rawQueryString ?? ''));
    const fromBody = typeof event.body === 'object' && event.body !== null ? expand(event.body as Record<string, unknown>) : {};
    event.params = { ...fromQuery, ...fromBody };
  };
  return { before: bracketParamsBefore };
}

function expand(flat: Record<string, unknown>): Params {
  return qs.parse(flat as Record<string, string>, {
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
