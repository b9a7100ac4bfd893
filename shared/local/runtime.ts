import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { join } from 'node:path';
import { readConfig, readServerSettings, type ServerSettings } from '../config';
import { createRuntime, installRuntime, type Runtime } from '../runtime';
import { RANK_PASS_BUDGET_MS } from '../store/click-ranks';
import { COUNTED_RECOVERY_AGE_MS } from '../store/counted-writes';
import { indexedLists } from '../store/indexed-lists';
import { itemUpgrades } from '../store/item-upgrades';
import { migrate } from '../store/migration';
import { MigrationProgress } from '../store/migration-progress';
import { ROLLUP_PASS_BUDGET_MS } from '../store/rollup-pass';
import { type DemoAccount, ensureDemoAccount } from './bootstrap';
import { crashingAfter } from './crash-point';
import { ensureTable, startDynalite } from './dynalite';
import { type Health, storeHealthCheck } from './health';
import { commitWindowMs, Journal } from './journal';
import { JournalBacklog } from './journal-backlog';
import { LocalQueue, type LocalQueueOptions, LocalQueues, type QueueHandler } from './queue';
import { type HttpServer, startHttpServer } from './server';
import { localStoreClient } from './store-client';

/** Where and how to listen: the port, and HOST and the connection limits, which default as in readServerSettings. */
export interface LocalOptions extends Partial<Omit<ServerSettings, 'port'>> {
  port: number;
  /** Where the table (LevelDB) and the queues' journal are kept; undefined keeps everything in memory (tests). */
  dataDir?: string;
  shortLinkBase?: string;
  demoApiKey?: string;
  tableName?: string;
}

export interface LocalService {
  baseUrl: string;
  port: number;
  dynamoEndpoint: string;
  demo: DemoAccount;
  runtime: Runtime;
  queues: LocalQueues;
  close(): Promise<void>;
}

/** How long a stop waits for requests in flight before it closes their connections. */
export const STOP_GRACE_MS = 10_000;

/** The file through which the admin CLI finds a running local service's DynamoDB endpoint. */
export const ENDPOINT_FILE = 'dynamodb-endpoint';

/**
 * The whole service on one machine: dynalite on a loopback port, then one HTTP server
 * for the API, short links and /health. Handlers read their settings from the
 * environment exactly as on Lambda, so this sets those first.
 */
export async function startLocal(options: LocalOptions): Promise<LocalService> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const dynamo = await startDynalite({ path: options.dataDir ? join(options.dataDir, 'dynamodb') : undefined, thread: true });
  const tableName = options.tableName ?? 'shortsms';
  let http: HttpServer | undefined;
  let journal: Journal | undefined;
  // /health reports "starting" until the runtime, and with it the store client, exists.
  let health: () => Promise<Health> = async () => ({ status: 'unavailable', reason: 'The service is starting' });
  try {
    await ensureTable(dynamo.endpoint, tableName);
    const defaults = readServerSettings({});
    const settings: ServerSettings = {
      host: options.host ?? defaults.host,
      port: options.port,
      maxConnectionsPerIp: options.maxConnectionsPerIp ?? defaults.maxConnectionsPerIp,
      maxConnections: options.maxConnections ?? defaults.maxConnections,
      requestTimeoutMs: options.requestTimeoutMs ?? defaults.requestTimeoutMs,
    };
    http = await startHttpServer({ ...settings, health: () => health() });
    const baseUrl = `http://${urlHost(settings.host)}:${http.port}`;
    process.env.TABLE_NAME = tableName;
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    process.env.SHORT_LINK_BASE = options.shortLinkBase ?? baseUrl;
    process.env.AWS_REGION ??= 'us-east-1';
    journal = options.dataDir ? await Journal.open(join(options.dataDir, 'queues'), { commitMs: commitWindowMs() }) : undefined;
    const queues = await localQueues(journal);
    // LOCAL_CRASH_AFTER (kill tests only) stops the process dead after one step of sending.
    const crashAfter = process.env.LOCAL_CRASH_AFTER || undefined;
    const rt = createRuntime(readConfig(), {
      queues,
      lists: indexedLists,
      sendingPorts: crashAfter ? (ports) => crashingAfter(ports, crashAfter, () => process.kill(process.pid, 'SIGKILL')) : undefined,
      clickWritesInFlight: LOCAL_CLICK_WRITES_IN_FLIGHT,
      storeClient: localStoreClient(dynamo.endpoint),
    });
    await migrateUnlessDone(rt);
    installRuntime(rt);
    health = storeHealthCheck(rt.store);
    const clickAggregator = await import('../../functions/click-aggregator');
    const smsWorker = await import('../../functions/sms-worker');
    const webhookWorker = await import('../../functions/webhook-worker');
    // LOCAL_QUEUE_CONSUMERS=off leaves messages queued (benchmarks of the request path alone).
    if (process.env.LOCAL_QUEUE_CONSUMERS !== 'off') {
      queues.queues.clicks.consume(clickAggregator.handler as QueueHandler);
      queues.queues.sms.consume(smsWorker.handler as QueueHandler);
      queues.queues.webhooks.consume(webhookWorker.handler as QueueHandler);
    }
    const sweeper = startDeferredSweeper(rt, queues.queues.clicks);
    const demo = await ensureDemoAccount(rt, options.demoApiKey);
    const endpointFile = options.dataDir ? join(options.dataDir, ENDPOINT_FILE) : undefined;
    if (endpointFile) writeFileSync(endpointFile, `${dynamo.endpoint}\n`);
    const front = http;
    const queueJournal = journal;
    return {
      baseUrl,
      port: http.port,
      dynamoEndpoint: dynamo.endpoint,
      demo,
      runtime: rt,
      queues,
      async close() {
        if (endpointFile) rmSync(endpointFile, { force: true });
        await front.close(STOP_GRACE_MS);
        await sweeper.stop();
        await queues.drain();
        await queues.stop();
        await queueJournal?.close();
        rt.close();
        rt.store.db.destroy();
        await dynamo.close();
      },
    };
  } catch (error) {
    await http?.close(0);
    await journal?.close();
    await dynamo.close();
    throw error;
  }
}

