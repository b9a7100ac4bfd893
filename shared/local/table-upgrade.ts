import {
  type AttributeValue,
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndexDescription,
  ResourceNotFoundException,
  ScanCommand,
  type TableDescription,
  waitUntilTableExists,
  waitUntilTableNotExists,
} from '@aws-sdk/client-dynamodb';
import { tableDefinition } from '../store/table';

/** What ensureTable found: no table, a table of an earlier definition (now rebuilt), or the current one. */
export type TableState = 'created' | 'upgraded' | 'current';

/**
 * Brings the local table to `tableDefinition`. dynalite cannot add an index to a table
 * (its UpdateTable ignores GlobalSecondaryIndexUpdates), so a table of an earlier
 * definition is rebuilt: copied into `<name>-upgrade` made with every index, deleted,
 * made again with every index, and copied back. The data are always whole somewhere:
 * the original is deleted only once the copy is complete, and the copy only once the
 * copy back is; each step is recognised from the tables present on the next start, so a
 * crash anywhere resumes the rebuild and loses nothing.
 */
export async function upgradeTable(client: DynamoDBClient, tableName: string): Promise<TableState> {
  const spare = `${tableName}-upgrade`;
  let original = await describe(client, tableName);
  let copy = await describe(client, spare);
  // A delete cut short: the original is deleted only after the copy was complete, the copy only after the copy back.
  if (original?.TableStatus === 'DELETING') original = await drop(client, tableName);
  if (copy?.TableStatus === 'DELETING') copy = await drop(client, spare);

  if (!original && !copy) {
    await create(client, tableName);
    return 'created';
  }
  if (original && !copy) {
    if (isCurrent(original)) return 'current';
    await create(client, spare);
    await copyItems(client, tableName, spare);
    original = await drop(client, tableName);
  } else if (original && !isCurrent(original)) {
    // Stopped while copying out: the copy may lack items; copy them all again.
    await copyItems(client, tableName, spare);
    original = await drop(client, tableName);
  }
  // The complete copy is in the spare table; the original is gone or has every index.
  if (!original) await create(client, tableName);
  await copyItems(client, spare, tableName);
  await drop(client, spare);
  return 'upgraded';
}

async function describe(client: DynamoDBClient, tableName: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

async function create(client: DynamoDBClient, tableName: string): Promise<void> {
  await client.send(new CreateTableCommand(tableDefinition(tableName)));
  // dynalite makes the table ACTIVE on a timer: a request that overtakes it is refused.
  await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 1 }, { TableName: tableName });
}

async function drop(client: DynamoDBClient, tableName: string): Promise<undefined> {
  try {
    await client.send(new DeleteTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await waitUntilTableNotExists({ client, maxWaitTime: 60, minDelay: 1, maxDelay: 1 }, { TableName: tableName });
  return undefined;
}

/** Whether the table has every index of the definition, each with its keys and projection. */
function isCurrent(table: TableDescription): boolean {
  const shape = (index: GlobalSecondaryIndexDescription) =>
    JSON.stringify([
      index.IndexName,
      (index.KeySchema ?? []).map((key) => `${key.AttributeName} ${key.KeyType}`),
      index.Projection?.ProjectionType,
      [...(index.Projection?.NonKeyAttributes ?? [])].sort(),
    ]);
  const present = new Set((table.GlobalSecondaryIndexes ?? []).map(shape));
  return (tableDefinition(table.TableName ?? '').GlobalSecondaryIndexes ?? []).every((index) => present.has(shape(index)));
}

/**
 * Every item of `from` put into `to`, a Scan page (1 MB) at a time, in BatchWriteItem
 * requests of 25: memory holds one page, whatever the table's size. Puts of the same
 * items are idempotent, so a copy cut short is simply made again.
 */
async function copyItems(client: DynamoDBClient, from: string, to: string): Promise<void> {
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: from, ExclusiveStartKey: start }));
    const items = page.Items ?? [];
    const writes: Promise<void>[] = [];
    for (let i = 0; i < items.length; i += 25) writes.push(putAll(client, to, items.slice(i, i + 25)));
    await Promise.all(writes);
    start = page.LastEvaluatedKey;
  } while (start);
}

async function putAll(client: DynamoDBClient, tableName: string, items: Record<string, AttributeValue>[]): Promise<void> {
  let request: Record<string, { PutRequest?: { Item: Record<string, AttributeValue> | undefined } }[]> | undefined = {
    [tableName]: items.map((Item) => ({ PutRequest: { Item } })),
  };
  while (request && Object.keys(request).length > 0) {
    request = (await client.send(new BatchWriteItemCommand({ RequestItems: request as never }))).UnprocessedItems as typeof request;
  }
}
