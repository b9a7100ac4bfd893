import { randomUUID } from 'node:crypto';

/**
 * Ids shaped like UUIDs, unique across processes and restarts: a random prefix drawn once
 * per process and a counter. For request and queue message ids on the local runtime's hot
 * paths, where a fresh random UUID per item costs more than the rest of the work.
 */
export function sequentialIds(): () => string {
  const prefix = randomUUID().slice(0, 24);
  let counter = 0;
  return () => prefix + (counter++).toString(16).padStart(12, '0');
}
