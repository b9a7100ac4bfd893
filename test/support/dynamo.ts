import { type NativeAttributeValue, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable, type LocalDynamo, startDynalite } from '../../shared/local/dynalite';
import { localStoreClient } from '../../shared/local/store-client';
import { createStore, type Store } from '../../shared/store/client';

/** An in-memory dynalite with the service's table, and a store on it. */
export async function startTestStore(): Promise<{ store: Store; dynamo: LocalDynamo; close(): Promise<void> }> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const dynamo = await startDynalite();
  await ensureTable(dynamo.endpoint, 'test');
  const store = createStore({ tableName: 'test', region: 'us-east-1', dynamoEndpoint: dynamo.endpoint }, localStoreClient(dynamo.endpoint));
  return {
    store,
    dynamo,
    async close() {
      store.db.destroy();
      await dynamo.close();
    },
  };
}

/** Every item of the store's table, page by page (tests only: a whole-table Scan). */
export async function allItems(store: Store): Promise<Record<string, NativeAttributeValue>[]> {
  const items: Record<string, NativeAttributeValue>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await store.db.send(new ScanCommand({ TableName: store.tableName, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}
