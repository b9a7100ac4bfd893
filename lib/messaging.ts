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
 * gateway sees it), and the sweeper that releases deferred campaigns every minute.
 */
export class Messaging extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly worker: ServiceFunction;
  readonly sweeper: ServiceFunction;

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
  }
}
