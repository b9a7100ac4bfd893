import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { UnitMeter } from '../../scripts/bench/units';
import type { Store } from '../../shared/store/client';
import { startTestStore } from '../support/dynamo';

let store: Store;
let meter: UnitMeter;
let close: () => Promise<void>;

beforeAll(async () => {
  const started = await startTestStore();
  ({ store, close } = started);
  meter = new UnitMeter(store, started.dynamo.endpoint);
});
afterAll(async () => {
  meter.close();
  await close();
});
beforeEach(() => meter.reset());

const key = { pk: 'METER#1', sk: '#ITEM' };
const put = () =>
  store.db.send(
    new PutCommand({ TableName: store.tableName, Item: { ...key, gsi1pk: 'METER', gsi1sk: 'a', gsi3pk: 'METER', gsi3sk: 1, n: 0, id: 1 } }),
  );

describe('UnitMeter', () => {
  it('counts the table units dynalite reports and the index units of the item the write changed', async () => {
    // Act: a put entering gsi1 (all attributes) and gsi3 (keys and id)
    await put();

    // Assess
    expect(meter.get()).toEqual({ read: 0, write: 1, indexWrite: 2 });
  });

  it('counts a moved index key as a delete and a put, and a failed condition as no index write', async () => {
    // Prepare
    await put();
    meter.reset();

    // Act
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: key,
        UpdateExpression: 'ADD n :one SET gsi3sk = :key',
        ExpressionAttributeValues: { ':one': 1, ':key': 2 },
      }),
    );
    const failed = store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: key,
        UpdateExpression: 'ADD n :one',
        ConditionExpression: 'attribute_not_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    await expect(failed).rejects.toThrow('The conditional request failed');

    // Assess: gsi1's entry updated (1), gsi3's moved (2); the failed write adds none
    expect(meter.get().indexWrite).toBe(3);
  });

  it('counts under the label the calling code runs with, apart from the rest', async () => {
    // Prepare
    await put();
    meter.reset();

    // Act
    await meter.labelled('rank', () => store.db.send(new DeleteCommand({ TableName: store.tableName, Key: key })));

    // Assess
    expect(meter.get('rank')).toEqual({ read: 0, write: 1, indexWrite: 2 });
    expect(meter.get()).toEqual({ read: 0, write: 0, indexWrite: 0 });
  });
});
