import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Installs a Debian package when its command is missing (benchmarks run as root on Debian). */
export function ensureCommand(command: string, debianPackage: string): void {
  if (spawnSync('sh', ['-c', `command -v ${command}`]).status === 0) return;
  console.log(`Installing ${debianPackage} (apt-get)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', '-q', debianPackage], { stdio: 'inherit', env }).status === 0;
  if (!install()) {
    spawnSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
    if (!install()) throw new Error(`Could not install ${debianPackage}`);
  }
}

/** Starts a process and resolves once its output matches `ready`, with the match. */
export function startProcess(
  command: string,
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}: ${output}`)));
  });
}

export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

/** CPU time (user + system) a process has used, in microseconds (Linux /proc). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ');
  // After "(comm) ": state is field 0, utime field 11, stime field 12, in clock ticks (100 Hz).
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * Resolves once the process has used under 3 % of a core for `quietMs` straight, with the
 * moment that quiet began (performance.now()): when a backlog is worked off, the process
 * goes quiet. Watching costs the process nothing, where reading its data would compete
 * with the work being waited for.
 */
export async function quietSince(pid: number, quietMs: number): Promise<number> {
  const stepMs = 250;
  let last = cpuMicros(pid);
  let busyAt = performance.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, stepMs));
    const now = performance.now();
    const used = cpuMicros(pid);
    if (used - last > stepMs * 1000 * 0.03) busyAt = now;
    last = used;
    if (now - busyAt >= quietMs) return busyAt;
  }
}

export interface WrkResult {
  /** Responses read in the run. */
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx3xx: number;
}

/** Runs wrk against `url` with the random-path script and parses its summary. */
export function runWrk(url: string, codesFile: string, options: { seconds: number; connections: number; threads: number }): WrkResult {
  const result = spawnSync(
    'wrk',
    [`-t${options.threads}`, `-c${options.connections}`, `-d${options.seconds}s`, '--latency', '-s', 'scripts/bench/random-path.lua', url],
    { env: { ...process.env, CODES_FILE: codesFile }, encoding: 'utf8', timeout: (options.seconds + 30) * 1000 },
  );
  if (result.status !== 0) throw new Error(`wrk failed: ${result.stderr}`);
  const out = result.stdout;
  const latency = (label: string) => {
    const match = new RegExp(`^\\s*${label}\\s+([\\d.]+)(us|ms|s)`, 'm').exec(out);
    if (!match) return NaN;
    const value = Number(match[1]);
    return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
  };
  return {
    requests: Number(/(\d+) requests in/.exec(out)?.[1]),
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]),
    p50Ms: latency('50%'),
    p99Ms: latency('99%'),
    non2xx3xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
  };
}
