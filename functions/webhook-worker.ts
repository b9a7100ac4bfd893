import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { mapLimited } from '../shared/domain/concurrency';
import { runtime } from '../shared/runtime';
import { count, errorField, logger } from '../shared/telemetry';
import { logAttempt } from '../shared/webhooks/delivery-log';

const rt = runtime();

/**
 * Webhook queue consumer: one delivery attempt per event whose time has come (the
 * service claims it first; an early or repeated queue message makes no attempt). A
 * failed attempt is not a failed record: its next try is already scheduled.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failed = await mapLimited(event.Records, 10, attempt);
  return { batchItemFailures: event.Records.filter((_, index) => failed[index]).map((record) => ({ itemIdentifier: record.messageId })) };
};

/** True when the record should come back (storage trouble). */
async function attempt(record: SQSRecord): Promise<boolean> {
  const eventId = (JSON.parse(record.body) as { eventId?: unknown }).eventId;
  if (typeof eventId !== 'string' || eventId === '') {
    logger.error('Skipping a malformed webhook queue message', { sqsMessageId: record.messageId });
    return false;
  }
  try {
    const result = await rt.webhooks.attempt(eventId);
    logAttempt(eventId, result);
    const { outcome } = result;
    if (outcome === 'delivered') count('WebhooksDelivered');
    else if (outcome === 'retry') count('WebhookAttemptsFailed');
    else if (outcome === 'failed') count('WebhooksAbandoned');
    return false;
  } catch (error) {
    logger.error('Webhook attempt failed', { eventId, error: errorField(error) });
    return true;
  }
}
