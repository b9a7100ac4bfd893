import type { SQSRecord } from 'aws-lambda';
import { readBody, WebhookBody } from '../shared/queue/bodies';
import { recordBatchHandler } from '../shared/queue/record-batch';
import { runtime } from '../shared/runtime';
import { count, errorField, logger } from '../shared/telemetry';
import { logAttempt } from '../shared/webhooks/delivery-log';

const rt = runtime();

/**
 * Webhook queue consumer: one delivery attempt per event whose time has come (the
 * service claims it first; an early or repeated queue message makes no attempt). A
 * failed attempt is not a failed record: its next try is already scheduled. Storage
 * trouble fails the record, and so does a body that is not JSON at all.
 */
export const handler = recordBatchHandler(attempt);

async function attempt(record: SQSRecord): Promise<void> {
  const body = readBody(WebhookBody, record.body);
  if (!body) {
    logger.error('Skipping a malformed webhook queue message', { sqsMessageId: record.messageId });
    return;
  }
  const { eventId } = body;
  try {
    const result = await rt.webhooks.attempt(eventId);
    logAttempt(eventId, result);
    const { outcome } = result;
    if (outcome === 'delivered') count('WebhooksDelivered');
    else if (outcome === 'retry') count('WebhookAttemptsFailed');
    else if (outcome === 'failed') count('WebhooksAbandoned');
  } catch (error) {
    logger.error('Webhook attempt failed', { eventId, error: errorField(error) });
    throw error;
  }
}
