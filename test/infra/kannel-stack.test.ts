import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ServiceStack } from '../../lib/service-stack';

/** The stack with the kannel gateway: its secrets are SSM parameter names, read at run time. */
const ROOT = join(__dirname, '..', '..');
const CDK_CONTEXT = JSON.parse(readFileSync(join(ROOT, 'cdk.json'), 'utf8')).context;

describe('ServiceStack with Kannel', () => {
  let app: App;
  let stack: ServiceStack;
  let resources: Record<string, any>;

  beforeAll(() => {
    app = new App({ context: CDK_CONTEXT });
    stack = new ServiceStack(app, 'Shortsms', {
      projectRoot: ROOT,
      kannel: {
        sendsmsUrl: 'https://kannel.example.com/cgi-bin/sendsms',
        username: 'shortsms',
        passwordParameter: '/shortsms/kannel-password',
        reportSecretParameter: '/shortsms/dlr-secret',
      },
    });
    resources = Template.fromStack(stack).toJSON().Resources;
  });
  afterAll(() => rmSync(app.outdir, { recursive: true, force: true }));

  const id = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnElement);

  it('gives the worker and the report endpoint parameter names, never the secrets', () => {
    // Assess
    for (const fn of [stack.messaging.worker, stack.api.functions.get('kannel-report')!]) {
      const variables = resources[id(fn.function)]!.Properties.Environment.Variables;
      expect(variables).toEqual(
        expect.objectContaining({
          SMS_GATEWAY: 'kannel',
          KANNEL_SENDSMS_URL: 'https://kannel.example.com/cgi-bin/sendsms',
          KANNEL_USERNAME: 'shortsms',
          KANNEL_PASSWORD_PARAMETER: '/shortsms/kannel-password',
          DLR_SECRET_PARAMETER: '/shortsms/dlr-secret',
          DLR_BASE_URL: { 'Fn::GetAtt': [id(stack.api.httpApi), 'ApiEndpoint'] },
        }),
      );
      expect(variables.KANNEL_PASSWORD).toBeUndefined();
      expect(variables.DLR_SECRET).toBeUndefined();
    }
  });

  it('lets exactly those functions read exactly those two parameters', () => {
    // Assess
    const readers = Object.values(resources)
      .filter((r: any) => r.Type === 'AWS::IAM::Policy')
      .filter((r: any) => r.Properties.PolicyDocument.Statement.some((s: any) => s.Action === 'ssm:GetParameter'));
    expect(readers).toHaveLength(2);
    for (const policy of readers as any[]) {
      const statement = policy.Properties.PolicyDocument.Statement.find((s: any) => s.Action === 'ssm:GetParameter');
      expect(JSON.stringify(statement.Resource)).toContain('parameter/shortsms/kannel-password');
      expect(JSON.stringify(statement.Resource)).toContain('parameter/shortsms/dlr-secret');
      expect(statement.Resource).toHaveLength(2);
    }
  });
});
