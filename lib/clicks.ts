import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ServiceFunction } from './service-function';
import { workQueue } from './work-queue';

export interface ClicksProps {
  readonly projectRoot: string;
  readonly table: ITable;
}

/**
 * The click queue and its aggregator: the redirect sends one message per click; the
 * aggregator takes up to 1,000 at a time (gathered for up to a second) and writes once
 * per link and bucket. A batch that fails returns whole and is counted once on retry
 * (see ClickAggregator); after five receives a message goes to the dead-letter queue.
 */
export class Clicks extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly aggregator: ServiceFunction;

  constructor(scope: Construct, id: string, props: ClicksProps) {
    super(scope, id);
    const timeout = Duration.seconds(60);
    // SQS asks for six times the consumer's timeout, so a slow batch is not redelivered mid-run.
    ({ queue: this.queue, deadLetterQueue: this.deadLetterQueue } = workQueue(this, Duration.seconds(timeout.toSeconds() * 6)));
    this.aggregator = new ServiceFunction(this, 'Aggregator', {
      projectRoot: props.projectRoot,
      table: props.table,
      handler: 'click-aggregator',
      tableAccess: 'readWrite',
      shortLinkBase: undefined,
      timeout,
    });
    this.aggregator.function.addEventSource(new SqsEventSource(this.queue, { batchSize: 1000, maxBatchingWindow: Duration.seconds(1) }));
  }
}
