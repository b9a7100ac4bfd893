import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';

/** The service's queues: clicks (redirect → click aggregator), sms (send → SMS worker), webhooks (final status → webhook worker). */
export type QueueName = 'clicks' | 'sms' | 'webhooks';

/** How producers hand work to a queue; SQS on AWS, in-process locally. */
export interface Queues {
  send(queue: QueueName, body: string): Promise<void>;
}

/** SQS queues by URL, from CLICK_QUEUE_URL, SMS_QUEUE_URL and WEBHOOK_QUEUE_URL. */
export class SqsQueues implements Queues {
  readonly #client: SQSClient;

  constructor(
    private readonly urls: Partial<Record<QueueName, string>>,
    region: string,
  ) {
    this.#client = new SQSClient({ region, maxAttempts: 3 });
  }

  async send(queue: QueueName, body: string): Promise<void> {
    const url = this.urls[queue];
    if (!url) throw new Error(`No URL configured for the ${queue} queue`);
    await this.#client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }));
  }
}

/** For processes that send nothing (the admin CLI): any send is a wiring mistake. */
export const noQueues: Queues = {
  send: async (queue) => {
    throw new Error(`This process has no ${queue} queue`);
  },
};
