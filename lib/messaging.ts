import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ServiceFunction } from './service-function';
import { workQueue } from './work-queue';

export interface MessagingProps {
  readonly projectRoot: string;
  readonly table: ITable;
}

/**
 * The SMS pipeline: the send queue and its worker (which claims each message before the
 * gateway sees it), the sweeper that releases deferred campaigns and due retries every
 * minute, and the delivery-report webhooks' queue and worker.
 */
export class Messaging extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly worker: ServiceFunction;
  readonly sweeper: ServiceFunction;
  readonly webhookQueue: Queue;
  readonly webhookDeadLetterQueue: Queue;
  readonly webhookWorker: ServiceFunction;

  constructor(scope: Construct, id: string, props: MessagingProps) {
    super(scope, id);
    const workerTimeout = Duration.seconds(30);
    // Longer than ABANDONED_CLAIM_MS (2 min), so a redelivery finds an abandoned claim as such.
    ({ queue: this.queue, deadLetterQueue: this.deadLetterQueue } = workQueue(this, Duration.minutes(3)));
    this.worker = new ServiceFunction(this, 'Worker', {
      projectRoot: props.projectRoot,
      table: props.table,
      handler: 'sms-worker',
      tableAccess: 'readWrite',
      shortLinkBase: undefined,
      timeout: workerTimeout,
    });
    this.worker.function.addEventSource(new SqsEventSource(this.queue, { batchSize: 10, reportBatchItemFailures: true }));
    this.sweeper = new ServiceFunction(this, 'DeferredSweeper', {
      projectRoot: props.projectRoot,
      table: props.table,
      handler: 'deferred-sweeper',
      tableAccess: 'readWrite',
      shortLinkBase: undefined,
      environment: { SMS_QUEUE_URL: this.queue.queueUrl },
      timeout: Duration.seconds(50),
    });
    this.queue.grantSendMessages(this.sweeper.function);
    new Rule(this, 'EveryMinute', { schedule: Schedule.rate(Duration.minutes(1)), targets: [new LambdaFunction(this.sweeper.function)] });

    // Webhooks: an attempt waits at most 5 s for the receiver; ten run at once per batch.
    const webhooks = new Construct(this, 'Webhooks');
    ({ queue: this.webhookQueue, deadLetterQueue: this.webhookDeadLetterQueue } = workQueue(webhooks, Duration.minutes(2)));
    this.webhookWorker = new ServiceFunction(webhooks, 'Worker', {
      projectRoot: props.projectRoot,
      table: props.table,
      handler: 'webhook-worker',
      tableAccess: 'readWrite',
      shortLinkBase: undefined,
      timeout: Duration.seconds(30),
    });
    this.webhookWorker.function.addEventSource(new SqsEventSource(this.webhookQueue, { batchSize: 10, reportBatchItemFailures: true }));
    // Whatever settles a message may raise webhook events.
    for (const fn of [this.worker, this.sweeper]) this.notifiesWebhooks(fn);
  }

  /** Lets a function hand webhook events to their queue. */
  notifiesWebhooks(fn: ServiceFunction): void {
    fn.function.addEnvironment('WEBHOOK_QUEUE_URL', this.webhookQueue.queueUrl);
    this.webhookQueue.grantSendMessages(fn.function);
  }
}
