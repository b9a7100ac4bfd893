import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from '../shared/config';
import { ENDPOINT_FILE } from '../shared/local/runtime';
import { createStore } from '../shared/store/client';
import { LinksRepository } from '../shared/store/links-repo';
import { type Memory, mb, readMemory, watchProbe } from './bench/memory';
import { ensureCommand, quietSince, runWrk, startProcess, stopProcess } from './bench/tools';

/**
 * `npm run bench:memory`: whether the local service's memory stays bounded under a
 * redirect load with its click consumer on. One `bin/serve.ts` process on a fresh data
 * directory, BENCH_CODES links made through the API; after a short warm-up (and its
 * clicks counted) its anonymous memory is read, then, BENCH_RUNS times against the same
 * process, wrk requests random codes for BENCH_SECONDS, the script waits until every
 * answered click is counted in the links' totals (read through LinksRepository.getMany once
 * the service has gone quiet), and reads the memory again.
 * Anonymous memory (RssAnon) is the process's own: the heaps, buffers and native
 * allocations, without the LevelDB files the kernel maps and may drop. Prints figures;
 * asserts nothing.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const CODES = Number(process.env.BENCH_CODES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** Longest wait for the clicks of one run to be counted. */
const DRAIN_LIMIT_MS = Number(process.env.BENCH_DRAIN_LIMIT_S ?? 900) * 1000;
const DEMO_KEY = 'bench000000000000000000000000000000key01';

async function main(): Promise<void> {
  ensureCommand('wrk', 'wrk');
  const work = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  const dataDir = join(work, 'data');
  const service = await startProcess(
    process.execPath,
    ['--import', 'tsx', '--import', './scripts/bench/memory-probe.mjs', 'bin/serve.ts'],
    /Ready: API (http:\/\/127\.0\.0\.1:\d+)/,
    { PORT: '0', DATA_DIR: dataDir, DEMO_API_KEY: DEMO_KEY, SHORT_LINK_BASE: '' },
  );
  const pid = service.child.pid!;
  const reports = watchProbe(service.child);
  const baseUrl = service.match[1]!;
  let store: ReturnType<typeof createStore> | undefined;
  try {
    const codesFile = join(work, 'codes.txt');
    const seeding = Date.now();
    const links = await createLinks(baseUrl, CODES);
    writeFileSync(codesFile, `${links.map((link) => link.code).join('\n')}\n`);
    console.log(`${CODES} links made through Link/Create (16 at a time) in ${((Date.now() - seeding) / 1000).toFixed(0)} s`);

    // The counts are read from the service's own dynalite, as the admin CLI reads them.
    const endpoint = readFileSync(join(dataDir, ENDPOINT_FILE), 'utf8').trim();
    store = createStore(readConfig({ DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: 'shortsms' }));
    const repository = new LinksRepository(store);
    const ids = links.map((link) => link.id);
    const counted = async () => (await repository.getMany(ids)).reduce((sum, link) => sum + link.clickCnt, 0);

    let answered = 0;
    const load = async (seconds: number) => {
      const result = runWrk(baseUrl, codesFile, { seconds, connections: CONNECTIONS, threads: 1 });
      if (result.non2xx3xx > 0) throw new Error(`${result.non2xx3xx} answers were not redirects`);
      answered += result.requests;
      const started = performance.now();
      // The counts are read once the service has gone quiet, so reading them does not slow
      // the counting. Requests wrk gave up on at the end may be counted too: at least every answered one.
      for (;;) {
        const quiet = await quietSince(pid, 3000);
        const now = await counted();
        if (now >= answered) return { result, drainSeconds: Math.max(0, quiet - started) / 1000 };
        if (performance.now() - started > DRAIN_LIMIT_MS)
          throw new Error(`Clicks not counted after ${DRAIN_LIMIT_MS / 1000} s: ${now} of ${answered}`);
      }
    };

    await load(5); // JIT, the link cache, the first batches
    const start = await readMemory(service.child, reports);
    const runs: { rps: number; requests: number; drainSeconds: number; after: Memory }[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { result, drainSeconds } = await load(SECONDS);
      runs.push({
        rps: result.requestsPerSecond,
        requests: result.requests,
        drainSeconds,
        after: await readMemory(service.child, reports),
      });
      console.log(
        `  run ${run + 1}: ${result.requests} redirects, counted ${drainSeconds.toFixed(0)} s after the load; RssAnon ${mb(runs.at(-1)!.after.rssAnon)}`,
      );
    }

    console.log('\nbench:memory');
    console.log(`  ${CODES} codes, random order; wrk 1 thread, ${CONNECTIONS} connections, ${SECONDS} s per run; click consumer on`);
    console.log(
      `  ${'after'.padEnd(34)}${'RssAnon'.padStart(9)}${'ratio'.padStart(7)}${'RssFile'.padStart(9)}   heap used/total, external, array buffers (main thread); heap used/total (dynalite thread)`,
    );
    const line = (label: string, figures: Memory) =>
      console.log(
        `  ${label.padEnd(34)}${mb(figures.rssAnon).padStart(9)}${(figures.rssAnon / start.rssAnon).toFixed(2).padStart(7)}${mb(figures.rssFile).padStart(9)}   ${figures.heap}`,
      );
    line('start (5 s warm-up, counted)', start);
    for (const [i, run] of runs.entries()) {
      line(`run ${i + 1}: ${(run.rps / 1000).toFixed(1)}k req/s, counted in ${run.drainSeconds.toFixed(0)} s`, run.after);
    }
    const worst = Math.max(...runs.map((run) => run.after.rssAnon)) / start.rssAnon;
    console.log(`  largest ratio after a run: ${worst.toFixed(2)} (target ≤ 2)`);
  } finally {
    store?.db.destroy();
    await stopProcess(service.child);
    rmSync(work, { recursive: true, force: true });
  }
}

async function createLinks(baseUrl: string, count: number): Promise<{ id: number; code: string }[]> {
  const links: { id: number; code: string }[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const response = await fetch(`${baseUrl}/service/Link/Create?apiKey=${DEMO_KEY}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `data[fullLink]=${encodeURIComponent(`https://example.com/${i}`)}`,
      });
      const body = (await response.json()) as { code: number; data: { id: number; code: string } };
      if (body.code !== 0) throw new Error(`Link/Create answered ${JSON.stringify(body)}`);
      links[i] = { id: body.data.id, code: body.data.code };
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return links;
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
