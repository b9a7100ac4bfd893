import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { AdminApi } from './admin-api';
import { Api, type ApiThrottle } from './api';
import { Clicks } from './clicks';
import { Messaging } from './messaging';
import { acknowledgeFindings } from './nag';
import { Observability } from './observability';
import { Redirect, type ShortDomain } from './redirect';
import { ServiceFunction } from './service-function';
import { Storage } from './storage';
import { Web } from './web';

export interface ServiceStackProps extends StackProps {
  /** The directory holding package.json, package-lock.json and functions/. */
  readonly projectRoot: string;
  /** Short links on a domain of one's own; else on the CloudFront distribution's domain. */
  readonly shortDomain?: ShortDomain;
  /** Send through AWS End User Messaging SMS instead of the simulator. */
  readonly awsSms?: AwsSmsGatewayProps;
  /** Alarm notifications by email as well as to the alarm topic. */
  readonly alarmEmail?: string;
  /** Send through a Kannel smsbox reachable from Lambda, its secrets in SSM Parameter Store. */
  readonly kannel?: KannelGatewayProps;
  /** The HTTP API stage's throttle over all callers (DEFAULT_API_THROTTLE unless given). */
  readonly apiThrottle?: ApiThrottle;
  /** API_RATE_LIMIT: requests per second per account, per container (the code's default unless given). */
  readonly apiRateLimit?: number;
  /** How many of the table's indexes to declare (all unless given): the one-index-per-deploy upgrade. */
  readonly tableIndexes?: number;
}

export interface KannelGatewayProps {
  readonly sendsmsUrl: string;
  readonly username: string;
  /** SSM SecureString parameter names (the values never enter the template). */
  readonly passwordParameter: string;
  readonly reportSecretParameter: string;
  readonly smsc?: string;
}

export interface AwsSmsGatewayProps {
  /** A configuration set whose event destination is the stack's SmsEventsTopic (output). */
  readonly configurationSetName: string;
  readonly originationIdentity?: string;
  readonly messageType?: 'TRANSACTIONAL' | 'PROMOTIONAL';
}

/** The whole service on AWS: table, API with one function per operation, short-link domain. */
export class ServiceStack extends Stack {
  readonly storage: Storage;
  readonly redirect: Redirect;
  readonly clicks: Clicks;
  readonly messaging: Messaging;
  readonly api: Api;
  /** The operator API (/admin/) on the same HTTP API. */
  readonly adminApi: AdminApi;
  readonly observability: Observability;
  readonly web: Web;
  smsEventsTopic: Topic | undefined;
  readonly #projectRoot: string;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const { projectRoot, shortDomain } = props;
    this.#projectRoot = projectRoot;
    this.storage = new Storage(this, 'Storage', { ...(props.tableIndexes !== undefined && { indexes: props.tableIndexes }) });
    const { table } = this.storage;
    this.clicks = new Clicks(this, 'Clicks', { projectRoot, table });
    this.redirect = new Redirect(this, 'ShortLinks', { projectRoot, table, clickQueue: this.clicks.queue, ...(shortDomain && { shortDomain }) });
    this.api = new Api(this, 'Api', {
      projectRoot,
      table,
      shortLinkBase: this.redirect.shortLinkBase,
      ...(props.apiThrottle && { throttle: props.apiThrottle }),
      ...(props.apiRateLimit !== undefined && { accountRateLimit: props.apiRateLimit }),
    });
    this.redirect.serveApi(this.api.httpApi);
    this.web = new Web(this, 'Web', { projectRoot, distribution: this.redirect.distribution });
    this.messaging = new Messaging(this, 'Messaging', { projectRoot, table });
    // An operator's decision on a held campaign settles its message, which may raise webhook events.
    const decisions = ['admin-campaigns-approve', 'admin-campaigns-decline'] as const;
    this.adminApi = new AdminApi(this, 'AdminApi', {
      projectRoot,
      table,
      shortLinkBase: this.redirect.shortLinkBase,
      httpApi: this.api.httpApi,
      ownRoles: decisions,
    });
    for (const handler of decisions) {
      const decision = this.adminApi.functions.get(handler);
      if (!decision) throw new Error(`The operator API has no ${handler} function`);
      this.messaging.notifiesWebhooks(decision);
    }
    const send = this.api.functions.get('message-send-sms-message')?.function;
    if (!send) throw new Error('The API has no message-send-sms-message function');
    send.addEnvironment('SMS_QUEUE_URL', this.messaging.queue.queueUrl);
    this.messaging.queue.grantSendMessages(send);
    // Kannel's delivery reports (dlr-url) on the API's domain; they settle messages.
    const reports = this.api.addDeliveryReports();
    this.messaging.notifiesWebhooks(reports);
    // The webhook worker refuses targets on the service's own host, so it needs to know it.
    this.messaging.webhookWorker.function.addEnvironment('SHORT_LINK_BASE', this.redirect.shortLinkBase);
    if (props.awsSms && props.kannel) throw new Error('Choose one SMS gateway: awsSms or kannel');
    if (props.awsSms) this.#useAwsSms(props.awsSms);
    if (props.kannel) this.#useKannel(props.kannel, reports);
    this.observability = this.#watch(props.alarmEmail);
    acknowledgeFindings(this, table);

