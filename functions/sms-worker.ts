import type { SQSRecord } from 'aws-lambda';
import { readBody, SmsBody } from '../shared/queue/bodies';
import { recordBatchHandler } from '../shared/queue/record-batch';
import { runtime } from '../shared/runtime';
import { count, errorField, logger } from '../shared/telemetry';

const rt = runtime();

/**
 * SMS queue consumer: hands each queued message to the gateway through the dispatcher,
 * which claims it first so no message is submitted twice (two copies of one queue
 * message in a batch included). A message whose handling failed (storage unavailable)
 * is reported back to the queue to be tried again; so is a body that is not JSON at all,
 * which no producer writes and which ends in the dead-letter queue to be looked at.
 */
export const handler = recordBatchHandler(dispatch);

async function dispatch(record: SQSRecord): Promise<void> {
  const body = readBody(SmsBody, record.body);
  if (!body) {
    logger.error('Skipping a malformed SMS queue message', { sqsMessageId: record.messageId });
    return;
  }
  const { messageId } = body;
  try {
    const outcome = await rt.dispatcher.dispatch(messageId);
    if (outcome === 'accepted') count('SmsAccepted');
    else if (outcome === 'rejected') count('SmsRejected');
    else if (outcome === 'ambiguous') count('SmsAmbiguous');
  } catch (error) {
    logger.error('SMS dispatch failed', { messageId, error: errorField(error) });
    throw error;
  }
}
