import type middy from '@middy/core';
import type { AccountService } from '../../domain/account-service';
import type { ApiEvent, ApiResult } from '../types';

/** Resolves `apiKey` to the calling account: code 8 when missing, unknown or revoked; 14 when blocked. */
export function apiKeyAuth(accounts: Pick<AccountService, 'authenticate'>): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const apiKeyAuthBefore: middy.MiddlewareFn<ApiEvent, ApiResult> = async (request) => {
    const key = request.event.params?.apiKey;
    request.event.account = await accounts.authenticate(typeof key === 'string' ? key.trim() : key);
  };
  return { before: apiKeyAuthBefore };
}
