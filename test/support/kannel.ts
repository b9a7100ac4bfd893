import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './eventually';

const ROOT = process.cwd();

/** Installs Kannel from Debian's packages if it is missing (the project's own script). */
export function ensureKannel(): void {
  const result = spawnSync('sh', [join(ROOT, 'scripts', 'ensure-kannel.sh')], { encoding: 'utf8', timeout: 300_000 });
  if (result.status !== 0) throw new Error(`Kannel could not be installed: ${result.stderr}${result.stdout}`);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RunningKannel {
  sendsmsUrl: string;
  username: string;
  password: string;
  logs(): string;
  stop(): Promise<void>;
}

/**
 * Real Kannel in front of an SMSC on `smscPort`: bearerbox with one SMPP connection
 * (transceiver) and smsbox with an HTTP sendsms user, every port on 127.0.0.1, the
 * configuration and logs in a temporary directory. Resolves once the SMSC link is online.
 */
export async function startKannel(options: { smscPort: number }): Promise<RunningKannel> {
  const dir = mkdtempSync(join(tmpdir(), 'kannel-'));
  const [adminPort, smsboxPort, sendsmsPort] = [await freePort(), await freePort(), await freePort()];
  const username = 'shortsms';
  const password = 'kannel-test-password';
  const config = `
group = core
admin-port = ${adminPort}
admin-interface = 127.0.0.1
admin-password = admin-secret
admin-allow-ip = "127.0.0.1"
smsbox-port = ${smsboxPort}
smsbox-interface = 127.0.0.1
box-allow-ip = "127.0.0.1"
log-file = "${join(dir, 'bearerbox.log')}"
log-level = 1
access-log = "${join(dir, 'access.log')}"
dlr-storage = internal

group = smsc
smsc = smpp
smsc-id = smscsim
host = 127.0.0.1
port = ${options.smscPort}
transceiver-mode = true
smsc-username = kannel
smsc-password = secret
system-type = ""
msg-id-type = 0x03
enquire-link-interval = 30
reconnect-delay = 1

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = ${smsboxPort}
sendsms-port = ${sendsmsPort}
sendsms-interface = 127.0.0.1
log-file = "${join(dir, 'smsbox.log')}"
log-level = 1

group = sendsms-user
username = ${username}
password = ${password}
max-messages = 1
`;
  const configFile = join(dir, 'kannel.conf');
  writeFileSync(configFile, config);
  const children: ChildProcess[] = [];
  const output: string[] = [];
  const start = (command: string) => {
    const child = spawn(command, [configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    children.push(child);
    return child;
  };
  const logs = () => {
    const read = (name: string) => {
      try {
        return readFileSync(join(dir, name), 'utf8');
      } catch {
        return '';
      }
    };
    return `${output.join('')}\n--- bearerbox.log\n${read('bearerbox.log')}\n--- smsbox.log\n${read('smsbox.log')}`;
  };
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
            child.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    start('bearerbox');
    await eventually(async () => (await status(adminPort)) !== '', { timeoutMs: 20_000, intervalMs: 200 });
    start('smsbox');
    await eventually(async () => SMSC_ONLINE.test(await status(adminPort)) && SMSBOX_CONNECTED.test(await status(adminPort)), {
      timeoutMs: 30_000,
      intervalMs: 200,
    });
    return { sendsmsUrl: `http://127.0.0.1:${sendsmsPort}/cgi-bin/sendsms`, username, password, logs, stop };
  } catch (error) {
    const detail = logs();
    await stop();
    throw new Error(`Kannel did not come up: ${(error as Error).message}\n${detail}`);
  }
}

const SMSC_ONLINE = /smscsim[^\n]*online/;
const SMSBOX_CONNECTED = /smsbox:[^\n]*on-?line|Box connections:[\s\S]*smsbox/i;

async function status(adminPort: number): Promise<string> {
  try {
    const response = await fetch(`http://127.0.0.1:${adminPort}/status.txt?password=admin-secret`);
    return await response.text();
  } catch {
    return '';
  }
}
