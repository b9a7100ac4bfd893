import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Redirect, type ShortDomain } from '../../lib/redirect';
import { Storage } from '../../lib/storage';

const ROOT = join(__dirname, '..', '..');
const CDK_CONTEXT = JSON.parse(readFileSync(join(ROOT, 'cdk.json'), 'utf8')).context;
const SHORT_DOMAIN: ShortDomain = {
  name: 'go.example.com',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f6c2a51-8d4e-4c38-9d2b-5e6f7a8b9c0d',
};

// Every App makes a temporary output directory, including those that never synthesize.
const apps: App[] = [];
afterAll(() => {
  for (const app of apps) rmSync(app.outdir, { recursive: true, force: true });
});

/** The short-link construct alone, so only the redirect function is bundled. */
function redirectStack(shortDomain: ShortDomain) {
  const app = new App({ context: CDK_CONTEXT });
  apps.push(app);
  const stack = new Stack(app, 'ShortDomain');
  const { table } = new Storage(stack, 'Storage');
  const clickQueue = new Queue(stack, 'Clicks');
  const redirect = new Redirect(stack, 'ShortLinks', { projectRoot: ROOT, table, shortDomain, clickQueue });
  return { app, stack, redirect };
}

describe('Redirect on a custom short domain', () => {
  // One synth for the file: the redirect function is a real esbuild bundle.
  let built: ReturnType<typeof redirectStack>;
  let template: Template;

  beforeAll(() => {
    // Prepare
    built = redirectStack(SHORT_DOMAIN);
    // Act
    template = Template.fromStack(built.stack);
  }, 60_000);

  it('serves the domain with the given certificate', () => {
    // Assess
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['go.example.com'],
        ViewerCertificate: Match.objectLike({ AcmCertificateArn: SHORT_DOMAIN.certificateArn, SslSupportMethod: 'sni-only' }),
      }),
    });
  });

  it('uses https://<domain> as the short link base; the redirect function itself needs none', () => {
    // Assess
    expect(built.redirect.shortLinkBase).toBe('https://go.example.com');
    template.resourceCountIs('AWS::Lambda::Function', 1);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectEquals({
          TABLE_NAME: Match.anyValue(),
          NODE_OPTIONS: '--enable-source-maps',
          CLICK_QUEUE_URL: Match.anyValue(),
          POWERTOOLS_SERVICE_NAME: 'shortsms',
          POWERTOOLS_METRICS_NAMESPACE: 'shortsms',
        }),
      },
    });
  });
});

describe('Redirect short domain checks', () => {
  it.each([
    [
      'a certificate outside us-east-1',
      { ...SHORT_DOMAIN, certificateArn: SHORT_DOMAIN.certificateArn.replace('us-east-1', 'eu-west-1') },
      /us-east-1/,
    ],
    ['an ARN that is not an ACM certificate', { ...SHORT_DOMAIN, certificateArn: 'arn:aws:iam::123456789012:role/x' }, /not an ACM certificate/],
    ['a URL instead of a host name', { ...SHORT_DOMAIN, name: 'https://go.example.com' }, /host name/],
  ])('refuses %s before bundling anything', (_case, shortDomain, message) => {
    // Act / Assess
    expect(() => redirectStack(shortDomain)).toThrow(message);
  });
});
