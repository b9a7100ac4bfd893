import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_ATTEMPTS, localStoreClient } from '../../shared/local/store-client';
import { createStore } from '../../shared/store/client';

/**
 * How the local store's client treats its connections to dynalite (shared/local/store-client.ts):
 * a connection reset is retried without the SDK's retry quota, and an idle connection is
 * closed by the client before the server would. The server here answers GetItem with an
 * empty result, or resets the connection, as each test decides.
 */
describe('the local store client and its connections', () => {
  let server: Server;
  let endpoint: string;
  let answer: (request: IncomingMessage, response: ServerResponse) => void;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => answer(request, response));
    });
    // The server never drops an idle connection during a test: only the client may.
    server.keepAliveTimeout = 60_000;
    server.on('connection', (socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const empty = (response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
    response.end('{}');
  };
  const get = (db: DynamoDBDocumentClient) => db.send(new GetCommand({ TableName: 'test', Key: { pk: 'L#1', sk: 'C' } }));

  /** The first BURST requests have their connections reset, the others are answered: a burst of calls after a pause. */
  const BURST = 150;
  const resetFirst = () => {
    let requests = 0;
    answer = (request, response) => (++requests <= BURST ? request.socket.destroy() : empty(response));
    return () => requests;
  };

  it('retries a burst of reset connections, past the 100 retries the SDK allows a client at once', async () => {
    // Prepare
    const requests = resetFirst();
    const store = createStore({ tableName: 'test', region: 'us-east-1', dynamoEndpoint: endpoint }, localStoreClient(endpoint));

    // Act
    const results = await Promise.allSettled(Array.from({ length: BURST }, () => get(store.db)));

    // Assess: every call answered, each after its reset
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(requests()).toBe(2 * BURST);
    store.db.destroy();
  });

  it('fails after LOCAL_ATTEMPTS resets of one call', async () => {
    // Prepare
    let requests = 0;
    answer = (request) => {
      requests++;
      request.socket.destroy();
    };
    const store = createStore({ tableName: 'test', region: 'us-east-1', dynamoEndpoint: endpoint }, localStoreClient(endpoint));

    // Act
    const call = get(store.db);

    // Assess
    await expect(call).rejects.toThrow(/socket hang up/);
    expect(requests).toBe(LOCAL_ATTEMPTS);
    store.db.destroy();
  });

  it('is what a client with the SDK defaults lacks: its quota runs out and calls of the burst fail', async () => {
    // Prepare: the same burst, a client as the SDK makes it
    resetFirst();
    const plain = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    );

    // Act
    const results = await Promise.allSettled(Array.from({ length: BURST }, () => get(plain)));

    // Assess
    const failed = results.filter((result) => result.status === 'rejected');
    expect(failed.length).toBeGreaterThan(0);
    expect(String((failed[0] as PromiseRejectedResult).reason)).toMatch(/socket hang up/);
    plain.destroy();
  }, 30_000);

  it('closes a connection left idle itself, before the server would', async () => {
    // Prepare
    answer = (_request, response) => empty(response);
    const store = createStore({ tableName: 'test', region: 'us-east-1', dynamoEndpoint: endpoint }, localStoreClient(endpoint));
    sockets.length = 0;

    // Act: one call, then the connection idles
    await get(store.db);
    const [socket] = sockets;
    const closedBy = await new Promise<string>((resolve) => {
      socket!.once('end', () => resolve('client'));
      socket!.once('close', () => resolve('server'));
    });

    // Assess: the client ended it (the server would only after 60 s)
    expect(sockets).toHaveLength(1);
    expect(closedBy).toBe('client');
    store.db.destroy();
  }, 15_000);
});
