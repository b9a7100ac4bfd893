import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { type AbstractKeyIterator, AbstractLevel, type AbstractValueIterator } from 'abstract-level';
import { ensureTable, type LocalDynamo, startDynalite } from '../../shared/local/dynalite';
import { createStore, type Store } from '../../shared/store/client';

type LevelIterator = AbstractKeyIterator<never, unknown> | AbstractValueIterator<never, unknown, unknown>;

/**
 * dynalite reads Query and Scan results through LevelDB iterators. An iterator left open
 * pins the memtables and table files of its moment, so each one left behind keeps
 * megabytes for the life of the process: every one must be closed once its result is read.
 */
describe('dynalite on LevelDB', () => {
  const opened: LevelIterator[] = [];
  let dir: string;
  let dynamo: LocalDynamo;
  let store: Store;

  beforeAll(async () => {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    for (const method of ['keys', 'values'] as const) {
      const original = AbstractLevel.prototype[method] as (...args: unknown[]) => LevelIterator;
      jest.spyOn(AbstractLevel.prototype, method).mockImplementation(function (this: AbstractLevel<unknown>, ...args: unknown[]) {
        const iterator = original.apply(this, args);
        opened.push(iterator);
        return iterator as never;
      });
    }
    dir = mkdtempSync(join(tmpdir(), 'dynalite-iterators-'));
    dynamo = await startDynalite({ path: dir });
    await ensureTable(dynamo.endpoint, 'test');
    store = createStore({ tableName: 'test', region: 'us-east-1', dynamoEndpoint: dynamo.endpoint });
    for (let i = 0; i < 30; i++) {
      await store.db.send(
        new PutCommand({ TableName: 'test', Item: { pk: 'P', sk: `S#${String(i).padStart(2, '0')}`, gsi1pk: 'G', gsi1sk: `S#${i}` } }),
      );
    }
  });

  afterAll(async () => {
    store.db.destroy();
    await dynamo.close();
    rmSync(dir, { recursive: true, force: true });
    jest.restoreAllMocks();
  });

  it('closes the iterator of every query and scan, read to the end or stopped at its limit', async () => {
    opened.length = 0;
    const query = { TableName: 'test', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'P' } };
    expect((await store.db.send(new QueryCommand(query))).Items).toHaveLength(30);
    expect((await store.db.send(new QueryCommand({ ...query, Limit: 5 }))).Items).toHaveLength(5);
    const byIndex = { TableName: 'test', IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :g', ExpressionAttributeValues: { ':g': 'G' } };
    expect((await store.db.send(new QueryCommand(byIndex))).Items).toHaveLength(30);
    expect((await store.db.send(new ScanCommand({ TableName: 'test', Limit: 3 }))).Items).toHaveLength(3);

    expect(opened.length).toBeGreaterThanOrEqual(4);
    // A closed iterator refuses to read; an open one, even at its end, answers undefined.
    const states = await Promise.all(
      opened.map((iterator) =>
        iterator.next().then(
          () => 'open',
          (error: { code?: string }) => (error.code === 'LEVEL_ITERATOR_NOT_OPEN' ? 'closed' : String(error)),
        ),
      ),
    );
    expect(states).toEqual(opened.map(() => 'closed'));
  });
});
