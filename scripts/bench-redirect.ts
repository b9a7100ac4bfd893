import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LongTailResult, longTailRun } from './bench/long-tail-run';
import { mb } from './bench/memory';
import { cpuMicros, ensureCommand, runWrk, startProcess, stopProcess, type WrkResult } from './bench/tools';
import { UnitMeter } from './bench/units';

/**
 * `npm run bench:redirect`: redirect throughput against a bare Node.js 302 server in the
 * same run, DynamoDB request units per cache-miss redirect and per aggregated click, and
 * a long-tail run with the consumers on (scripts/bench/long-tail-run.ts): whether counting
 * keeps up with the redirects, and the service's memory. `BENCH_ONLY=rounds` or
 * `BENCH_ONLY=long-tail` runs one part. Prints figures; asserts nothing.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const CODES = Number(process.env.BENCH_CODES ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DEMO_KEY = 'bench000000000000000000000000000000key01';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const ONLY = process.env.BENCH_ONLY;
/** The long-tail run: its codes and how long wrk runs. */
const LONG_TAIL_CODES = Number(process.env.BENCH_LONG_TAIL_CODES ?? 10_000);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const DRAIN_LIMIT_MS = Number(process.env.BENCH_DRAIN_LIMIT_S ?? 900) * 1000;

