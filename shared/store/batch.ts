import { BatchGetCommand, type BatchGetCommandOutput, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import type { Key } from './keys';

/**
 * Reads items by key, 100 per BatchGetItem (the API's limit), retrying unprocessed keys.
 * Missing keys are absent. `consistent` reads every item as of now (twice the read units).
 */
export async function batchGetAll(store: Store, itemKeys: Key[], consistent = false): Promise<Record<string, NativeAttributeValue>[]> {
  const items: Record<string, NativeAttributeValue>[] = [];
  for (let start = 0; start < itemKeys.length; start += 100) {
    let request: BatchGetCommandOutput['UnprocessedKeys'] = {
      [store.tableName]: { Keys: itemKeys.slice(start, start + 100), ...(consistent ? { ConsistentRead: true } : {}) },
    };
    while (request && Object.keys(request).length > 0) {
      const result: BatchGetCommandOutput = await store.db.send(new BatchGetCommand({ RequestItems: request }));
      items.push(...(result.Responses?.[store.tableName] ?? []));
      request = result.UnprocessedKeys;
    }
  }
  return items;
}
