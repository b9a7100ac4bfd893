import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Api, type ApiProps, apiLimitsFromContext, DEFAULT_API_THROTTLE } from '../../lib/api';
import { Storage } from '../../lib/storage';

const ROOT = join(__dirname, '..', '..');
// No bundling: these tests read the stage and the functions' settings, not their code.
const CDK_CONTEXT = { ...JSON.parse(readFileSync(join(ROOT, 'cdk.json'), 'utf8')).context, 'aws:cdk:bundling-stacks': [] };

const apps: App[] = [];
afterAll(() => {
  for (const app of apps) rmSync(app.outdir, { recursive: true, force: true });
});

/** The API construct alone, over a table of its own. */
function apiTemplate(props: Partial<ApiProps> = {}): Template {
  const app = new App({ context: CDK_CONTEXT });
  apps.push(app);
  const stack = new Stack(app, 'ApiThrottle');
  const { table } = new Storage(stack, 'Storage');
  new Api(stack, 'Api', { projectRoot: ROOT, table, shortLinkBase: 'https://go.example.com', ...props });
  return Template.fromStack(stack);
}

/** The API_RATE_LIMIT of every operation function (undefined where it is not set). */
function rateLimits(template: Template): unknown[] {
  return Object.values(template.findResources('AWS::Lambda::Function'))
    .filter((fn) => /shortsms (link|message)-/.test(fn.Properties.Description))
    .map((fn) => fn.Properties.Environment.Variables.API_RATE_LIMIT);
}

describe('Api stage throttle', () => {
  let byDefault: Template;
  let configured: Template;

  beforeAll(() => {
    // Act: two syntheses (without bundling, still some seconds each)
    byDefault = apiTemplate();
    configured = apiTemplate({ throttle: { rateLimit: 50, burstLimit: 75 }, accountRateLimit: 20 });
  }, 120_000);

  it('throttles every route of the default stage at 1,000 requests a second with bursts of 2,000 by default', () => {
    // Assess
    const template = byDefault;
    expect(DEFAULT_API_THROTTLE).toEqual({ rateLimit: 1000, burstLimit: 2000 });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: { ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 },
    });
    // The functions take the code's default per-account limit.
    expect(rateLimits(template)).toEqual(Array(10).fill(undefined));
  });

  it('takes the throttle and the per-account limit it is given', () => {
    // Assess
    const template = configured;
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: Match.objectEquals({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 75 }),
    });
    expect(rateLimits(template)).toEqual(Array(10).fill('20'));
  });
});

describe('apiLimitsFromContext', () => {
  const limits = (context: Record<string, unknown>) => {
    const app = new App({ context });
    apps.push(app);
    return apiLimitsFromContext(app);
  };

  it('reads apiThrottleRate, apiThrottleBurst and apiRateLimit as `cdk deploy -c` gives them (text)', () => {
    expect(limits({})).toEqual({});
    expect(limits({ apiThrottleRate: '300' })).toEqual({ apiThrottle: { rateLimit: 300, burstLimit: 600 } });
    expect(limits({ apiThrottleBurst: '500' })).toEqual({ apiThrottle: { rateLimit: 1000, burstLimit: 500 } });
    expect(limits({ apiThrottleRate: 10, apiThrottleBurst: 10, apiRateLimit: '0' })).toEqual({
      apiThrottle: { rateLimit: 10, burstLimit: 10 },
      apiRateLimit: 0,
    });
  });

  it('refuses what is not a whole number', () => {
    expect(() => limits({ apiThrottleRate: 'fast' })).toThrow('Context apiThrottleRate must be a whole number: fast');
    expect(() => limits({ apiRateLimit: '-1' })).toThrow('Context apiRateLimit must be a whole number: -1');
  });
});
