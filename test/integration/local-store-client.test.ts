import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchGetCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable, type LocalDynamo, startDynalite } from '../../shared/local/dynalite';
import { localStoreClient } from '../../shared/local/store-client';
import { createStore, type Store } from '../../shared/store/client';

/**
 * The local store's client skips the SDK's signing and endpoint rules (shared/local/store-client.ts),
 * and dynalite in its own thread reads LevelDB synchronously (shared/local/dynalite.ts): what
 * the local runtime runs on. Reads and conditional writes must answer as before.
 */
describe('the local store client, against dynalite in its thread', () => {
  let dir: string;
  let dynamo: LocalDynamo;
  let store: Store;
  const sent: Record<string, string>[] = [];

  beforeAll(async () => {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    dir = mkdtempSync(join(tmpdir(), 'local-store-client-'));
    dynamo = await startDynalite({ path: dir, thread: true });
    await ensureTable(dynamo.endpoint, 'test');
    store = createStore({ tableName: 'test', region: 'us-east-1', dynamoEndpoint: dynamo.endpoint }, localStoreClient(dynamo.endpoint));
    // The deserialize step sees the request as it went out, after signing.
    store.db.middlewareStack.add(
      (next) => async (args) => {
        sent.push({ ...(args.request as { headers: Record<string, string> }).headers });
        return next(args);
      },
      { step: 'deserialize', name: 'recordHeaders' },
    );
  });

  afterAll(async () => {
    store.db.destroy();
    await dynamo.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes, reads (absent items included) and refuses a failed condition as dynalite always did', async () => {
    // Prepare
    await store.db.send(new PutCommand({ TableName: 'test', Item: { pk: 'L#1', sk: 'C', clicks: 1, lastBatch: 'b1' } }));

    // Act: batch b2 adds 2 clicks, then the same batch again
    const addOnce = () =>
      store.db.send(
        new UpdateCommand({
          TableName: 'test',
          Key: { pk: 'L#1', sk: 'C' },
          UpdateExpression: 'ADD clicks :n SET lastBatch = :b',
          ConditionExpression: 'lastBatch <> :b',
          ExpressionAttributeValues: { ':n': 2, ':b': 'b2' },
        }),
      );
    await addOnce();
    const again = addOnce();

    // Assess
    await expect(again).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    const read = await store.db.send(new GetCommand({ TableName: 'test', Key: { pk: 'L#1', sk: 'C' }, ConsistentRead: true }));
    expect(read.Item).toEqual({ pk: 'L#1', sk: 'C', clicks: 3, lastBatch: 'b2' });
    expect((await store.db.send(new GetCommand({ TableName: 'test', Key: { pk: 'L#2', sk: 'C' } }))).Item).toBeUndefined();
    const batch = await store.db.send(
      new BatchGetCommand({
        RequestItems: {
          test: {
            Keys: [
              { pk: 'L#1', sk: 'C' },
              { pk: 'L#3', sk: 'C' },
            ],
          },
        },
      }),
    );
    expect(batch.Responses?.test?.map((item) => item.pk)).toEqual(['L#1']);
  });

  it('sends the fixed Authorization header dynalite checks the form of, not a signature computed per request', async () => {
    // Act
    sent.length = 0;
    await store.db.send(new GetCommand({ TableName: 'test', Key: { pk: 'L#1', sk: 'C' } }));
    await store.db.send(new GetCommand({ TableName: 'test', Key: { pk: 'L#9', sk: 'C' } }));

    // Assess
    expect(sent).toHaveLength(2);
    for (const headers of sent) {
      expect(headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=local\/.+, SignedHeaders=host, Signature=0$/);
      expect(headers['x-amz-date']).toBe('20000101T000000Z');
    }
  });
});
