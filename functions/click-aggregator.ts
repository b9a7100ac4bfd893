import type { SQSEvent } from 'aws-lambda';
import { clickBatch } from '../shared/api/click-batch';
import { runtime } from '../shared/runtime';

const deps = runtime();

/** Click queue consumer: counts a batch of clicks in one pass (see ClickAggregator). */
export const handler = async (event: SQSEvent) => {
  await deps.clicks.aggregate(clickBatch(event));
};
