import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { mapLimited } from '../shared/domain/concurrency';
import { runtime } from '../shared/runtime';
import { count, errorField, logger } from '../shared/telemetry';

const rt = runtime();

/** Messages of one batch handed to the gateway at once: most of a submit is waiting. */
const SUBMITS_IN_FLIGHT = 10;

/**
 * SMS queue consumer: hands each queued message to the gateway through the dispatcher,
 * which claims it first so no message is submitted twice (two copies of one queue
 * message in a batch included). A message whose handling failed (storage unavailable)
 * is reported back to the queue to be tried again.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failed = await mapLimited(event.Records, SUBMITS_IN_FLIGHT, dispatch);
  return { batchItemFailures: event.Records.filter((_, index) => failed[index]).map((record) => ({ itemIdentifier: record.messageId })) };
};

/** True when the record should come back. */
async function dispatch(record: SQSRecord): Promise<boolean> {
  const messageId = Number((JSON.parse(record.body) as { messageId?: unknown }).messageId);
  if (!Number.isSafeInteger(messageId)) {
    logger.error('Skipping a malformed SMS queue message', { sqsMessageId: record.messageId });
    return false;
  }
  try {
    const outcome = await rt.dispatcher.dispatch(messageId);
    if (outcome === 'accepted') count('SmsAccepted');
    else if (outcome === 'rejected') count('SmsRejected');
    else if (outcome === 'ambiguous') count('SmsAmbiguous');
    return false;
  } catch (error) {
    logger.error('SMS dispatch failed', { messageId, error: errorField(error) });
    return true;
  }
}
