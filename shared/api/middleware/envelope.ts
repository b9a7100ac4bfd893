import type middy from '@middy/core';
import { AppError } from '../../domain/errors';
import { count, logger } from '../../telemetry';
import { envelopeResponse, type OutputFormat } from '../envelope';
import { RESULT_CODE, resultCodeOf } from '../result-codes';
import type { ApiEvent, ApiResult } from '../types';
import { queryParameter } from './transport';

/**
 * Wraps what an operation returns in the `{code, data, message}` envelope, and turns
 * every error into one: AppErrors by the result-code table, anything else into code 3
 * with the request id, logged, so no caller ever sees a 5xx or a stack trace.
 */
export function apiEnvelope(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const apiEnvelopeAfter: middy.MiddlewareFn<ApiEvent, ApiResult> = async (request) => {
    request.response = envelopeResponse({ code: RESULT_CODE.success, data: request.response, message: '' }, outputOf(request.event));
  };

  const apiEnvelopeOnError: middy.MiddlewareFn<ApiEvent, ApiResult> = async (request) => {
    const output = outputOf(request.event);
    const error = request.error;
    if (error instanceof AppError) {
      request.response = envelopeResponse({ code: resultCodeOf(error.kind), data: error.fields ?? null, message: error.message }, output);
      return;
    }
    const requestId = request.context?.awsRequestId ?? request.event.requestContext?.requestId ?? 'unknown';
    logger.error('Unexpected error', { requestId, error: describe(error) });
    count('ApiUnexpectedErrors');
    request.response = envelopeResponse({ code: RESULT_CODE.internal, data: null, message: `Unexpected error; request id ${requestId}` }, output);
  };

  return { after: apiEnvelopeAfter, onError: apiEnvelopeOnError };
}

/** The output format the caller asked for (its last `output`), when it is one we speak; JSON otherwise. */
function outputOf(event: ApiEvent): OutputFormat {
  return queryParameter(event, 'output')?.toLowerCase() === 'xml' ? 'xml' : 'json';
}

function describe(error: unknown): unknown {
  return error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : error;
}
