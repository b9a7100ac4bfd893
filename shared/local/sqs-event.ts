import { createHash } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

/** A queue consumer with the shape of an SQS-triggered Lambda handler. */
// biome-ignore lint/suspicious/noConfusingVoidType: the shape of aws-lambda's SQSHandler, which a handler returning nothing satisfies.
export type QueueHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/** A message as a batch hands it over. */
export interface DeliveredMessage {
  messageId: string;
  body: string;
  sentAt: number;
  firstReceivedAt: number | undefined;
  receiveCount: number;
}

/** The event Lambda's SQS event source mapping would hand a handler for `batch`. */
export function sqsEvent(queue: string, batch: DeliveredMessage[]): SQSEvent {
  return {
    Records: batch.map(
      (message): SQSRecord => ({
        messageId: message.messageId,
        receiptHandle: `${message.messageId}#${message.receiveCount}`,
        body: message.body,
        attributes: {
          ApproximateReceiveCount: String(message.receiveCount),
          SentTimestamp: String(message.sentAt),
          SenderId: 'local',
          ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
        },
        messageAttributes: {},
        md5OfBody: createHash('md5').update(message.body).digest('hex'),
        eventSource: 'aws:sqs',
        eventSourceARN: `arn:aws:sqs:local:000000000000:${queue}`,
        awsRegion: 'local',
      }),
    ),
  };
}
