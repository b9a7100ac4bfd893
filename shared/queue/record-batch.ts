import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

/**
 * An SQS consumer that handles each record of a batch on its own, all at once, and
 * reports the records whose handling threw as batch item failures: only those come back,
 * after the visibility timeout (the event source mapping has ReportBatchItemFailures on).
 * The workers' batches hold ten records (the stack's and the local queue's batch size),
 * so all at once is ten in flight.
 */
export function recordBatchHandler(
  handleRecord: (record: SQSRecord) => Promise<void>,
): (event: SQSEvent, context: Context) => Promise<SQSBatchResponse> {
  return (event, context) => {
    // A processor holds the batch it works on, and the local queue runs batches side by
    // side in one process: one processor per batch.
    const processor = new BatchProcessor(EventType.SQS);
    // A batch in which every record failed is reported record by record too, rather than
    // thrown: the queue returns the same records either way, without an invocation error.
    return processPartialResponse(event, handleRecord, processor, { context, throwOnFullBatchFailure: false });
  };
}
