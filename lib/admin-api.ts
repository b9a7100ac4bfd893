import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import { ADMIN_FALLBACK, ADMIN_PREFIX, allAdminRoutes } from '../shared/admin/routes';
import { ServiceFunction, type ServiceFunctionDefaults } from './service-function';

export interface AdminApiProps extends ServiceFunctionDefaults {
  /** The service's HTTP API: the operator API's routes join its /service ones. */
  readonly httpApi: HttpApi;
}

/**
 * The operator API on the service's HTTP API: one function per operation of
 * shared/admin/routes.ts on its one method and path, `/admin/<group>/<action>`, and a
 * fallback for every other request below /admin/ (404, or 405 with `allow` for an
 * operation's path with the other method). Reads get read access to the table; changes
 * read and write (the audit entry is a write too); the fallback none.
 */
export class AdminApi extends Construct {
  /** By handler module name (`admin-accounts-create`, …, `admin-fallback`). */
  readonly functions = new Map<string, ServiceFunction>();

  constructor(scope: Construct, id: string, props: AdminApiProps) {
    super(scope, id);
    const { httpApi, ...defaults } = props;
    for (const { path, method, handler } of allAdminRoutes()) {
      const fn = new ServiceFunction(this, constructId(handler), { ...defaults, handler, tableAccess: method === 'GET' ? 'read' : 'readWrite' });
      this.functions.set(handler, fn);
      httpApi.addRoutes({
        path: `${ADMIN_PREFIX}${path}`,
        methods: [method === 'GET' ? HttpMethod.GET : HttpMethod.POST],
        integration: new HttpLambdaIntegration(`${constructId(handler)}Integration`, fn.function),
      });
    }
    const fallback = new ServiceFunction(this, constructId(ADMIN_FALLBACK), { ...defaults, handler: ADMIN_FALLBACK, tableAccess: 'none' });
    this.functions.set(ADMIN_FALLBACK, fallback);
    httpApi.addRoutes({
      path: `${ADMIN_PREFIX}{proxy+}`,
      methods: [HttpMethod.ANY],
      integration: new HttpLambdaIntegration('AdminFallbackIntegration', fallback.function),
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
