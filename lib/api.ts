import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { type CfnStage, HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { allOperations, type OperationHandler } from '../shared/api/routes';
import { ServiceFunction, type ServiceFunctionDefaults, type TableAccess } from './service-function';

/**
 * Least privilege per operation. Keyed by every handler, so a new operation does not
 * type-check until its access is decided here.
 */
const TABLE_ACCESS: Record<OperationHandler, TableAccess> = {
  'link-create': 'readWrite',
  'link-delete': 'readWrite',
  'link-get': 'read',
  'link-get-links': 'read',
  'link-get-stats': 'read',
  'link-list': 'read',
  'link-update': 'readWrite',
  'message-get-sms-status': 'read',
  'message-list': 'read',
  'message-send-sms-message': 'readWrite',
};

/**
 * Packages a handler needs installed rather than bundled: the carrier tables behind
 * Message/List's withNumberInfo are files the package reads from beside its own code.
 */
const NODE_MODULES: Partial<Record<string, string[]>> = {
  'message-list': ['libphonenumber-geo-carrier'],
};

/**
 * Timeouts beyond the 10 s default, sized from `npm run bench:list`: every list call reads
 * about a page, but Message/List's `criteria[to]` found only inside numbers reads every
 * number of the account in pages (about 1,600 read units for 50,000 messages, in
 * proportion beyond), so it gets what the HTTP API allows an integration (30 s).
 */
const TIMEOUTS: Partial<Record<string, Duration>> = {
  'message-list': Duration.seconds(29),
};

/** Requests per second the HTTP API's stage takes, over all callers; beyond it API Gateway answers 429. */
export interface ApiThrottle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/**
 * The stage's default: well above one account's limit (API_RATE_LIMIT, 100 a second) so
 * several busy accounts fit, well below the AWS account's regional quota for all its APIs
 * (10,000 a second), and a ceiling on what a flood of requests (unknown keys included) costs.
 */
export const DEFAULT_API_THROTTLE: ApiThrottle = { rateLimit: 1000, burstLimit: 2000 };

/**
 * `-c apiThrottleRate=N [-c apiThrottleBurst=N]`: the stage throttle (the burst is two
 * seconds' worth unless given, as the default's); `-c apiRateLimit=N`: API_RATE_LIMIT.
 */
export function apiLimitsFromContext(scope: Construct): { apiThrottle?: ApiThrottle; apiRateLimit?: number } {
  const rate = wholeNumber(scope, 'apiThrottleRate');
  const burst = wholeNumber(scope, 'apiThrottleBurst');
  const apiRateLimit = wholeNumber(scope, 'apiRateLimit');
  const rateLimit = rate ?? DEFAULT_API_THROTTLE.rateLimit;
  return {
    ...((rate !== undefined || burst !== undefined) && { apiThrottle: { rateLimit, burstLimit: burst ?? 2 * rateLimit } }),
    ...(apiRateLimit !== undefined && { apiRateLimit }),
  };
}

/** A context value that is a whole number (given on the command line, it arrives as text). */
function wholeNumber(scope: Construct, key: string): number | undefined {
  const value: unknown = scope.node.tryGetContext(key);
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`Context ${key} must be a whole number: ${String(value)}`);
  return parsed;
}

export interface ApiProps extends ServiceFunctionDefaults {
  /** The stage-wide throttle, the outer guard; DEFAULT_API_THROTTLE unless given. */
  readonly throttle?: ApiThrottle;
  /** API_RATE_LIMIT of the operation functions: requests per second per account (per container). */
  readonly accountRateLimit?: number;
}

/**
 * The HTTP API: one function per operation in shared/api/routes.ts, reached by GET and
 * POST on `/service/<Module>/<Method>`, and a fallback for every other path below
 * /service that answers "unknown module/method" in the envelope.
 */
export class Api extends Construct {
  readonly httpApi: HttpApi;
  /** By handler module name (`link-create`, …, `api-fallback`). */
  readonly functions = new Map<string, ServiceFunction>();

  readonly #defaults: ServiceFunctionDefaults;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const { throttle = DEFAULT_API_THROTTLE, accountRateLimit, ...defaults } = props;
    this.#defaults = defaults;
    this.httpApi = new HttpApi(this, 'HttpApi', { description: 'shortsms /service/<Module>/<Method>' });
    // Access logs: one JSON line per request (the API key is in the query string, which is not logged).
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const defaultStage = this.httpApi.defaultStage;
    if (!defaultStage) throw new Error('The HTTP API has no default stage');
    const stage = defaultStage.node.defaultChild as CfnStage;
    stage.accessLogSettings = {
      destinationArn: accessLogs.logGroupArn,
      format: JSON.stringify({
        requestId: '$context.requestId',
        time: '$context.requestTime',
        method: '$context.httpMethod',
        path: '$context.path',
        status: '$context.status',
        latencyMs: '$context.responseLatency',
        integrationError: '$context.integrationErrorMessage',
      }),
    };
    // Every route of the stage, the outer guard in front of each function's per-account
    // buckets (which each container keeps for itself).
    stage.defaultRouteSettings = { throttlingRateLimit: throttle.rateLimit, throttlingBurstLimit: throttle.burstLimit };

    for (const { module, method, handler } of allOperations()) {
      const access = TABLE_ACCESS[handler];
      if (!access) throw new Error(`No table access declared for operation handler ${handler}`);
      const fn = this.#function(handler, access, defaults);
      if (accountRateLimit !== undefined) fn.function.addEnvironment('API_RATE_LIMIT', String(accountRateLimit));
      const integration = new HttpLambdaIntegration(`${constructId(handler)}Integration`, fn.function);
      // API Gateway matches paths case-sensitively: the published spelling and all-lowercase
      // get routes; other spellings reach the fallback.
      for (const path of new Set([`/service/${module}/${method}`, `/service/${module}/${method}`.toLowerCase()])) {
        this.httpApi.addRoutes({ path, methods: [HttpMethod.GET, HttpMethod.POST], integration });
      }
    }

    const fallback = this.#function('api-fallback', 'none', defaults);
    this.httpApi.addRoutes({
      path: '/service/{proxy+}',
      methods: [HttpMethod.ANY],
      integration: new HttpLambdaIntegration('FallbackIntegration', fallback.function),
    });
  }

  /** `GET|POST /dlr/kannel`: Kannel's delivery reports, authenticated by their signature. */
  addDeliveryReports(): ServiceFunction {
    const fn = this.#function('kannel-report', 'readWrite', this.#defaults);
    this.httpApi.addRoutes({
      path: '/dlr/kannel',
      methods: [HttpMethod.GET, HttpMethod.POST],
      integration: new HttpLambdaIntegration('KannelReportIntegration', fn.function),
    });
    return fn;
  }

  #function(handler: string, tableAccess: TableAccess, defaults: ServiceFunctionDefaults): ServiceFunction {
    const fn = new ServiceFunction(this, constructId(handler), {
      ...defaults,
      handler,
      tableAccess,
      ...(NODE_MODULES[handler] && { nodeModules: NODE_MODULES[handler] }),
      ...(TIMEOUTS[handler] && { timeout: TIMEOUTS[handler] }),
    });
    this.functions.set(handler, fn);
    return fn;
  }
}

/** `link-create` → `LinkCreate`. */
function constructId(handler: string): string {
  return handler
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}
