import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageReport } from './bench/sms-server';
import { stopProcess } from './bench/tools';

/**
 * `npm run bench:sms`: sends SMS through the local server's API at a steady rate (open
 * loop: each request leaves at its planned time, whatever the answers before it) with the
 * simulator gateway (each a Cyrillic text whose link is shortened for its recipient, as our
 * users send them), then waits for every message to settle and reports what happened to
 * each one. Prints figures; asserts nothing.
 */
const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 60);
const DEMO_KEY = 'bench000000000000000000000000000000key02';

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'bench-sms-'));
  const server = await startServer(join(work, 'data'));
  try {
    const total = RATE * SECONDS;
    console.log(`Sending ${total} messages at ${RATE}/s for ${SECONDS} s…`);
    const cpuBefore = cpuMicros(server.child.pid!);
    const started = performance.now();
    const sends: Promise<{ id: number | undefined; latencyMs: number; code: number | string }>[] = [];
    for (let i = 0; i < total; i++) {
      const plannedAt = started + (i * 1000) / RATE;
      const wait = plannedAt - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      sends.push(send(server.baseUrl, i, plannedAt));
    }
    const results = await Promise.all(sends);
    const sendSeconds = (performance.now() - started) / 1000;
    const accepted = results.filter((result) => result.code === 0).map((result) => result.id!);

    // Settled: every accepted message delivered (the simulator delivers these recipients).
    // Only the messages not yet delivered are asked about again, once a second.
    const settled = new Map<number, MessageReport>();
    const deadline = Date.now() + SETTLE_SECONDS * 1000;
    for (let pending = accepted; pending.length > 0 && Date.now() < deadline; ) {
      const answer = await ask(server.child, pending);
      for (const message of answer.reports) settled.set(message.id, message);
      pending = answer.reports.filter((message) => message.status !== 'DELIVRD').map((message) => message.id);
      if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const cpuPerMessageMs = (cpuMicros(server.child.pid!) - cpuBefore) / 1000 / Math.max(1, accepted.length);
    // Submits are counted once everything settled: a late duplicate would show here.
    const final = await ask(server.child, accepted);
    const report = final;
    const delivered = report.reports.filter((message) => message.status === 'DELIVRD').length;
    const duplicates = report.reports.reduce((sum, message) => sum + Math.max(0, message.submits - 1), 0) + report.unknown;
    const toAccepted = report.reports
      .filter((message) => message.startSendAt && message.createdAt)
      .map((message) => Date.parse(message.startSendAt!) - Date.parse(message.createdAt!));
    const apiLatency = results.map((result) => result.latencyMs);
    const byStatus = new Map<string, number>();
    for (const message of report.reports) byStatus.set(String(message.status), (byStatus.get(String(message.status)) ?? 0) + 1);

    console.log('\nbench:sms');
    console.log(
      `  ${total} sends planned at ${RATE}/s over ${SECONDS} s (took ${sendSeconds.toFixed(1)} s); simulator gateway, reports after 500 ms`,
    );
    console.log(`  accepted (code 0):        ${accepted.length}`);
    console.log(`  other answers:            ${results.length - accepted.length}${describeCodes(results)}`);
    console.log(`  delivered (DELIVRD):      ${delivered}`);
    console.log(
      `  lost (accepted, not final after ${SETTLE_SECONDS} s): ${accepted.length - delivered}${delivered < accepted.length ? `  ${JSON.stringify(Object.fromEntries(byStatus))}` : ''} (target 0)`,
    );
    console.log(`  duplicate submits:        ${duplicates} (target 0)`);
    console.log(
      `  API latency:              p50 ${percentile(apiLatency, 50).toFixed(1)} ms  p99 ${percentile(apiLatency, 99).toFixed(1)} ms  max ${Math.max(...apiLatency).toFixed(1)} ms`,
    );
    console.log(
      `  DynamoDB calls per accepted message: ${Object.entries(report.calls)
        .map(([name, count]) => `${name.replace(/Command$/, '')} ${(count / Math.max(1, accepted.length)).toFixed(2)}`)
        .join(', ')}`,
    );
    console.log(
      `  service CPU per message:  ${cpuPerMessageMs.toFixed(1)} ms (all threads, API through final report), about ${(1000 / cpuPerMessageMs).toFixed(0)} messages/s per core`,
    );
    console.log(
      `  send → ACCEPTD:           p50 ${percentile(toAccepted, 50).toFixed(0)} ms  p99 ${percentile(toAccepted, 99).toFixed(0)} ms  (${toAccepted.length} messages)`,
    );
  } finally {
    await stopProcess(server.child);
    rmSync(work, { recursive: true, force: true });
  }
}

async function send(baseUrl: string, i: number, plannedAt: number): Promise<{ id: number | undefined; latencyMs: number; code: number | string }> {
  // Recipients ending 0–5: the simulator delivers them (DELIVRD).
  const recipient = `+4474${String(10_000_000 + Math.floor(i / 6) * 10 + (i % 6)).padStart(8, '0')}`;
  try {
    const response = await fetch(`${baseUrl}/service/Message/SendSmsMessage?apiKey=${DEMO_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      // The real shape: a Cyrillic text with a link of its own, shortened per recipient.
      body: new URLSearchParams({
        recipient,
        text: `Ваш заказ ${1000 + (i % 9000)} готов. Подробности: https://пример.рф/заказ/${i}`,
        'params[shortenLinks]': '1',
      }).toString(),
    });
    const envelope = (await response.json()) as { code: number; data: { messageId: number } };
    return { id: envelope.data?.messageId, code: envelope.code, latencyMs: performance.now() - plannedAt };
  } catch (error) {
    // Named by its cause where fetch gives one (ECONNRESET, UND_ERR_SOCKET, …).
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { id: undefined, code: cause ? `error ${cause}` : 'error', latencyMs: performance.now() - plannedAt };
  }
}

/** CPU time (user + system, all threads) a process has used, in microseconds (Linux /proc). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

function describeCodes(results: { code: number | string }[]): string {
  const counts = new Map<string, number>();
  for (const { code } of results) if (code !== 0) counts.set(String(code), (counts.get(String(code)) ?? 0) + 1);
  return counts.size ? `  ${JSON.stringify(Object.fromEntries(counts))}` : '';
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function startServer(dataDir: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      '--import',
      'tsx',
      'scripts/bench/sms-server.ts',
    ],
    {
      // No per-account rate limit unless one is asked for: the offered rate (100/s) is within
      // the default (100/s, bursts of 200), but an overloaded local server reaches requests in
      // bunches after a stall, and this measures the pipeline, not the limiter.
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DEMO_API_KEY: DEMO_KEY,
        PORT: '0',
        SHORT_LINK_BASE: 'https://sho.rt',
        API_RATE_LIMIT: process.env.API_RATE_LIMIT ?? '0',
        // One address stands in for many clients: an overloaded server holds more requests
        // at once than one real client would (256, the default, refuses the rest).
        MAX_CONNECTIONS_PER_IP: process.env.MAX_CONNECTIONS_PER_IP ?? '4096',
      },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /Ready: (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (ready) resolve({ child, baseUrl: ready[1]! });
    });
    child.once('exit', (code) => reject(new Error(`The service exited with ${code}: ${output}`)));
  });
}

function ask(child: ChildProcess, ids: number[]): Promise<{ reports: MessageReport[]; unknown: number; calls: Record<string, number> }> {
  return new Promise((resolve) => {
    child.once('message', (answer) => resolve(answer as { reports: MessageReport[]; unknown: number; calls: Record<string, number> }));
    child.send({ ids });
  });
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
