import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * A work queue with its dead-letter queue, both encrypted and TLS-only: a message goes to
 * the dead-letter queue after five receives and is kept there two weeks for inspection.
 */
export function workQueue(scope: Construct, visibilityTimeout: Duration): { queue: Queue; deadLetterQueue: Queue } {
  const deadLetterQueue = new Queue(scope, 'DeadLetterQueue', {
    retentionPeriod: Duration.days(14),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  const queue = new Queue(scope, 'Queue', {
    visibilityTimeout,
    retentionPeriod: Duration.days(4),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: 5 },
  });
  return { queue, deadLetterQueue };
}
