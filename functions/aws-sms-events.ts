import type { SNSEvent } from 'aws-lambda';
import { awsSmsEvents } from '../shared/api/aws-sms-events';
import { runtime } from '../shared/runtime';

const rt = runtime();

/** AWS End User Messaging SMS delivery events, subscribed to the configuration set's SNS topic. */
export const handler = async (event: SNSEvent): Promise<void> => {
  await awsSmsEvents(event, { dispatcher: rt.dispatcher });
};
