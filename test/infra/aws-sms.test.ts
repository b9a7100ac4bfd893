import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { App, type CfnElement, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ServiceStack } from '../../lib/service-stack';

/** The stack with the aws gateway: SendTextMessage for the worker, delivery events through SNS. */
const ROOT = join(__dirname, '..', '..');
const CDK_CONTEXT = JSON.parse(readFileSync(join(ROOT, 'cdk.json'), 'utf8')).context;

describe('ServiceStack with AWS End User Messaging SMS', () => {
  let app: App;
  let stack: ServiceStack;
  let resources: Record<string, any>;

  beforeAll(() => {
    app = new App({ context: CDK_CONTEXT });
    stack = new ServiceStack(app, 'Shortsms', {
      projectRoot: ROOT,
      awsSms: { configurationSetName: 'shortsms-events', originationIdentity: 'MyShop' },
    });
    // As bin/app.ts does: cdk-nag's AwsSolutions pack; a finding not acknowledged fails the synth.
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    app.synth();
    resources = Template.fromStack(stack).toJSON().Resources;
  });
  afterAll(() => rmSync(app.outdir, { recursive: true, force: true }));

  const id = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnElement);

  it('passes cdk-nag AwsSolutions with every acknowledged finding carrying a reason', () => {
    // Assess
    const report = JSON.parse(readFileSync(join(app.outdir, 'validation-report.json'), 'utf8'));
    const nag = report.pluginReports.find((plugin: { pluginName: string }) => plugin.pluginName === 'AwsSolutions');
    expect(nag).toMatchObject({ conclusion: 'success', violations: [] });
    expect(nag.suppressedViolations.length).toBeGreaterThan(0);
    for (const suppressed of nag.suppressedViolations) expect(suppressed.reason).toMatch(/\S.{20,}/);
  });

  it('sends through SendTextMessage with the configuration set', () => {
    // Assess
    const worker = resources[id(stack.messaging.worker.function)]!;
    expect(worker.Properties.Environment.Variables).toEqual(
      expect.objectContaining({
        SMS_GATEWAY: 'aws',
        AWS_SMS_CONFIGURATION_SET: 'shortsms-events',
        AWS_SMS_ORIGINATION_IDENTITY: 'MyShop',
        AWS_SMS_MESSAGE_TYPE: 'TRANSACTIONAL',
      }),
    );
    const policies = Object.values(resources).filter(
      (r: any) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: any) => role.Ref === worker.Properties.Role['Fn::GetAtt'][0]),
    );
    const actions = policies.flatMap((p: any) => p.Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat()));
    expect(actions).toContain('sms-voice:SendTextMessage');
  });

  it('lets the messaging service publish delivery events to a topic that feeds the events function', () => {
    // Assess
    const topic = id(stack.smsEventsTopic!);
    const policy = Object.values(resources).find(
      (r: any) => r.Type === 'AWS::SNS::TopicPolicy' && r.Properties.Topics.some((t: any) => t.Ref === topic),
    ) as any;
    expect(policy.Properties.PolicyDocument.Statement).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Effect: 'Allow', Action: 'sns:Publish', Principal: { Service: 'sms-voice.amazonaws.com' } }),
      ]),
    );
    const subscription = Object.values(resources).find((r: any) => r.Type === 'AWS::SNS::Subscription' && r.Properties.TopicArn.Ref === topic) as any;
    expect(subscription.Properties.Protocol).toBe('lambda');
    const target = subscription.Properties.Endpoint['Fn::GetAtt'][0];
    expect(resources[target].Properties.Environment.Variables.WEBHOOK_QUEUE_URL).toBeDefined();
  });
});