    new CfnOutput(this, 'ApiUrl', {
      description: 'The API on the short domain, module and method in any letter case',
      value: `${this.redirect.shortLinkBase}/service`,
    });
    new CfnOutput(this, 'HttpApiUrl', {
      description: 'The HTTP API itself: published and all-lowercase spellings only',
      value: `${this.api.httpApi.apiEndpoint}/service`,
    });
    new CfnOutput(this, 'ConsoleUrl', {
      description: 'The web console (account and operator views); the API docs are at /docs/',
      value: `${this.redirect.shortLinkBase}/console/`,
    });
    new CfnOutput(this, 'ShortLinkBase', { value: this.redirect.shortLinkBase });
    new CfnOutput(this, 'ShortDomainTarget', {
      description: 'Point the short domain (CNAME or alias record) here',
      value: this.redirect.distribution.distributionDomainName,
    });
    new CfnOutput(this, 'TableName', { value: table.tableName });
  }

  /**
   * The kannel gateway: the SMS worker calls smsbox, Kannel's reports come to the API's
   * /dlr/kannel route; both read the password and the report secret from SSM.
   */
  #useKannel(settings: KannelGatewayProps, reports: ServiceFunction): void {
    const environment: Record<string, string> = {
      SMS_GATEWAY: 'kannel',
      KANNEL_SENDSMS_URL: settings.sendsmsUrl,
      KANNEL_USERNAME: settings.username,
      KANNEL_PASSWORD_PARAMETER: settings.passwordParameter,
      DLR_SECRET_PARAMETER: settings.reportSecretParameter,
      DLR_BASE_URL: this.api.httpApi.apiEndpoint,
      ...(settings.smsc && { KANNEL_SMSC: settings.smsc }),
    };
    const parameterArn = (name: string) => this.formatArn({ service: 'ssm', resource: 'parameter', resourceName: name.replace(/^\//, '') });
    for (const fn of [this.messaging.worker.function, reports.function]) {
      for (const [name, value] of Object.entries(environment)) fn.addEnvironment(name, value);
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['ssm:GetParameter'],
          resources: [settings.passwordParameter, settings.reportSecretParameter].map(parameterArn),
        }),
      );
    }
  }

  /** Alarms on every function, queue and dead-letter queue of the stack. */
  #watch(alarmEmail: string | undefined): Observability {
    const functions = new Map<string, LambdaFunction>();
    for (const child of this.node.findAll()) {
      if (child instanceof ServiceFunction) functions.set(child.node.path.split('/').slice(1).join(''), child.function);
    }
    const { messaging, clicks } = this;
    return new Observability(this, 'Observability', {
      functions,
      alarmEmail,
      queues: [
        { name: 'Clicks', queue: clicks.queue, deadLetterQueue: clicks.deadLetterQueue, maxAge: Duration.minutes(5) },
        { name: 'Sms', queue: messaging.queue, deadLetterQueue: messaging.deadLetterQueue, maxAge: Duration.minutes(5) },
        { name: 'Webhooks', queue: messaging.webhookQueue, deadLetterQueue: messaging.webhookDeadLetterQueue, maxAge: Duration.minutes(15) },
      ],
    });
  }

  /**
   * The aws gateway: the SMS worker sends with SendTextMessage, and delivery events come
   * back through an SNS topic (the configuration set's event destination) to a function
   * of their own.
   */
  #useAwsSms(settings: AwsSmsGatewayProps): void {
    const worker = this.messaging.worker.function;
    worker.addEnvironment('SMS_GATEWAY', 'aws');
    worker.addEnvironment('AWS_SMS_CONFIGURATION_SET', settings.configurationSetName);
    if (settings.originationIdentity) worker.addEnvironment('AWS_SMS_ORIGINATION_IDENTITY', settings.originationIdentity);
    worker.addEnvironment('AWS_SMS_MESSAGE_TYPE', settings.messageType ?? 'TRANSACTIONAL');
    worker.addToRolePolicy(new PolicyStatement({ actions: ['sms-voice:SendTextMessage'], resources: ['*'] }));

    this.smsEventsTopic = new Topic(this, 'SmsEventsTopic', { displayName: 'shortsms SMS delivery events', enforceSSL: true });
    this.smsEventsTopic.addToResourcePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        principals: [new ServicePrincipal('sms-voice.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.smsEventsTopic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
    );
    const events = new ServiceFunction(this, 'SmsEvents', {
      projectRoot: this.#projectRoot,
      table: this.storage.table,
      handler: 'aws-sms-events',
      tableAccess: 'readWrite',
      shortLinkBase: undefined,
    });
    this.messaging.notifiesWebhooks(events);
    this.smsEventsTopic.addSubscription(new LambdaSubscription(events.function));
    new CfnOutput(this, 'SmsEventsTopicArn', {
      description: 'Event destination (SNS) for the configuration set',
      value: this.smsEventsTopic.topicArn,
    });
  }
}
