import middy from '@middy/core';
import httpUrlencodeBodyParser from '@middy/http-urlencode-body-parser';
import type { Context } from 'aws-lambda';
import { type Config, requireShortLinkBase } from '../config';
import type { AccountService } from '../domain/account-service';
import { AppError } from '../domain/errors';
import type { RateLimiter } from '../domain/rate-limit';
import { apiKeyAuth } from './middleware/auth';
import { apiEnvelope } from './middleware/envelope';
import { accountRateLimit } from './middleware/rate-limit';
import { apiVersion, bodyLimit, bracketParams, formContentType, malformedBody, multipartBody, parameterLimit } from './middleware/transport';
import { echo } from './params';
import { resolveOperation } from './routes';
import type { ApiEvent, ApiResult, Operation } from './types';

/** What the stack around every operation needs: authentication, rate limits, settings. */
export interface ApiStackDeps {
  accounts: Pick<AccountService, 'authenticate'>;
  rateLimits: Pick<RateLimiter, 'admit'>;
  config: Config;
}

/**
 * The middy stack every API operation runs in. Order matters: the envelope wraps
 * everything (its onError runs last), transport checks come before authentication, the
 * account's rate limit right after it (a refused request does no work), and the operation
 * sees merged bracket parameters, the calling account and its `deps`.
 */
export function apiHandler<Deps>(operation: Operation<Deps>, deps: Deps, { accounts, rateLimits, config }: ApiStackDeps) {
  // Every operation answers with or about short links: refuse to start without their base.
  requireShortLinkBase(config);
  return (
    middy<ApiEvent, ApiResult, Error, Context>()
      .use(apiEnvelope())
      .use(malformedBody())
      .use(apiVersion())
      .use(bodyLimit())
      .use(formContentType())
      .use(parameterLimit())
      .use(httpUrlencodeBodyParser({ disableContentTypeError: true }))
      .use(multipartBody())
      .use(bracketParams())
      .use(apiKeyAuth(accounts))
      .use(accountRateLimit(rateLimits))
      // The operation returns the envelope's data; apiEnvelope's `after` makes it the response.
      .handler((event, lambda) => {
        const { params, account } = event;
        if (!params || !account) throw new Error('bracketParams and apiKeyAuth run before the operation');
        return operation({ params, account, deps, lambda }) as Promise<ApiResult>;
      })
  );
}

/**
 * The handler for paths below /service that name no operation: code 4 (module) or 5
 * (method) in the envelope. One chain, built once; the path decides the error.
 */
export function unknownOperationHandler() {
  return middy<ApiEvent, ApiResult, Error, Context>()
    .use(apiEnvelope())
    .handler(async (event) => {
      const resolution = resolveOperation(event.rawPath);
      if (resolution.kind === 'unknownModule') throw new AppError('unknownModule', `Unknown module: ${echo(resolution.name)}`);
      // An operation's own path only lands here when the route table and the stack disagree.
      throw new AppError('unknownMethod', `Unknown method: ${echo(resolution.kind === 'unknownMethod' ? resolution.name : event.rawPath)}`);
    });
}
