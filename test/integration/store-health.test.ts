import { createServer, type Server } from 'node:net';
import { storeHealthCheck } from '../../shared/local/health';
import { createStore } from '../../shared/store/client';
import { startTestStore } from '../support/dynamo';

/** What /health reports about the store: dynalite up, dynalite gone, and a store that never answers. */
describe('storeHealthCheck', () => {
  it('is ok while the store answers, and unavailable with the reason once it is gone', async () => {
    // Prepare
    const { store, dynamo } = await startTestStore();
    const check = storeHealthCheck(store, 2000);
    expect(await check()).toEqual({ status: 'ok' });

    // Act
    await dynamo.close();
    const health = await check();

    // Assess
    expect(health).toEqual({ status: 'unavailable', reason: expect.stringMatching(/^The store failed: .*ECONNREFUSED/) });
    store.db.destroy();
  });

  it('gives up on a store that never answers after its timeout, with one read for concurrent checks', async () => {
    // Prepare: a "store" that accepts connections and never answers
    let connections = 0;
    const blackHole: Server = createServer(() => connections++);
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', () => resolve()));
    const { port } = blackHole.address() as { port: number };
    const store = createStore({ tableName: 'shortsms', region: 'us-east-1', dynamoEndpoint: `http://127.0.0.1:${port}` });
    const check = storeHealthCheck(store, 300);

    // Act
    const first = check();
    const second = check();

    // Assess
    expect(second).toBe(first);
    expect(await first).toEqual({ status: 'unavailable', reason: 'The store did not answer within 300 ms' });
    expect(connections).toBe(1);
    store.db.destroy();
    blackHole.close();
  });
});
