import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The real `npm start` entry (bin/serve.ts) and admin CLI as separate processes. */
export const ROOT = join(__dirname, '..', '..');

export function startServer(
  dataDir: string,
  options: { demoApiKey: string; env?: NodeJS.ProcessEnv },
): Promise<{ child: ChildProcess; output: string[]; baseUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/serve.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, DEMO_API_KEY: options.demoApiKey, SHORT_LINK_BASE: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  return new Promise((resolve, reject) => {
    // A guard against a start that never comes, not a measure: a start that migrates an
    // older data directory took over 20 s on a busy machine.
    const timer = setTimeout(() => reject(new Error(`No ready line: ${output.join('')}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      const ready = /Ready: API (http:\/\/[^\s/]+:\d+)/.exec(output.join(''));
      if (ready) {
        clearTimeout(timer);
        resolve({ child, output, baseUrl: ready[1]! });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`Server exited with ${code}: ${output.join('')}`)));
  });
}

/** Stops a server process (SIGTERM, or SIGKILL to kill it where it stands); resolves when it is gone. */
export function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

export function admin(dataDir: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The admin CLI without blocking this process (which may host the service it talks to). */
export function adminAsync(dataDir: string, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'bin/admin.ts', ...args],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8', timeout: 30_000 },
      (error, stdout, stderr) => resolve({ status: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

/** One API call to a started server, form-encoded, as clients make it: its envelope. */
export async function callApi(
  baseUrl: string,
  apiKey: string,
  path: string,
  fields: Record<string, string>,
): Promise<{ code: number; data: any; message: string }> {
  const response = await fetch(`${baseUrl}/service/${path}?apiKey=${apiKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return (await response.json()) as { code: number; data: any; message: string };
}
