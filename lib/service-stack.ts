import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Api } from './api';
import { Clicks } from './clicks';
import { Messaging } from './messaging';
import { Redirect, type ShortDomain } from './redirect';
import { Storage } from './storage';

export interface ServiceStackProps extends StackProps {
  /** The directory holding package.json, package-lock.json and functions/. */
  readonly projectRoot: string;
  /** Short links on a domain of one's own; else on the CloudFront distribution's domain. */
  readonly shortDomain?: ShortDomain;
}

/** The whole service on AWS: table, API with one function per operation, short-link domain. */
export class ServiceStack extends Stack {
  readonly storage: Storage;
  readonly redirect: Redirect;
  readonly clicks: Clicks;
  readonly messaging: Messaging;
  readonly api: Api;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const { projectRoot, shortDomain } = props;
    this.storage = new Storage(this, 'Storage');
    const { table } = this.storage;
    this.clicks = new Clicks(this, 'Clicks', { projectRoot, table });
    this.redirect = new Redirect(this, 'ShortLinks', { projectRoot, table, clickQueue: this.clicks.queue, ...(shortDomain && { shortDomain }) });
    this.api = new Api(this, 'Api', { projectRoot, table, shortLinkBase: this.redirect.shortLinkBase });
    this.messaging = new Messaging(this, 'Messaging', { projectRoot, table });
    const send = this.api.functions.get('message-send-sms-message')!.function;
    send.addEnvironment('SMS_QUEUE_URL', this.messaging.queue.queueUrl);
    this.messaging.queue.grantSendMessages(send);
    // Kannel's delivery reports (dlr-url) on the API's domain; they settle messages.
    const reports = this.api.addDeliveryReports();
    this.messaging.notifiesWebhooks(reports);

    new CfnOutput(this, 'ApiUrl', { value: `${this.api.httpApi.apiEndpoint}/service` });
    new CfnOutput(this, 'ShortLinkBase', { value: this.redirect.shortLinkBase });
    new CfnOutput(this, 'ShortDomainTarget', {
      description: 'Point the short domain (CNAME or alias record) here',
      value: this.redirect.distribution.distributionDomainName,
    });
    new CfnOutput(this, 'TableName', { value: table.tableName });
  }
}
