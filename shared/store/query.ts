import { type NativeAttributeValue, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';

/** Runs a query to the last page (or until `atMost` items) and returns every item read. */
export async function queryAll(
  store: Store,
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
  atMost = Number.POSITIVE_INFINITY,
): Promise<Record<string, NativeAttributeValue>[]> {
  const items: Record<string, NativeAttributeValue>[] = [];
  let startKey: Record<string, NativeAttributeValue> | undefined;
  do {
    const page = await store.db.send(new QueryCommand({ ...input, TableName: store.tableName, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < atMost);
  return items;
}
