import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readConfig } from '../../shared/config';
import { ENDPOINT_FILE } from '../../shared/local/runtime';
import { AccountsRepository } from '../../shared/store/accounts-repo';
import { createStore } from '../../shared/store/client';
import { LinksRepository } from '../../shared/store/links-repo';
import { CountedBatches } from './counted-batches';
import { type Memory, readMemory, watchProbe } from './memory';
import { seedLinks } from './seed-links';
import { quietSince, runWrk, startProcess, stopProcess, type WrkResult } from './tools';

export interface LongTailOptions {
  codes: number;
  seconds: number;
  connections: number;
  demoKey: string;
  /** Longest wait for the clicks to be counted after the load. */
  drainLimitMs: number;
}

export interface LongTailResult {
  wrk: WrkResult;
  /** Redirects answered (302) during the load. */
  answered: number;
  /** Seconds from the end of the load until every answered click was counted. */
  drainSeconds: number;
  /** Seconds from the end of the load until the service went quiet (the clickCnt order's rank pass included). */
  quietSeconds: number;
  memory: { start: Memory; load: Memory; drain: Memory };
}

/**
 * The long-tail shape SMS links give: `bin/serve.ts` on a fresh data directory with its
 * consumers on and the default link cache (5 s), `codes` links seeded in its table, then
 * wrk requesting random codes for `seconds`; then the wait until every answered click is
 * counted: the click batches found done are read every half second (CountedBatches), and
 * once the service has gone quiet the links' totals are read through
 * LinksRepository.getMany (the links' click counts, whatever items hold them) to confirm
 * it. Anonymous memory (RssAnon in /proc/PID/status: the
 * heaps, buffers and native allocations, without the LevelDB files the kernel maps) is
 * read after the start (links seeded, no redirect yet), right after the load, and once
 * the clicks are counted, with no forced collection.
 */
export async function longTailRun(work: string, options: LongTailOptions): Promise<LongTailResult> {
  const dataDir = join(work, 'long-tail');
  const service = await startProcess(
    process.execPath,
    ['--import', 'tsx', '--import', './scripts/bench/memory-probe.mjs', 'bin/serve.ts'],
    /Ready: API (http:\/\/127\.0\.0\.1:\d+)/,
    { PORT: '0', DATA_DIR: dataDir, DEMO_API_KEY: options.demoKey, SHORT_LINK_BASE: '', LINK_CACHE_TTL_MS: '5000', LOCAL_QUEUE_CONSUMERS: 'on' },
  );
  const reports = watchProbe(service.child);
  const memory = () => readMemory(service.child, reports);
  // The bench's own client of the service's dynalite, as the admin CLI finds it.
  const endpoint = readFileSync(join(dataDir, ENDPOINT_FILE), 'utf8').trim();
  const store = createStore(readConfig({ DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: 'shortsms' }));
  try {
    const [account] = await new AccountsRepository(store).list();
    const links = await seedLinks(store, account!.id, options.codes, 'long-tail');
    const codesFile = join(work, 'long-tail-codes.txt');
    writeFileSync(codesFile, `${links.map((link) => link.code).join('\n')}\n`);
    const repository = new LinksRepository(store);
    const ids = links.map((link) => link.id);
    const counted = async () => (await repository.getMany(ids)).reduce((sum, link) => sum + link.clickCnt, 0);

    const start = await memory();
    const batches = new CountedBatches(store, new Date());
    const wrk = runWrk(service.match[1]!, codesFile, { seconds: options.seconds, connections: options.connections, threads: 1 });
    const loadEnded = performance.now();
    const load = await memory();
    const answered = wrk.requests - wrk.non2xx3xx;
    // The drain ends when the batches found done hold every answered click (requests wrk
    // gave up on at the end may be counted too: every answered one, at least). The service
    // may go on working after that (the rank pass of the clickCnt order starts at the next
    // sweep once the click queue holds no more than a batch), so it goes quiet later.
    let drained: number | undefined;
    while (drained === undefined) {
      const now = performance.now();
      if ((await batches.counted()) >= answered) drained = now;
      else if (now - loadEnded > options.drainLimitMs) {
        throw new Error(`Clicks not counted ${options.drainLimitMs / 1000} s after the load: ${await batches.counted()} of ${answered}`);
      } else await new Promise((resolve) => setTimeout(resolve, 500));
    }
    // Reading 10,000 links' counts is work for the service's dynalite: they are read once it
    // has gone quiet, to confirm what the batches said.
    const quiet = await quietSince(service.child.pid!, 3000);
    const reading = await counted();
    if (reading < answered) throw new Error(`The links' totals hold ${reading} clicks of the ${answered} their batches counted`);
    const drainSeconds = Math.max(0, drained - loadEnded) / 1000;
    const quietSeconds = Math.max(0, quiet - loadEnded) / 1000;
    return { wrk, answered, drainSeconds, quietSeconds, memory: { start, load, drain: await memory() } };
  } finally {
    store.db.destroy();
    await stopProcess(service.child);
  }
}
