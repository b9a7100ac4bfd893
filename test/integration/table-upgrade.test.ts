import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ListTablesCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, type NativeAttributeValue, ScanCommand as ScanItems } from '@aws-sdk/lib-dynamodb';
import { ensureTable, type LocalDynamo, startDynalite } from '../../shared/local/dynalite';
import { createStore, type Store } from '../../shared/store/client';
import { MigrationProgress } from '../../shared/store/migration-progress';
import { INDEXES, tableDefinition } from '../../shared/store/table';
import { oldData, oldTableDefinition } from '../support/old-layout';

type Item = Record<string, NativeAttributeValue>;

let dynamo: LocalDynamo;
let client: DynamoDBClient;
let stores: Map<string, Store>;
const store = (tableName: string): Store => {
  if (!stores.has(tableName)) stores.set(tableName, createStore({ tableName, region: 'us-east-1', dynamoEndpoint: dynamo.endpoint }));
  return stores.get(tableName)!;
};

beforeEach(async () => {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  dynamo = await startDynalite();
  client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
  stores = new Map();
});
afterEach(async () => {
  for (const opened of stores.values()) opened.db.destroy();
  client.destroy();
  await dynamo.close();
});

/** The fixture's old-shaped items and 300 items of 4 KB: over a megabyte, so more than one Scan page. */
const ITEMS: Item[] = [
  ...oldData().items,
  ...Array.from({ length: 300 }, (_, i) => ({
    pk: `FILLER#${i}`,
    sk: '#FILLER',
    entity: 'Filler',
    big: 2n ** 60n + BigInt(i),
    body: 'x'.repeat(4096),
  })),
];

async function create(definition: ReturnType<typeof tableDefinition>): Promise<void> {
  await client.send(new CreateTableCommand(definition));
  await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 1 }, { TableName: definition.TableName });
}

async function put(tableName: string, items: Item[]): Promise<void> {
  for (let start = 0; start < items.length; start += 25) {
    await store(tableName).db.send(
      new BatchWriteCommand({ RequestItems: { [tableName]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })) } }),
    );
  }
}

/** Every item but the migration's own records, by key. */
async function scan(tableName: string): Promise<Item[]> {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const page = await store(tableName).db.send(new ScanItems({ TableName: tableName, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return sorted(items.filter((item) => !String(item.pk).startsWith('SETTING#migrate-v')));
}

const tables = async () => (await client.send(new ListTablesCommand({}))).TableNames;
const indexesOf = async (tableName: string) =>
  (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort();
const ALL_INDEXES = INDEXES.map((index) => index.name).sort();
const sorted = (items: Item[]) => [...items].sort((a, b) => (`${a.pk}|${a.sk}` < `${b.pk}|${b.sk}` ? -1 : 1));

describe('ensureTable', () => {
  it('rebuilds a table of the previous definition (gsi1 only) with every index, keeping every item as it was', async () => {
    // Prepare
    await create(oldTableDefinition('shortsms'));
    await put('shortsms', ITEMS);

    // Act
    const state = await ensureTable(dynamo.endpoint, 'shortsms');

    // Assess
    expect(state).toBe('upgraded');
    expect(await indexesOf('shortsms')).toEqual(ALL_INDEXES);
    expect(await scan('shortsms')).toEqual(sorted(ITEMS));
    expect(await tables()).toEqual(['shortsms']);
    // The old items still wait for admin migrate.
    expect(await new MigrationProgress(store('shortsms')).completed()).toBe(false);
    expect(await ensureTable(dynamo.endpoint, 'shortsms')).toBe('current');
  });

  it.each([
    [
      'while copying out (the copy holds part of the items)',
      async () => {
        await create(oldTableDefinition('shortsms'));
        await put('shortsms', ITEMS);
        await create(tableDefinition('shortsms-upgrade'));
        await put('shortsms-upgrade', ITEMS.slice(0, 40));
      },
    ],
    [
      'after deleting the original (the copy holds them all)',
      async () => {
        await create(tableDefinition('shortsms-upgrade'));
        await put('shortsms-upgrade', ITEMS);
      },
    ],
    [
      'while copying back (the new table holds part of them)',
      async () => {
        await create(tableDefinition('shortsms-upgrade'));
        await put('shortsms-upgrade', ITEMS);
        await create(tableDefinition('shortsms'));
        await put('shortsms', ITEMS.slice(100, 140));
      },
    ],
  ])('finishes a rebuild stopped %s, losing nothing', async (_when, stoppedAt) => {
    // Prepare
    await stoppedAt();

    // Act
    const state = await ensureTable(dynamo.endpoint, 'shortsms');

    // Assess
    expect(state).toBe('upgraded');
    expect(await indexesOf('shortsms')).toEqual(ALL_INDEXES);
    expect(await scan('shortsms')).toEqual(sorted(ITEMS));
    expect(await tables()).toEqual(['shortsms']);
  });

  it('creates a missing table with every index and records that it has nothing to migrate', async () => {
    // Act
    const state = await ensureTable(dynamo.endpoint, 'fresh');

    // Assess
    expect(state).toBe('created');
    expect(await indexesOf('fresh')).toEqual(ALL_INDEXES);
    expect(await new MigrationProgress(store('fresh')).completed()).toBe(true);
  });

  it('leaves a table of the current definition as it is', async () => {
    // Prepare
    await create(tableDefinition('shortsms'));
    await put('shortsms', ITEMS.slice(0, 30));

    // Act
    const state = await ensureTable(dynamo.endpoint, 'shortsms');

    // Assess
    expect(state).toBe('current');
    expect(await scan('shortsms')).toEqual(sorted(ITEMS.slice(0, 30)));
  });
});
