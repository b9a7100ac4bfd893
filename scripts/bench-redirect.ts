import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCommand, runWrk, startProcess, stopProcess, type WrkResult } from './bench/tools';

/**
 * `npm run bench:redirect`: redirect throughput against a bare Node.js 302 server in the
 * same run, and DynamoDB request units per cache-miss redirect and per aggregated click.
 * Prints figures; asserts nothing.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const CODES = Number(process.env.BENCH_CODES ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DEMO_KEY = 'bench000000000000000000000000000000key01';

async function main(): Promise<void> {
  ensureCommand('wrk', 'wrk');
  const work = mkdtempSync(join(tmpdir(), 'bench-redirect-'));
  try {
    const throughput = await measureThroughput(work);
    const units = await measureRequestUnits();
    const line = (label: string, result: WrkResult) =>
      `  ${label.padEnd(34)}${result.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms` +
      (result.non2xx3xx ? `  (${result.non2xx3xx} non-3xx)` : '');
    const ratio = (result: WrkResult) => (result.requestsPerSecond / throughput.bare.requestsPerSecond).toFixed(2);
    console.log('\nbench:redirect');
    console.log(`  ${CODES} codes, random order; wrk 1 thread, ${CONNECTIONS} connections, ${SECONDS} s per run after a 3 s warm-up`);
    console.log(line('bare Node.js 302 from a Map', throughput.bare));
    console.log(line('service, warm cache', throughput.warm));
    console.log(line('service, cache TTL 5 s', throughput.defaultTtl));
    console.log(`  ratio service/bare, warm cache:   ${ratio(throughput.warm)} (target ≥ 0.6)`);
    console.log(`  ratio service/bare, TTL 5 s:      ${ratio(throughput.defaultTtl)}`);
    console.log(`  per cache-miss redirect:     ${units.missRead.toFixed(2)} RRU, ${units.missWrite.toFixed(2)} WRU on the request path (target ≤ 0.5 RRU, 0 WRU)`);
    console.log(`  per click, one hot link:     ${units.perClickWrite.toFixed(4)} WRU after aggregation of ${units.clicks} clicks in batches of ${units.batchSize} (target ≤ 0.05)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Each server as its own process and wrk as another, one after the other. The service's
 * click consumer is off during the timed runs: what is measured is the redirect's own
 * path (on AWS the aggregator runs in its own function; here it would share the one core
 * the server has, and a random-code load makes it write for every click).
 */
async function measureThroughput(work: string) {
  const dataDir = join(work, 'data');
  const codesFile = join(work, 'codes.txt');
  const startService = (env: NodeJS.ProcessEnv) =>
    startProcess(process.execPath, ['--import', 'tsx', 'bin/serve.ts'], /Ready: API (http:\/\/127\.0\.0\.1:\d+)/, {
      PORT: '0',
      DATA_DIR: dataDir,
      DEMO_API_KEY: DEMO_KEY,
      SHORT_LINK_BASE: '',
      ...env,
    });

  // The links, made once through the API.
  const setup = await startService({});
  try {
    const baseUrl = setup.match[1]!;
    const codes: string[] = [];
    for (let i = 0; i < CODES; i++) {
      const response = await fetch(`${baseUrl}/service/Link/Create?apiKey=${DEMO_KEY}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `data[fullLink]=${encodeURIComponent(`https://example.com/${i}`)}`,
      });
      codes.push(((await response.json()) as { data: { code: string } }).data.code);
    }
    writeFileSync(codesFile, `${codes.join('\n')}\n`);
  } finally {
    await stopProcess(setup.child);
  }

  const measure = async (url: string) => {
    runWrk(url, codesFile, { seconds: 3, connections: CONNECTIONS, threads: 1 }); // warm-up: JIT and cache
    return runWrk(url, codesFile, { seconds: SECONDS, connections: CONNECTIONS, threads: 1 });
  };
  const runService = async (cacheTtlMs: number) => {
    const service = await startService({ LOCAL_QUEUE_CONSUMERS: 'off', LINK_CACHE_TTL_MS: String(cacheTtlMs) });
    try {
      return await measure(service.match[1]!);
    } finally {
      await stopProcess(service.child);
    }
  };
  // Warm: entries outlive the run, so every request after the warm-up is a cache hit.
  const warm = await runService(3_600_000);
  // Default TTL: each code is read again every 5 s, from dynalite in the same process.
  const defaultTtl = await runService(5_000);
  const bareServer = await startProcess(process.execPath, ['scripts/bench/bare-server.mjs', codesFile], /Ready: (\d+)/);
  try {
    const bare = await measure(`http://127.0.0.1:${bareServer.match[1]}`);
    return { warm, defaultTtl, bare };
  } finally {
    await stopProcess(bareServer.child);
  }
}

/**
 * In this process, with every DynamoDB call asked for its consumed capacity: redirects
 * with the link cache off (every one a miss), then many clicks on one link aggregated.
 */
async function measureRequestUnits() {
  process.env.LINK_CACHE_TTL_MS = '0';
  process.env.AUTH_CACHE_TTL_MS = '60000';
  const { startLocal } = await import('../shared/local/runtime');
  const local = await startLocal({ port: 0, demoApiKey: DEMO_KEY });
  const units = { read: 0, write: 0 };
  local.runtime.store.db.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
      const isWrite = /Put|Update|Delete|Write/.test(context.commandName ?? '');
      for (const capacity of [consumed ?? []].flat()) units[isWrite ? 'write' : 'read'] += capacity.CapacityUnits ?? 0;
      return result;
    },
    { step: 'initialize', name: 'consumedCapacity' },
  );
  try {
    const created = await fetch(`${local.baseUrl}/service/Link/Create?apiKey=${DEMO_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'data[fullLink]=https://example.com/hot',
    }).then((r) => r.json() as Promise<{ data: { id: number; code: string } }>);
    const { id: linkId, code } = created.data;
    const clicksQueue = local.queues.queues.clicks;
    await fetch(`${local.baseUrl}/${code}`, { redirect: 'manual' }); // loads the code secret once
    await local.queues.drain();

    // Cache-miss redirects: nothing but the redirect runs meanwhile (the queue just fills).
    const misses = 200;
    const handler = (await import('../functions/click-aggregator')).handler;
    await clicksQueue.stop();
    Object.assign(units, { read: 0, write: 0 });
    for (let i = 0; i < misses; i++) await fetch(`${local.baseUrl}/${code}`, { redirect: 'manual' });
    const missRead = units.read / misses;
    const missWrite = units.write / misses;

    // Aggregation: the same hot link clicked many times, counted in queue-sized batches.
    const clicks = 10_000;
    for (let i = 0; i < clicks - misses; i++) {
      clicksQueue.send(JSON.stringify({ linkId, accountId: local.demo.accountId, at: new Date().toISOString(), visitor: 'human', redirected: true }));
    }
    Object.assign(units, { read: 0, write: 0 });
    clicksQueue.consume(handler as never);
    await local.queues.drain();
    return { missRead, missWrite, perClickWrite: units.write / clicks, clicks, batchSize: 1000 };
  } finally {
    await local.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
