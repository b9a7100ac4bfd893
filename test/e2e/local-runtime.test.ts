import { type ChildProcess, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formBody } from '../support/local-service';
import { admin, ROOT, startServer as startSupportServer, stop } from '../support/serve-process';

/**
 * The real `npm start` entry (bin/serve.ts) as a separate process: ready line, /health,
 * the demo key, persistence across restarts, and the admin CLI beside it.
 */
const DEMO_KEY = 'demo0000000000000000000000000000000key01';
const startServer = (dataDir: string) => startSupportServer(dataDir, { demoApiKey: DEMO_KEY });

describe('local runtime (bin/serve.ts)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shortsms-'));
  const running: ChildProcess[] = [];

  afterAll(async () => {
    await Promise.all(running.map((child) => stop(child)));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts, serves /health and the API with DEMO_API_KEY, keeps data across a restart, and works with the admin CLI', async () => {
    // Act: first start
    const first = await startServer(dataDir);
    running.push(first.child);

    // Assess: the demo key is printed once, health answers, the API works
    expect(first.output.join('')).toContain(`API key ${DEMO_KEY}`);
    expect((await fetch(`${first.baseUrl}/health`)).status).toBe(200);
    const created = await fetch(`${first.baseUrl}/service/Link/Create?apiKey=${DEMO_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: formBody({ 'data[fullLink]': 'https://example.com/persist' }),
    }).then((r) => r.json() as Promise<any>);
    expect(created.code).toBe(0);

    // The demo account can send at once (it has a price for every destination).
    const sms = await fetch(`${first.baseUrl}/service/Message/SendSmsMessage?apiKey=${DEMO_KEY}&recipient=447400123450&text=Hello`).then(
      (r) => r.json() as Promise<any>,
    );
    expect(sms).toMatchObject({ code: 0, data: { status: 2 } });

    // The admin CLI reaches the running service's store through its endpoint file.
    const made = admin(dataDir, 'account', 'create', '--name', 'Second', '--time-zone', 'Asia/Tashkent');
    expect(made.stderr).toBe('');
    expect(made.stdout).toMatch(/^Account \d+ created \(Asia\/Tashkent, USD\)/);
    const issued = admin(dataDir, 'key', 'issue', made.stdout.match(/Account (\d+)/)![1]!);
    const key = /API key ([a-z0-9]{40})/.exec(issued.stdout)![1]!;
    const asSecond = await fetch(`${first.baseUrl}/service/Link/Get?apiKey=${key}&id=${created.data.id}`).then((r) => r.json() as Promise<any>);
    expect(asSecond.code).toBe(2);

    // Stop: exits cleanly and removes its endpoint file
    expect(await stop(first.child)).toBe(0);
    expect(existsSync(join(dataDir, 'dynamodb-endpoint'))).toBe(false);

    // The admin CLI also works on the data directory while nothing runs.
    expect(admin(dataDir, 'account', 'list').stdout).toContain('Second');
    const secondId = made.stdout.match(/Account (\d+)/)![1]!;
    expect(admin(dataDir, 'tariff', 'set', secondId, 'kz', '0.02').stdout).toBe(`Tariff of account ${secondId} (USD): KZ 0.02\n`);
    const refused = admin(dataDir, 'signature', 'default', secondId, 'Shop');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('Signature Shop is not approved');
    const shown = JSON.parse(admin(dataDir, 'message', 'show', String(sms.data.messageId), '--json').stdout);
    expect(shown).toMatchObject({ id: sms.data.messageId, to: '447400123450', submitState: null });
    const missing = admin(dataDir, 'message', 'show', '999999');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('No such message');

    // Second start: same data, no key printed again
    const second = await startServer(dataDir);
    running.push(second.child);
    expect(second.output.join('')).not.toContain('API key');
    const got = await fetch(`${second.baseUrl}/service/link/get?apiKey=${DEMO_KEY}&id=${created.data.id}`).then((r) => r.json() as Promise<any>);
    expect(got).toMatchObject({ code: 0, data: { fullLink: 'https://example.com/persist', code: created.data.code } });
  }, 120_000); // two starts of bin/serve.ts and eight admin CLI processes, each a fresh tsx start on a shared machine

  it('reads the bound of its heaps at start, and refuses one it cannot use before it opens anything', () => {
    // Act
    const started = spawnSync(process.execPath, ['--import', 'tsx', 'bin/serve.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', DATA_DIR: join(dataDir, 'refused'), LOCAL_HEAP_GROWTH_PERCENT: 'half' },
      encoding: 'utf8',
      timeout: 30_000,
    });

    // Assess
    expect(started.status).toBe(1);
    expect(started.stderr).toContain('LOCAL_HEAP_GROWTH_PERCENT must be an integer from 0 to 300: half');
    expect(existsSync(join(dataDir, 'refused'))).toBe(false);
  }, 30_000);
});
