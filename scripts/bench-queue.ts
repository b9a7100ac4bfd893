import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../shared/local/journal';
import { JournalBacklog } from '../shared/local/journal-backlog';
import { LocalQueue } from '../shared/local/queue';

/**
 * `npm run bench:queue`: what a backlog of queued clicks costs the local service's memory.
 * The click queue as the local runtime builds it (its journal in a fresh directory, at most
 * 10,000 messages in memory, nobody consuming) is sent BENCH_QUEUE_MESSAGES click events
 * at BENCH_QUEUE_RATE a second, each a click as the redirect queues it (a browser's
 * user agent); after each million, the process's anonymous memory (RssAnon) after a forced
 * collection is printed against what it was before the first send. Prints figures; asserts nothing.
 */
const MESSAGES = Number(process.env.BENCH_QUEUE_MESSAGES ?? 3_000_000);
const RATE = Number(process.env.BENCH_QUEUE_RATE ?? 20_000);
const TICK_MS = 10;
const PER_TICK = Math.max(1, Math.round((RATE * TICK_MS) / 1000));

const rssAnon = () => Number(/RssAnon:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
const collect = () => (globalThis as { gc?: () => void }).gc?.();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const dir = mkdtempSync(join(tmpdir(), 'shortsms-bench-queue-'));
try {
  const journal = await Journal.open(join(dir, 'queues'), { commitMs: 20 });
  const clicks = new LocalQueue({
    name: 'clicks',
    batchSize: 1000,
    batchWindowMs: 1000,
    visibilityTimeoutMs: 30_000,
    maxReceiveCount: 5,
    journal: await JournalBacklog.open(journal, 'clicks', { window: 10_000 }),
  });
  collect();
  const start = rssAnon();
  console.log('bench:queue');
  console.log(
    `  ${MESSAGES.toLocaleString('en')} clicks sent to the journaled click queue at ${RATE.toLocaleString('en')}/s, nobody consuming; RssAnon after a forced collection`,
  );
  console.log(`  before the first send  ${start.toFixed(0)} MB`);
  let sent = 0;
  while (sent < MESSAGES) {
    const at = new Date().toISOString();
    for (let n = 0; n < PER_TICK && sent < MESSAGES; n++, sent++) {
      clicks.send(
        `{"code":"k${(sent % 1_000_000).toString(36)}","at":"${at}","ip":"203.0.113.${sent % 250}","ua":"Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0 Mobile Safari/537.36","ref":null}`,
      );
    }
    await sleep(TICK_MS);
    if (sent % 1_000_000 === 0 || sent === MESSAGES) {
      await sleep(200);
      collect();
      console.log(
        `  ${sent.toLocaleString('en').padStart(9)} queued      +${(rssAnon() - start).toFixed(0)} MB (depth ${clicks.depth.toLocaleString('en')})`,
      );
    }
  }
  await journal.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
