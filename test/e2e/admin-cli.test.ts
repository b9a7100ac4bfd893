import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin, adminAsync, startServer, stop } from '../support/serve-process';

/** The admin CLI (bin/admin.ts) as a process: a command line it does not understand. */
describe('admin CLI (bin/admin.ts)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shortsms-admin-'));

  const running: ChildProcess[] = [];

  afterAll(async () => {
    await Promise.all(running.map((child) => stop(child)));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    ['an unknown option', ['account', 'list', '--frobnicate'], "Unknown option '--frobnicate'"],
    ['an option without its value', ['account', 'create', '--name'], "Option '--name <value>' argument missing"],
    ['an unknown command', ['account', 'frobnicate'], 'Unknown command: account frobnicate'],
    ['a --segments value that is not a whole number', ['migrate', '--segments', 'four'], '--segments takes a whole number from 1'],
  ])('prints the usage and exits 2 on %s', (_case, args, message) => {
    // Act
    const result = admin(dataDir, ...args);

    // Assess
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`Error: ${message}`);
    expect(result.stderr).toContain('Usage: npm run admin -- <command> [options]');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('approves one held campaign and declines another, beside a running service', async () => {
    // Prepare: the demo account's sends are held; two of them wait for a decision.
    const demoKey = 'admin000000000000000000000000000000key03';
    const server = await startServer(dataDir, { demoApiKey: demoKey });
    running.push(server.child);
    const accountId = /^(\d+)\t/m.exec((await adminAsync(dataDir, 'account', 'list')).stdout)?.[1] ?? '';
    expect((await adminAsync(dataDir, 'moderation', 'set', accountId, 'all')).stdout).toBe(`Moderation of account ${accountId}: all\n`);
    const send = () =>
      fetch(`${server.baseUrl}/service/Message/SendSmsMessage?apiKey=${demoKey}&recipient=447400123450&text=Held`).then(
        (response) => response.json() as Promise<{ data: { campaignId: number; status: number } }>,
      );
    const approved = (await send()).data;
    const declined = (await send()).data;
    expect([approved.status, declined.status]).toEqual([1, 1]);

    // Act
    const approval = await adminAsync(dataDir, 'campaign', 'approve', String(approved.campaignId));
    const decline = await adminAsync(dataDir, 'campaign', 'decline', String(declined.campaignId));
    const again = await adminAsync(dataDir, 'campaign', 'approve', String(declined.campaignId));

    // Assess
    expect(approval).toMatchObject({ status: 0, stdout: `Campaign ${approved.campaignId} is READY_FOR_SEND\n` });
    expect(decline).toMatchObject({ status: 0, stdout: `Campaign ${declined.campaignId} is DECLINED\n` });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`Error: Campaign ${declined.campaignId} is DECLINED, not in moderation`);
  }, 60_000);
});
