import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readConfig } from '../../shared/config';
import { ENDPOINT_FILE } from '../../shared/local/runtime';
import { AccountsRepository } from '../../shared/store/accounts-repo';
import { createStore } from '../../shared/store/client';
import { LinksRepository } from '../../shared/store/links-repo';
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

export interface Memory {
  rssAnon: number;
  rssFile: number;
  /** The main thread's heap figures, as the service's probe printed them. */
  heap: string;
}

export interface LongTailResult {
  wrk: WrkResult;
  /** Redirects answered (302) during the load. */
  answered: number;
  /** Seconds from the end of the load until every answered click was counted. */
  drainSeconds: number;
  memory: { start: Memory; load: Memory; drain: Memory };
}

/**
 * The long-tail shape SMS links give: `bin/serve.ts` on a fresh data directory with its
 * consumers on and the default link cache (5 s), `codes` links seeded in its table, then
 * wrk requesting random codes for `seconds`; then the wait until every answered click
 * shows in the links' totals, read through LinksRepository.getMany (the links' click
 * counts, whatever items hold them) once the service has gone quiet. Anonymous memory (RssAnon in /proc/PID/status: the
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
  const heapReports: string[] = [];
  service.child.stdout!.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.startsWith('Memory: ')) heapReports.push(line.slice(8));
  });
  const memory = async () => readMemory(service.child.pid!, await heapReport(service.child, heapReports));
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
    const wrk = runWrk(service.match[1]!, codesFile, { seconds: options.seconds, connections: options.connections, threads: 1 });
    const loadEnded = performance.now();
    const load = await memory();
    const answered = wrk.requests - wrk.non2xx3xx;
    // Reading 10,000 links' counts is work for the service's dynalite: the counts are read
    // once the service has gone quiet (the backlog worked off), and the drain ends when it
    // went quiet. Requests wrk gave up on at the end may be counted too: every answered
    // one, at least.
    let drained: number | undefined;
    while (drained === undefined) {
      const quiet = await quietSince(service.child.pid!, 3000);
      const reading = await counted();
      if (reading >= answered) drained = quiet;
      else if (performance.now() - loadEnded > options.drainLimitMs)
        throw new Error(`Clicks not counted ${options.drainLimitMs / 1000} s after the load: ${reading} of ${answered}`);
    }
    const drainSeconds = Math.max(0, drained - loadEnded) / 1000;
    return { wrk, answered, drainSeconds, memory: { start, load, drain: await memory() } };
  } finally {
    store.db.destroy();
    await stopProcess(service.child);
  }
}

/** The process's resident memory by kind, in bytes (Linux /proc). */
function readMemory(pid: number, heap: string): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
  return { rssAnon: kb('RssAnon'), rssFile: kb('RssFile'), heap };
}

/** Asks the service's probe for its heap figures (scripts/bench/memory-probe.mjs). */
async function heapReport(child: ChildProcess, reports: string[]): Promise<string> {
  const before = reports.length;
  child.kill('SIGUSR2');
  for (let i = 0; i < 50 && reports.length === before; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const report = reports[before];
  if (!report) return '?';
  const figures = JSON.parse(report) as NodeJS.MemoryUsage;
  return `heap ${mb(figures.heapUsed)} used of ${mb(figures.heapTotal)}, external ${mb(figures.external)}, array buffers ${mb(figures.arrayBuffers)}`;
}

export function mb(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(0)} MB`;
}
