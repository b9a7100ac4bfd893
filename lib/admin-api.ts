import { RemovalPolicy } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ADMIN_FALLBACK, ADMIN_PREFIX, type AdminHandlerName, allAdminRoutes } from '../shared/admin/routes';
import { ServiceFunction, type ServiceFunctionDefaults, type TableAccess } from './service-function';

export interface AdminApiProps extends ServiceFunctionDefaults {
  /** The service's HTTP API: the operator API's routes join its /service ones. */
  readonly httpApi: HttpApi;
  /** Operations whose function gets a role of its own, for grants beyond the table (the campaign decisions queue webhook events). */
  readonly ownRoles?: readonly AdminHandlerName[];
}

/**
 * The operator API on the service's HTTP API: one function per operation of
 * shared/admin/routes.ts on its one method and path, `/admin/<group>/<action>`, and a
 * fallback for every other request below /admin/ (404, or 405 with `allow` for an
 * operation's path with the other method). Reads may read the table, changes read and
 * write it (the audit entry is a write too), the fallback nothing. The reads share one
 * role and the changes another, and all of them one log group (each line names its
 * function): 33 functions would otherwise add about 100 resources to a stack that may
 * hold 500.
 */
export class AdminApi extends Construct {
  /** By handler module name (`admin-accounts-create`, …, `admin-fallback`). */
  readonly functions = new Map<string, ServiceFunction>();
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: AdminApiProps) {
    super(scope, id);
    const { httpApi, ownRoles = [], ...defaults } = props;
    this.logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const roles = { read: this.#role('ReadRole'), readWrite: this.#role('WriteRole') };
    for (const { path, method, handler } of allAdminRoutes()) {
      const tableAccess: TableAccess = method === 'GET' ? 'read' : 'readWrite';
      const fn = new ServiceFunction(this, constructId(handler), {
        ...defaults,
        handler,
        tableAccess,
        logGroup: this.logGroup,
        ...(!ownRoles.includes(handler) && { role: roles[tableAccess] }),
      });
      this.functions.set(handler, fn);
      httpApi.addRoutes({
        path: `${ADMIN_PREFIX}${path}`,
        methods: [method === 'GET' ? HttpMethod.GET : HttpMethod.POST],
        integration: new HttpLambdaIntegration(`${constructId(handler)}Integration`, fn.function),
      });
    }
    const fallback = new ServiceFunction(this, constructId(ADMIN_FALLBACK), {
      ...defaults,
      handler: ADMIN_FALLBACK,
      tableAccess: 'none',
      logGroup: this.logGroup,
    });
    this.functions.set(ADMIN_FALLBACK, fallback);
    httpApi.addRoutes({
      path: `${ADMIN_PREFIX}{proxy+}`,
      methods: [HttpMethod.ANY],
      integration: new HttpLambdaIntegration('AdminFallbackIntegration', fallback.function),
    });
  }

  /** A Lambda role as NodejsFunction makes one: CloudWatch Logs only, until grants are added. */
  #role(id: string): Role {
    return new Role(this, id, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
    });
  }
}

/** `admin-accounts-create` → `AccountsCreate` (the construct sits under AdminApi). */
function constructId(handler: string): string {
  return handler
    .replace(/^admin-/, '')
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}
