import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { ServiceStack } from '../../lib/service-stack';
import { pathsFunctionCode, securityHeadersBehavior } from '../../lib/web';
import { buildWebFiles, objectKey } from '../../lib/web-files';
import { SECURITY_HEADERS } from '../../web/headers';

/** The console and docs on the distribution: a private bucket, origin access control, the local server's headers. */
const ROOT = join(__dirname, '..', '..');
// The feature flags `cdk synth` runs with; the functions' bundling is skipped, the web build is not.
const CDK_CONTEXT = { ...JSON.parse(readFileSync(join(ROOT, 'cdk.json'), 'utf8')).context, 'aws:cdk:bundling-stacks': [] };
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

type Resource = { Type: string; Properties: Record<string, any> };
type Behavior = Record<string, any>;
type Request = { uri: string; querystring?: unknown };

let app: App;
let stack: ServiceStack;
let resources: Record<string, Resource>;
let distribution: Record<string, any>;

beforeAll(() => {
  // Prepare
  app = new App({ context: CDK_CONTEXT });
  stack = new ServiceStack(app, 'Shortsms', { projectRoot: ROOT });
  // Act
  resources = Template.fromStack(stack).toJSON().Resources;
  distribution = resources[cfnId(stack.redirect.distribution)]!.Properties.DistributionConfig;
}, 120_000);

afterAll(() => rmSync(app.outdir, { recursive: true, force: true }));

const cfnId = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const behavior = (pattern: string): Behavior => distribution.CacheBehaviors.find((b: Behavior) => b.PathPattern === pattern);
const origin = (b: Behavior) => distribution.Origins.find((o: Record<string, any>) => o.Id === b.TargetOriginId);

/** The paths function as the template has it, run as CloudFront would. */
function pathsHandler(): (event: { request: Request }) => Request | { statusCode: number } {
  const code: string = resources[cfnId(stack.web.paths)]!.Properties.FunctionCode;
  return runInNewContext(`${code}; handler`);
}

