import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as abstractLevel from 'abstract-level';
import dynalite from 'dynalite';
import { MigrationProgress } from '../store/migration-progress';
import { type TableState, upgradeTable } from './table-upgrade';

export interface LocalDynamo {
  endpoint: string;
  close(): Promise<void>;
}

/**
 * Serves dynalite (the DynamoDB API on LevelDB) on a loopback port. With `path` the data
 * persist there, and only this process may open it; without, they live in memory. With
 * `thread`, dynalite runs in a worker thread of its own, so storage work and the
 * service's request handling use separate cores.
 */
export async function startDynalite(options: { path?: string; port?: number; thread?: boolean } = {}): Promise<LocalDynamo> {
  const modulePath = options.thread ? dynaliteModulePath() : undefined;
  if (modulePath) return startInThread(modulePath, options);
  closeIteratorsOnReturn(abstractLevel);
  const server = dynalite({ path: options.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * dynalite reads Query and Scan results through abstract-level iterators, which it means
 * to close through a `return()` method when the result stream ends or is cut short at its
 * limit; abstract-level's iterators have `close()` and no such method, so every query left
 * its LevelDB iterator open for good. An open iterator pins the memtables (4 MB each) and
 * table files of its moment: with a query every few seconds, LevelDB's memory grew with
 * everything written. This gives the iterators that method (the worker does the same).
 */
function closeIteratorsOnReturn(level: { AbstractKeyIterator: { prototype: object }; AbstractValueIterator: { prototype: object } }): void {
  for (const Iterator of [level.AbstractKeyIterator, level.AbstractValueIterator]) {
    const prototype = Iterator.prototype as { return?: () => Promise<void>; close(): Promise<void> };
    prototype.return ??= function (this: typeof prototype) {
      return this.close();
    };
  }
}

/** The worker's code: a script, so it runs the same under any loader this process uses. */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
// As closeIteratorsOnReturn: dynalite's query streams close their iterators through return().
const level = createRequire(workerData.modulePath)('abstract-level');
for (const Iterator of [level.AbstractKeyIterator, level.AbstractValueIterator]) {
  Iterator.prototype.return ??= function () { return this.close(); };
}
const dynalite = require(workerData.modulePath);
// dynalite reads each item it writes. LevelDB answers such a read from memory in
// microseconds, but classic-level's asynchronous get hands every read to the thread pool
// and back: under load that handoff cost this thread a fifth of its time. Reads here are
// synchronous (the same read, on this thread).
const { ClassicLevel } = createRequire(workerData.modulePath)('classic-level');
if (typeof ClassicLevel.prototype._getSync === 'function') {
  ClassicLevel.prototype._get = function (key, options) {
    try {
      return Promise.resolve(this._getSync(key, options));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}
const server = dynalite({ path: workerData.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.once('error', (error) => parentPort.postMessage({ error: String((error && error.stack) || error) }));
server.listen(workerData.port, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (message) => {
  if (message === 'close') server.close(() => { parentPort.postMessage({ closed: true }); parentPort.close(); });
  // In a worker, the heap figures are the thread's own.
  if (message === 'memory') parentPort.postMessage({ memory: process.memoryUsage() });
});
`;

function dynaliteModulePath(): string | undefined {
  try {
    return createRequire(join(process.cwd(), 'package.json')).resolve('dynalite');
  } catch {
    return undefined; // not run from the project: dynalite stays in this thread
  }
}

/** dynalite's threads in this process, for threadHeaps(). */
const threads = new Set<Worker>();

/**
 * The heap figures of each dynalite thread of this process: the benchmarks' memory probe
 * (scripts/bench/memory-probe.mjs) reports them beside the main thread's, as
 * process.memoryUsage() tells only the main thread's heap.
 */
export function threadHeaps(): Promise<NodeJS.MemoryUsage[]> {
  return Promise.all(
    [...threads].map(
      (worker) =>
        new Promise<NodeJS.MemoryUsage>((resolve) => {
          const onMessage = (message: { memory?: NodeJS.MemoryUsage }) => {
            if (!message.memory) return;
            worker.off('message', onMessage);
            resolve(message.memory);
          };
          worker.on('message', onMessage);
          worker.postMessage('memory');
        }),
    ),
  );
}

async function startInThread(modulePath: string, options: { path?: string; port?: number }): Promise<LocalDynamo> {
  const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { modulePath, path: options.path, port: options.port ?? 0 } });
  threads.add(worker);
  worker.once('exit', () => threads.delete(worker));
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (message: { port?: number; error?: string }) =>
      message.port ? resolve(message.port) : reject(new Error(`dynalite did not start: ${message.error}`)),
    );
    worker.once('error', reject);
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('close');
      await closed;
    },
  };
}

/**
 * Creates the service's table unless it exists, and rebuilds one made by an earlier
 * version with the indexes it lacks (shared/local/table-upgrade.ts). A table created here
 * holds no items of the previous layout: its migration is recorded as done.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<TableState> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const state = await upgradeTable(client, tableName);
    if (state === 'created')
      await new MigrationProgress({ tableName, db: DynamoDBDocumentClient.from(client) }).markCompleted(new Date().toISOString());
    return state;
  } finally {
    client.destroy();
  }
}
