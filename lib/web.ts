import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Names, NestedStack, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Function as CloudFrontFunction,
  type Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  ResponseHeadersPolicy,
  type ResponseSecurityHeadersBehavior,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct, type IConstruct } from 'constructs';
import { CACHE_CONTROL, SECURITY_HEADERS } from '../web/headers';
import { buildWebFiles, objectKey } from './web-files';

/** The distribution paths the web files answer; everything else stays the redirect's or the API's. */
export const WEB_PATHS = ['/console/*', '/docs/*', '/openapi.json'] as const;

// CloudFront refuses a function over 10 KB.
const FUNCTION_CODE_LIMIT = 10 * 1024;

export interface WebProps {
  readonly projectRoot: string;
  readonly distribution: Distribution;
}

/**
 * The web console and the API docs (buildWeb's files) on the short domain: a private
 * bucket that only the distribution reads (origin access control), the local server's
 * security headers on every answer, and a function that maps paths to keys the way the
 * local server does (`/console/` and unknown console paths answer the console's page).
 */
export class Web extends Construct {
  readonly bucket: Bucket;
  readonly headers: ResponseHeadersPolicy;
  readonly paths: CloudFrontFunction;
  readonly deployment: BucketDeployment;
  readonly deploymentStack: NestedStack;

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);
    const files = buildWebFiles(props.projectRoot);
    this.bucket = new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // Build output only: the next deployment writes it again.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions::AwsSolutions-S1',
      reason:
        'The bucket holds only the built console and docs, the same for every deployment: the distribution reads it (origin access control) and the stack writes it. Its reads are the distribution’s requests, and server access logs would need a bucket of their own.',
    });

    this.headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'shortsms console and docs: the security headers of web/headers.ts',
      securityHeadersBehavior: securityHeadersBehavior(SECURITY_HEADERS),
    });
    this.paths = new CloudFrontFunction(this, 'Paths', {
      comment: 'Maps console and docs paths to their keys; unknown console paths to its page',
      code: FunctionCode.fromInline(pathsFunctionCode(props.projectRoot, files.paths)),
      runtime: FunctionRuntime.JS_2_0,
    });
    const origin = S3BucketOrigin.withOriginAccessControl(this.bucket);
    for (const pattern of WEB_PATHS) {
      props.distribution.addBehavior(pattern, origin, {
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.headers,
        functionAssociations: [{ function: this.paths, eventType: FunctionEventType.VIEWER_REQUEST }],
      });
    }

    // CloudFormation takes at most 500 resources a stack, and the service's is near that: the
    // deployment's function, role, policy, layer, log group and custom resource go in a nested
    // stack, one resource in the service's.
    this.deploymentStack = new NestedStack(this, 'Deployment', { description: 'shortsms: the web console and docs files' });
    this.deployment = new BucketDeployment(this.deploymentStack, 'Files', {
      sources: [Source.asset(files.directory)],
      destinationBucket: this.bucket,
      // As the local server sends them; each deployment also clears the distribution's copies.
      cacheControl: [CacheControl.fromString(CACHE_CONTROL)],
      distribution: props.distribution,
      distributionPaths: [...WEB_PATHS],
      // The files go with the stack, so the (then empty) bucket can go too.
      retainOnDelete: false,
      logGroup: new LogGroup(this.deploymentStack, 'Logs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
    });
    // The bucket's ARN as the nested stack receives it: a parameter named after the bucket.
    const bucketArn = `<referenceto${Names.uniqueId(this.bucket.node.defaultChild as IConstruct)}Arn>/*`;
    for (const finding of [
      'Action::s3:GetBucket*',
      'Action::s3:GetObject*',
      'Action::s3:List*',
      'Action::s3:Abort*',
      'Action::s3:DeleteObject*',
      `Resource::${bucketArn}`,
    ]) {
      Validations.of(this.deployment.handlerRole).acknowledge({
        id: `AwsSolutions::AwsSolutions-IAM5[${finding}]`,
        reason:
          "The web files' deployment (aws-s3-deployment's own role): it reads the stack's asset and replaces every object of the web bucket, which takes the object-level S3 actions on all its keys.",
      });
    }
    Validations.of(this.deployment.handlerRole).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
      reason: "The web files' deployment reads its source, an asset in the CDK bootstrap bucket, whose key the deployment only knows then.",
    });
  }
}

/** The headers of web/headers.ts as CloudFront's security headers; a header it cannot set fails synth. */
export function securityHeadersBehavior(headers: Record<string, string>): ResponseSecurityHeadersBehavior {
  const behavior: { -readonly [K in keyof ResponseSecurityHeadersBehavior]: ResponseSecurityHeadersBehavior[K] } = {};
  for (const [name, value] of Object.entries(headers)) {
    switch (name.toLowerCase()) {
      case 'content-security-policy':
        behavior.contentSecurityPolicy = { contentSecurityPolicy: value, override: true };
        break;
      case 'x-content-type-options':
        if (value !== 'nosniff') throw new Error(`X-Content-Type-Options can only be nosniff on CloudFront, not ${value}`);
        behavior.contentTypeOptions = { override: true };
        break;
      case 'x-frame-options':
        if (value !== HeadersFrameOption.DENY && value !== HeadersFrameOption.SAMEORIGIN)
          throw new Error(`X-Frame-Options ${value} is not DENY or SAMEORIGIN`);
        behavior.frameOptions = { frameOption: value as HeadersFrameOption, override: true };
        break;
      case 'referrer-policy':
        if (!Object.values<string>(HeadersReferrerPolicy).includes(value)) throw new Error(`Referrer-Policy ${value} is not one CloudFront sets`);
        behavior.referrerPolicy = { referrerPolicy: value as HeadersReferrerPolicy, override: true };
        break;
      default:
        throw new Error(`${name} is not a security header the distribution sets (lib/web.ts)`);
    }
  }
  return behavior;
}

/** lib/web-paths.js with its map of URL paths to keys filled in. */
export function pathsFunctionCode(projectRoot: string, paths: readonly string[]): string {
  const keys = Object.fromEntries(paths.map((path) => [path, `/${objectKey(path)}`]));
  const source = readFileSync(join(projectRoot, 'lib', 'web-paths.js'), 'utf8');
  if (!source.includes('var FILES = {};')) throw new Error('lib/web-paths.js has no `var FILES = {};` to fill in');
  // Its comments would only count against the size limit.
  const code = source.replace('var FILES = {};', `var FILES = ${JSON.stringify(keys)};`).replace(/^\s*\/\/.*\n/gm, '');
  if (Buffer.byteLength(code) > FUNCTION_CODE_LIMIT)
    throw new Error(`The web paths function is ${Buffer.byteLength(code)} bytes, over CloudFront's 10 KB`);
  return code;
}