describe('Web', () => {
  describe('bucket', () => {
    it('blocks public access, encrypts with S3-managed keys and belongs to its owner alone', () => {
      // Assess
      expect(resources[cfnId(stack.web.bucket)]!.Properties).toEqual(
        expect.objectContaining({
          PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
          BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
          OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
        }),
      );
      expect(resources[cfnId(stack.web.bucket)]!.Properties.WebsiteConfiguration).toBeUndefined();
    });

    it('refuses requests without TLS and lets only this distribution read objects', () => {
      // Prepare
      const [, policy] = ofType('AWS::S3::BucketPolicy').find(([, p]) => p.Properties.Bucket.Ref === cfnId(stack.web.bucket))!;
      const statements: Record<string, any>[] = policy.Properties.PolicyDocument.Statement;
      // Assess
      expect(statements.filter((s) => s.Effect === 'Allow')).toEqual([
        expect.objectContaining({
          Action: 's3:GetObject',
          Principal: { Service: 'cloudfront.amazonaws.com' },
          Condition: {
            StringEquals: {
              'AWS:SourceArn': {
                'Fn::Join': ['', expect.arrayContaining([':distribution/', { Ref: cfnId(stack.redirect.distribution) }])],
              },
            },
          },
        }),
      ]);
      expect(statements).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } }, Principal: { AWS: '*' } }),
      );
    });
  });

  describe('behaviours', () => {
    it.each(['/console/*', '/docs/*', '/openapi.json'])('serves %s from the bucket through origin access control, GET and HEAD only', (pattern) => {
      // Prepare
      const b = behavior(pattern);
      const s3 = origin(b);
      const [oacId, oac] = ofType('AWS::CloudFront::OriginAccessControl').find(([id]) => id === s3.OriginAccessControlId['Fn::GetAtt'][0])!;
      // Assess
      expect(b).toEqual(
        expect.objectContaining({
          AllowedMethods: ['GET', 'HEAD'],
          ViewerProtocolPolicy: 'redirect-to-https',
          ResponseHeadersPolicyId: { Ref: cfnId(stack.web.headers) },
          FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [cfnId(stack.web.paths), 'FunctionARN'] } }],
        }),
      );
      expect(s3.DomainName).toEqual({ 'Fn::GetAtt': [cfnId(stack.web.bucket), 'RegionalDomainName'] });
      expect(s3.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
      expect(oacId).toBeDefined();
      expect(oac.Properties.OriginAccessControlConfig).toEqual(
        expect.objectContaining({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' }),
      );
    });

    it('leaves a bare /console and /docs to the redirect (they could be short codes)', () => {
      // Assess
      const patterns = distribution.CacheBehaviors.map((b: Behavior) => b.PathPattern);
      expect(patterns).not.toContain('/console');
      expect(patterns).not.toContain('/docs');
      expect(patterns).not.toContain('/console*');
    });

    it('sends /admin/* to the HTTP API with every method, nothing cached and the Authorization header forwarded', () => {
      // Prepare
      const admin = behavior('/admin/*');
      const service = behavior('/service/*');
      // Assess
      expect(admin).toEqual(
        expect.objectContaining({
          AllowedMethods: expect.arrayContaining(['GET', 'HEAD', 'POST', 'OPTIONS']),
          ViewerProtocolPolicy: 'https-only',
          CachePolicyId: CACHING_DISABLED,
          // With caching disabled, AllViewerExceptHostHeader forwards Authorization too.
          OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
          TargetOriginId: service.TargetOriginId,
        }),
      );
      expect(admin.FunctionAssociations).toBeUndefined();
      expect(JSON.stringify(origin(admin).DomainName)).toContain(cfnId(stack.api.httpApi));
    });
  });

  describe('security headers', () => {
    it('sets the headers of web/headers.ts on every answer, overriding the origin', () => {
      // Prepare
      const config = resources[cfnId(stack.web.headers)]!.Properties.ResponseHeadersPolicyConfig;
      // Assess
      expect(config.SecurityHeadersConfig).toEqual({
        ContentSecurityPolicy: { ContentSecurityPolicy: SECURITY_HEADERS['content-security-policy'], Override: true },
        ContentTypeOptions: { Override: true },
        FrameOptions: { FrameOption: 'DENY', Override: true },
        ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
      });
      expect(config.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy).toContain("frame-ancestors 'none'");
      expect(config.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy).not.toContain('unsafe-inline');
    });

    it('fails synth on a header CloudFront could not set as given', () => {
      // Assess
      expect(() => securityHeadersBehavior({ 'X-Frame-Options': 'ALLOW-FROM https://example.com' })).toThrow('X-Frame-Options');
      expect(() => securityHeadersBehavior({ 'Referrer-Policy': 'nobody' })).toThrow('Referrer-Policy');
      expect(() => securityHeadersBehavior({ 'Permissions-Policy': 'camera=()' })).toThrow('Permissions-Policy');
    });
  });

  describe('paths function', () => {
    // The files a build gives once the docs are in: a directory's page under either spelling.
    const PATHS = ['/console/index.html', '/console/app.js', '/console/app.css', '/docs/', '/docs/swagger-ui.js', '/openapi.json'];
    const handler = runInNewContext(`${pathsFunctionCode(ROOT, PATHS)}; handler`) as (event: { request: Request }) => unknown;

    it.each([
      ['/console/', '/console/index.html'],
      ['/console/links', '/console/index.html'],
      ['/console/links/k3x9', '/console/index.html'],
      ['/console/operator/accounts', '/console/index.html'],
      ['/console/app.js', '/console/app.js'],
      ['/docs/', '/docs/index.html'],
      ['/docs/swagger-ui.js', '/docs/swagger-ui.js'],
      ['/openapi.json', '/openapi.json'],
    ])('sends %s to the key %s', (uri, key) => {
      // Act
      const result = handler({ request: { uri, querystring: { lang: { value: 'ru' } } } });
      // Assess
      expect(result).toEqual({ uri: key, querystring: { lang: { value: 'ru' } } });
    });

    it.each(['/console/no-such-file.js', '/console/links/app.css', '/docs/nothing.js', '/docs/index.html/', '/openapi.json/'])(
      'answers 404 for %s, not a file',
      (uri) => {
        // Assess
        expect(handler({ request: { uri } })).toEqual({ statusCode: 404, statusDescription: 'Not Found' });
      },
    );

    it('sends every file the web build gave to its own key, in the function the distribution runs', () => {
      // Prepare
      const { paths } = buildWebFiles(ROOT);
      // Assess
      expect(paths).toEqual(expect.arrayContaining(['/console/index.html', '/console/app.js']));
      for (const uri of paths) expect(pathsHandler()({ request: { uri } })).toEqual({ uri: `/${objectKey(uri)}` });
      expect(pathsHandler()({ request: { uri: '/console/' } })).toEqual({ uri: '/console/index.html' });
    });
  });

  describe('deployment', () => {
    it('copies the built files to the bucket and clears their paths from the distribution', () => {
      // Prepare: the deployment is a nested stack's; the service's stack hands it the bucket and the distribution
      const nested = Template.fromStack(stack.web.deploymentStack).toJSON().Resources as Record<string, Resource>;
      const [, deployment] = Object.entries(nested).find(([, r]) => r.Type === 'Custom::CDKBucketDeployment')!;
      const parameters = resources[stack.getLogicalId(stack.web.deploymentStack.nestedStackResource!)]!.Properties.Parameters;
      const given = (value: { Ref: string }) => parameters[value.Ref];
      const assetKey: string = deployment.Properties.SourceObjectKeys[0];
      const assetDir = join(app.outdir, `asset.${assetKey.replace(/\.zip$/, '')}`);
      // Assess
      expect(deployment.Properties).toEqual(
        expect.objectContaining({
          DistributionPaths: ['/console/*', '/docs/*', '/openapi.json'],
          Prune: true,
          RetainOnDelete: false,
          SystemMetadata: { 'cache-control': 'no-cache' },
        }),
      );
      expect(given(deployment.Properties.DestinationBucketName)).toEqual({ Ref: cfnId(stack.web.bucket) });
      expect(given(deployment.Properties.DistributionId)).toEqual({ Ref: cfnId(stack.redirect.distribution) });
      for (const path of buildWebFiles(ROOT).paths) expect([path, existsSync(join(assetDir, objectKey(path)))]).toEqual([path, true]);
    });

    it("keeps the deployment's function, role and layer out of the service's stack, near CloudFormation's 500 resources", () => {
      // Assess
      expect(ofType('Custom::CDKBucketDeployment')).toEqual([]);
      expect(ofType('AWS::Lambda::LayerVersion')).toEqual([]);
      expect(ofType('AWS::CloudFormation::Stack')).toHaveLength(1);
    });

    it('outputs the console URL on the short domain', () => {
      // Assess
      expect(Template.fromStack(stack).toJSON().Outputs.ConsoleUrl.Value).toEqual({
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [cfnId(stack.redirect.distribution), 'DomainName'] }, '/console/']],
      });
    });
  });
});
