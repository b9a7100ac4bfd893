import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { runtime } from '../shared/runtime';

const rt = runtime();

/**
 * SMS queue consumer: hands each queued message to the gateway through the dispatcher,
 * which claims it first so no message is submitted twice. A message whose handling
 * failed (storage unavailable) is reported back to the queue to be tried again.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const messageId = Number((JSON.parse(record.body) as { messageId?: unknown }).messageId);
    if (!Number.isSafeInteger(messageId)) {
      console.error(JSON.stringify({ level: 'ERROR', message: 'Skipping a malformed SMS queue message', sqsMessageId: record.messageId }));
      continue;
    }
    try {
      await rt.dispatcher.dispatch(messageId);
    } catch (error) {
      console.error(JSON.stringify({ level: 'ERROR', message: 'SMS dispatch failed', messageId, error: String(error) }));
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
};