async function main(): Promise<void> {
  ensureCommand('wrk', 'wrk');
  const work = mkdtempSync(join(tmpdir(), 'bench-redirect-'));
  try {
    if (ONLY !== 'long-tail') await rounds(work);
    if (ONLY !== 'rounds') {
      const run = await longTailRun(work, {
        codes: LONG_TAIL_CODES,
        seconds: LOAD_SECONDS,
        connections: CONNECTIONS,
        demoKey: DEMO_KEY,
        drainLimitMs: DRAIN_LIMIT_MS,
      });
      printLongTail(run);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function rounds(work: string): Promise<void> {
  const throughput = await measureThroughput(work);
  const units = await measureRequestUnits();
  const line = (label: string, runs: Run[]) => {
    const rps = median(runs.map((run) => run.requestsPerSecond));
    const cpu = median(runs.map((run) => run.cpuMicrosPerRequest));
    const p50 = median(runs.map((run) => run.p50Ms));
    const p99 = median(runs.map((run) => run.p99Ms));
    const errors = runs.reduce((sum, run) => sum + run.non2xx3xx, 0);
    return `  ${label.padEnd(30)}${rps.toFixed(0).padStart(7)} req/s ${cpu.toFixed(0).padStart(5)} µs CPU/req  p50 ${p50.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms${errors ? `  (${errors} non-3xx)` : ''}`;
  };
  const ratios = (runs: Run[], measure: (run: Run) => number, inverse = false) => {
    const perRound = runs.map((run, i) => (inverse ? measure(throughput.bare[i]!) / measure(run) : measure(run) / measure(throughput.bare[i]!)));
    return `${median(perRound).toFixed(2)} (rounds ${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)})`;
  };
  console.log('\nbench:redirect');
  console.log(
    `  ${CODES} codes, random order; wrk 1 thread, ${CONNECTIONS} connections; ${ROUNDS} rounds of ${SECONDS} s per server, servers taking turns; medians`,
  );
  console.log(line('bare Node.js 302 from a Map', throughput.bare));
  console.log(line('service, warm cache', throughput.warm));
  console.log(line('service, cache TTL 5 s', throughput.defaultTtl));
  console.log(`  ratio service/bare, warm cache:  throughput ${ratios(throughput.warm, (run) => run.requestsPerSecond)} (target ≥ 0.6)`);
  console.log(`                                   CPU per request, bare/service ${ratios(throughput.warm, (run) => run.cpuMicrosPerRequest, true)}`);
  console.log(`  ratio service/bare, TTL 5 s:     throughput ${ratios(throughput.defaultTtl, (run) => run.requestsPerSecond)}`);
  console.log(
    `  per cache-miss redirect:     ${units.missRead.toFixed(2)} RRU, ${units.missWrite.toFixed(2)} WRU on the request path (target ≤ 0.5 RRU, 0 WRU)`,
  );
  console.log(
    `  per click, one hot link:     ${units.perClickWrite.toFixed(4)} WRU after aggregation of ${units.clicks} clicks in batches of ${units.batchSize}, table ${units.perClickTable.toFixed(4)} + index ${units.perClickIndex.toFixed(4)} (target ≤ 0.05)`,
  );
}

function printLongTail(run: LongTailResult): void {
  const { start, load, drain } = run.memory;
  const total = LOAD_SECONDS + run.drainSeconds;
  console.log('\nbench:redirect, long tail');
  console.log(
    `  ${LONG_TAIL_CODES} codes, random order; wrk 1 thread, ${CONNECTIONS} connections, ${LOAD_SECONDS} s; link cache TTL 5 s; consumers on (the aggregator in the same process)`,
  );
  console.log(
    `  answered:   ${run.answered} redirects, ${(run.answered / LOAD_SECONDS).toFixed(0)} req/s (p50 ${run.wrk.p50Ms.toFixed(2)} ms, p99 ${run.wrk.p99Ms.toFixed(2)} ms)`,
  );
  console.log(`  counted:    ${(run.answered / total).toFixed(0)} clicks/s from the start of the load until every answered click was counted`);
  console.log(`  drained:    every answered click counted ${run.drainSeconds.toFixed(1)} s after the load ended (target ≤ 10 s after 60 s)`);
  console.log(`  quiet:      the service went quiet ${run.quietSeconds.toFixed(1)} s after the load ended (the clickCnt order's rank pass included)`);
  console.log(
    `  ${'RssAnon'.padStart(21)}${'ratio'.padStart(7)}${'RssFile'.padStart(9)}   heap used/total, external, array buffers (main thread); heap used/total (dynalite thread)`,
  );
  const line = (label: string, figures: typeof start) =>
    console.log(
      `  ${label.padEnd(12)}${mb(figures.rssAnon).padStart(9)}${(figures.rssAnon / start.rssAnon).toFixed(2).padStart(7)}${mb(figures.rssFile).padStart(9)}   ${figures.heap}`,
    );
  line('after start', start);
  line('after load', load);
  line('after drain', drain);
  console.log(`  largest ratio: ${(Math.max(load.rssAnon, drain.rssAnon) / start.rssAnon).toFixed(2)} (target ≤ 2)`);
}

type Run = WrkResult & { cpuMicrosPerRequest: number };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Each server as its own process, all started before the timed runs, and wrk as another
 * process against one server at a time. The servers take turns, round after round (many
 * short rounds), so a change in the load the shared machine carries shows in every series
 * alike; each round's ratio compares a service run with the bare run right next to it.
 * The service's click consumer is off during the timed runs: what is measured is the
 * redirect's own path (on AWS the aggregator runs in its own function; here it would
 * share the one core the server has, and a random-code load makes it write for every
 * click).
 */
async function measureThroughput(work: string) {
  const dataDir = join(work, 'data');
  const codesFile = join(work, 'codes.txt');
  const startService = (env: NodeJS.ProcessEnv, dir = dataDir) =>
    startProcess(process.execPath, ['--import', 'tsx', 'bin/serve.ts'], /Ready: API (http:\/\/127\.0\.0\.1:\d+)/, {
      PORT: '0',
      DATA_DIR: dir,
      DEMO_API_KEY: DEMO_KEY,
      SHORT_LINK_BASE: '',
      ...env,
    });

  // The links, made once through the API, as fast as it answers (more than one account's
  // default rate limit allows).
  const setup = await startService({ API_RATE_LIMIT: '0' });
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
  // One process opens a data directory at a time: the second service gets a copy.
  const copyDir = join(work, 'data-copy');
  cpSync(dataDir, copyDir, { recursive: true });

  const servers = [
    // Warm: entries outlive the run, so every request after the warm-up is a cache hit.
    { name: 'warm', ...(await startService({ LOCAL_QUEUE_CONSUMERS: 'off', LINK_CACHE_TTL_MS: '3600000' })) },
    // Default TTL: each code is read again every 5 s, from dynalite in the same process.
    { name: 'defaultTtl', ...(await startService({ LOCAL_QUEUE_CONSUMERS: 'off', LINK_CACHE_TTL_MS: '5000' }, copyDir)) },
  ];
  const bare = await startProcess(process.execPath, ['scripts/bench/bare-server.mjs', codesFile], /Ready: (\d+)/);
  // Bare in the middle: each service run is next to the bare run it is compared with.
  const [warm, defaultTtl] = servers.map((server) => ({ name: server.name, child: server.child, url: server.match[1]! }));
  const targets = [warm!, { name: 'bare', child: bare.child, url: `http://127.0.0.1:${bare.match[1]}` }, defaultTtl!];
  try {
    for (const target of targets) runWrk(target.url, codesFile, { seconds: 3, connections: CONNECTIONS, threads: 1 }); // JIT, caches
    const runs: Record<string, Run[]> = { warm: [], defaultTtl: [], bare: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        const before = cpuMicros(target.child.pid!);
        const result = runWrk(target.url, codesFile, { seconds: SECONDS, connections: CONNECTIONS, threads: 1 });
        const requests = result.requestsPerSecond * SECONDS;
        runs[target.name]!.push({ ...result, cpuMicrosPerRequest: (cpuMicros(target.child.pid!) - before) / requests });
      }
    }
    return { warm: runs.warm!, defaultTtl: runs.defaultTtl!, bare: runs.bare! };
  } finally {
    await Promise.all(targets.map((target) => stopProcess(target.child)));
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
  const meter = new UnitMeter(local.runtime.store, local.dynamoEndpoint);
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
    meter.reset();
    for (let i = 0; i < misses; i++) await fetch(`${local.baseUrl}/${code}`, { redirect: 'manual' });
    const missRead = meter.get().read / misses;
    const missWrite = (meter.get().write + meter.get().indexWrite) / misses;

    // Aggregation: the same hot link clicked many times, counted in queue-sized batches.
    const clicks = 10_000;
    for (let i = 0; i < clicks - misses; i++) {
      clicksQueue.send(JSON.stringify({ linkId, accountId: local.demo.accountId, at: new Date().toISOString(), visitor: 'human', redirected: true }));
    }
    meter.reset();
    clicksQueue.consume(handler as never);
    await local.queues.drain();
    const { write, indexWrite } = meter.get();
    return {
      missRead,
      missWrite,
      perClickWrite: (write + indexWrite) / clicks,
      perClickTable: write / clicks,
      perClickIndex: indexWrite / clicks,
      clicks,
      batchSize: 1000,
    };
  } finally {
    meter.close();
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
