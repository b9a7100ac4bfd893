import { type NativeAttributeValue, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';

/** Runs a query to the last page and returns every item. */
export async function queryAll(
  store: Store,
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): Promise<Record<string, NativeAttributeValue>[]> {
  const items: Record<string, NativeAttributeValue>[] = [];
  let startKey: Record<string, NativeAttributeValue> | undefined;
  do {
    const page = await store.db.send(new QueryCommand({ ...input, TableName: store.tableName, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
