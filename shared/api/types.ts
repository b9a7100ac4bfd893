import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Account } from '../domain/accounts';
import type { Params } from './params';

/** An HTTP API (payload 2.0) event as the API middlewares leave it for the operation. */
export type ApiEvent = Omit<APIGatewayProxyEventV2, 'body'> & {
  body?: unknown;
  /** Query string and body parameters, merged and expanded from bracket syntax. */
  params?: Params;
  account?: Account;
};

export type ApiResult = APIGatewayProxyStructuredResultV2;

export interface OperationContext<Deps> {
  params: Params;
  account: Account;
  /** What the operation works with, given by its function entry (functions/*.ts). */
  deps: Deps;
  lambda: Context;
}

/** One API operation: parameters in, the envelope's `data` out. Errors are AppErrors. */
export type Operation<Deps> = (context: OperationContext<Deps>) => Promise<unknown>;
