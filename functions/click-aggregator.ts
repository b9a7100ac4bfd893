import type { SQSEvent } from 'aws-lambda';
import { clickBatch } from '../shared/api/click-batch';
import { runtime } from '../shared/runtime';

const deps = runtime();

/**
 * Click queue consumer: counts a batch of clicks in one pass (see ClickAggregator). Not a
 * per-record batch processor: the aggregator claims and writes the batch as one set of
 * messages (one write per link and bucket), so no single record can fail on its own.
 * When it fails, the handler throws and the whole batch comes back, to be recognised on
 * redelivery; malformed bodies are skipped in clickBatch.
 */
export const handler = async (event: SQSEvent) => {
  await deps.clicks.aggregate(clickBatch(event));
};
