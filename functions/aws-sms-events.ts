import type { SNSEvent } from 'aws-lambda';
import { runtime } from '../shared/runtime';
import { awsSmsEvents } from '../shared/sms/aws-events';

const rt = runtime();

/** AWS End User Messaging SMS delivery events, subscribed to the configuration set's SNS topic. */
export const handler = async (event: SNSEvent): Promise<void> => {
  await awsSmsEvents(event, { dispatcher: rt.dispatcher });
};
