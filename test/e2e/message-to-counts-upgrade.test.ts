import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../shared/store/keys';
import { sendBeforeToCounts } from '../support/before-to-counts';
import { aMessage } from '../support/fixtures';
import { oldDataDir } from '../support/old-data-dir';
import { ACCOUNT, API_KEYS } from '../support/old-layout';
import { startServer, stop } from '../support/serve-process';

/**
 * A data directory of the version before criteria[to]'s number counts: every message at
 * schema 2 and counted in its text, none in its number's counts, this version's migration
 * pass not yet run. `npm start` on it passes the table before it answers, so criteria[to]
 * totals are whole at once and its pages come from creation order.
 */
const dirs: string[] = [];
const running: ChildProcess[] = [];

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

afterAll(async () => {
  await Promise.all(running.map((child) => stop(child)));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function dataDirBeforeToCounts(numbers: string[]): Promise<string> {
  const dir = await oldDataDir('shortsms-to-', async (store) => {
    for (const [i, to] of numbers.entries()) {
      const id = 9000 + i;
      const createdAt = new Date(Date.parse('2026-11-01T08:00:00.000Z') + i * 60_000).toISOString();
      await sendBeforeToCounts(
        store,
        aMessage({ id, campaignId: id, accountId: ACCOUNT, to, status: 'NEW', createdAt, startSendAt: null, statusUpdatedAt: null }),
      );
    }
    // This version's pass has not run on it.
    await store.db.send(new DeleteCommand({ TableName: 'shortsms', Key: keys.migration() }));
  });
  dirs.push(dir);
  return dir;
}

describe('a data directory of the version before the number counts', () => {
  it('comes up under npm start with every message in criteria[to] totals', async () => {
    // Prepare: 30 messages to UK numbers starting 4477009, 10 to German ones
    const numbers = [
      ...Array.from({ length: 30 }, (_, i) => `4477009${String(10_000 + i).slice(-5)}`),
      ...Array.from({ length: 10 }, (_, i) => `4915112345${String(100 + i)}`),
    ];
    const dataDir = await dataDirBeforeToCounts(numbers);

    // Act
    const server = await startServer(dataDir, { demoApiKey: 'tocounts0000000000000000000000000000demo' });
    running.push(server.child);
    const list = async (to: string, currentPage = 0) => {
      const response = await fetch(`${server.baseUrl}/service/Message/List?apiKey=${API_KEYS[ACCOUNT]}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ 'criteria[to]': to, 'pagination[currentPage]': String(currentPage) }).toString(),
      });
      return ((await response.json()) as { data: { items: { id: number }[]; totalItemCount: number } }).data;
    };

    // Assess
    expect(server.output.join('')).toContain(`Migrated: ${numbers.length} items upgraded`);
    const uk = await list('4477009');
    expect(uk.totalItemCount).toBe(30);
    expect(uk.items.map(({ id }) => id)).toEqual(Array.from({ length: 25 }, (_, i) => 9029 - i));
    expect((await list('4477009', 1)).items.map(({ id }) => id)).toEqual([9004, 9003, 9002, 9001, 9000]);
    // `109` ends one German number only; `+49` starts the ten German ones.
    expect((await list('109')).totalItemCount).toBe(1);
    expect((await list('+49')).totalItemCount).toBe(10);
    expect((await list('447700910029')).items.map(({ id }) => id)).toEqual([9029]);
  }, 120_000);
});
