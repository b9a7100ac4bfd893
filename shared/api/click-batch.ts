import type { SQSEvent } from 'aws-lambda';
import type { QueuedClick } from '../domain/click-aggregator';
import type { ClickEvent } from '../domain/clicks';
import { ClickBody, readBody } from '../queue/bodies';
import { logger } from '../telemetry';

/**
 * Reads an SQS batch of click events. A body that is not a click event is logged and
 * skipped: retrying it could never succeed, and it must not hold back the batch.
 */
export function clickBatch(event: SQSEvent): QueuedClick[] {
  const clicks: QueuedClick[] = [];
  for (const record of event.Records) {
    const click = parseClick(record.body);
    if (!click) {
      logger.error('Skipping a malformed click message', { sqsMessageId: record.messageId });
      continue;
    }
    const receiveCount = Number(record.attributes.ApproximateReceiveCount) || 1;
    const firstReceived = Number(record.attributes.ApproximateFirstReceiveTimestamp);
    clicks.push({
      messageId: record.messageId,
      receiveCount,
      firstReceivedAt: new Date(
        Number.isFinite(firstReceived) && firstReceived > 0 ? firstReceived : Number(record.attributes.SentTimestamp) || Date.now(),
      ),
      event: click,
    });
  }
  return clicks;
}

/** The click, or undefined for any body that is not one: JSON of another shape or not JSON at all. */
function parseClick(body: string): ClickEvent | undefined {
  try {
    return readBody(ClickBody, body);
  } catch {
    return undefined;
  }
}