/**
 * A data directory of the previous version (its table now rebuilt with every index) is
 * migrated before the service answers, so the lists see every item; a stopped migration
 * resumes here. Once a pass has completed this is one read.
 */
async function migrateUnlessDone(rt: Runtime): Promise<void> {
  if (await new MigrationProgress(rt.store).completed()) return;
  console.log('Bringing items written by the previous version to the current layout (admin migrate)…');
  let printed = performance.now();
  const result = await migrate(rt.store, itemUpgrades(rt), {
    onPage: ({ seen, upgraded }) => {
      if (performance.now() - printed < 10_000) return;
      printed = performance.now();
      console.log(`  ${upgraded} items upgraded of ${seen} seen so far`);
    },
  });
  console.log(`Migrated: ${result.upgraded} items upgraded of ${result.seen} seen`);
  // As admin migrate: the migrated counters' quiet days are copied onto the month items by the next passes.
  if (result.completed) await rt.rollups.restart();
}

/**
 * The host part of the service's own URLs. Bound to every address, it is reachable on
 * loopback; the address others use is only known to whoever sets SHORT_LINK_BASE.
 */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return isIPv6(host) ? `[${host}]` : host;
}

/**
 * The queues of the local runtime, with the settings the CDK stack gives their SQS
 * counterparts: clicks in batches of up to 1,000 gathered for up to a second. With a
 * journal, each keeps its messages there (DATA_DIR/queues) and at most
 * QUEUE_MEMORY_WINDOW of them in memory.
 */
async function localQueues(journal: Journal | undefined): Promise<LocalQueues> {
  const backlog = (name: string) => (journal ? JournalBacklog.open(journal, name, { window: QUEUE_MEMORY_WINDOW }) : undefined);
  const queue = async (options: LocalQueueOptions) => new LocalQueue({ ...options, journal: await backlog(options.name) });
  return new LocalQueues({
    clicks: await queue({
      name: 'clicks',
      batchSize: CLICK_BATCH,
      batchWindowMs: 1000,
      visibilityTimeoutMs: 30_000,
      maxReceiveCount: 5,
      deadLetter: await queue({ name: 'clicks-dlq' }),
    }),
    // Redelivery only after a claim counts as abandoned (ABANDONED_CLAIM_MS, 2 minutes).
    sms: await queue({
      name: 'sms',
      batchSize: 10,
      concurrency: 2,
      visibilityTimeoutMs: 3 * 60_000,
      maxReceiveCount: 5,
      deadLetter: await queue({ name: 'sms-dlq' }),
    }),
    // An attempt takes up to 5 s (the webhook's answer); its next try is scheduled in the table.
    webhooks: await queue({
      name: 'webhooks',
      batchSize: 10,
      concurrency: 2,
      visibilityTimeoutMs: 60_000,
      maxReceiveCount: 5,
      deadLetter: await queue({ name: 'webhooks-dlq' }),
    }),
  });
}

/**
 * The click aggregator's writes in flight within a batch, locally. Here the redirect's
 * reads and the aggregator's writes are served by one dynalite thread, in the order they
 * arrive, so each side gets about its share of the requests waiting. A long-tail click
 * costs dynalite one read to answer (when the link cache misses) and one conditional
 * update, about twice the read, to count: with 32 writes in flight against as many
 * redirects waiting, counting fell behind the clicks answered whenever the redirects
 * kept the machine busy (bench:redirect's long tail: 8–19 s to catch up after a minute),
 * and with three times as many it keeps pace (3.5 s). Lambda keeps the default: there
 * the two do not share a server.
 */
const LOCAL_CLICK_WRITES_IN_FLIGHT = 96;

/** Clicks counted per batch, as the stack's event source mapping hands them over (lib/clicks.ts). */
const CLICK_BATCH = 1000;

/** Messages of one queue held in memory at most (about 200 bytes each for clicks); the rest of a backlog waits on disk. */
const QUEUE_MEMORY_WINDOW = 10_000;

/**
 * Sweeps the schedule every 20 seconds (deferred campaigns, checks, expiries, webhook tries),
 * finishes counted changes left by a crash, moves counted links in the clickCnt order and
 * copies settled days onto their month items, as the scheduled function does on AWS. The
 * links are moved only once the click queue holds no more than a batch: on the one local
 * store, counting the clicks answered comes first (bench:redirect's long tail: a pass over
 * 8,000 links is three requests each).
 */
function startDeferredSweeper(rt: Runtime, clicks: LocalQueue): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    const ranks = clicks.depth <= CLICK_BATCH ? rt.ranks.apply(RANK_PASS_BUDGET_MS) : Promise.resolve(0);
    // They run to their end whatever the others do, so stopping can wait for them.
    running = Promise.allSettled([rt.scheduler.sweep(), rt.counted.recover(COUNTED_RECOVERY_AGE_MS), ranks, rt.rollups.run(ROLLUP_PASS_BUDGET_MS)])
      .then((results) => {
        for (const result of results) {
          if (result.status === 'rejected')
            console.error(JSON.stringify({ level: 'ERROR', message: 'Deferred sweep failed', error: String(result.reason) }));
        }
      })
      .finally(() => (running = undefined));
  }, 20_000);
  timer.unref();
  // Stopping waits for a sweep under way, so nothing touches the store after it closes.
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
