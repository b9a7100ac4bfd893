import type middy from '@middy/core';
import type { RateLimiter } from '../../domain/rate-limit';
import type { ApiEvent, ApiResult } from '../types';

/** Code 30 when the calling account is over its request rate; runs after apiKeyAuth, before any work. */
export function accountRateLimit(limiter: Pick<RateLimiter, 'admit'>): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const accountRateLimitBefore: middy.MiddlewareFn<ApiEvent, ApiResult> = (request) => {
    const account = request.event.account;
    if (!account) throw new Error('accountRateLimit runs after apiKeyAuth');
    limiter.admit(account);
  };
  return { before: accountRateLimitBefore };
}
