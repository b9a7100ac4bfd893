import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../shared/store/keys';
import { sendBeforeTextCounts } from '../support/before-text-counts';
import { aMessage } from '../support/fixtures';
import { oldDataDir } from '../support/old-data-dir';
import { ACCOUNT, API_KEYS } from '../support/old-layout';
import { startServer, stop } from '../support/serve-process';

/**
 * A data directory of the version before the per-text counters: every message at schema 2
 * and its migration complete (`migrate-v2`), but no text counted. `npm start` on it passes
 * the table once more before it answers, so criteria[text] totals are whole at once.
 */
const dirs: string[] = [];
const running: ChildProcess[] = [];

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

afterAll(async () => {
  await Promise.all(running.map((child) => stop(child)));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function dataDirBeforeTextCounts(texts: string[]): Promise<string> {
  const dir = await oldDataDir('shortsms-text-', async (store) => {
    for (const [i, text] of texts.entries()) {
      const id = 9000 + i;
      const createdAt = new Date(Date.parse('2026-11-01T08:00:00.000Z') + i * 60_000).toISOString();
      await sendBeforeTextCounts(
        store,
        aMessage({ id, campaignId: id, accountId: ACCOUNT, text, status: 'NEW', createdAt, startSendAt: null, statusUpdatedAt: null }),
      );
    }
    // Its migration record: the pass it knew of, complete.
    await store.db.send(new DeleteCommand({ TableName: 'shortsms', Key: keys.migration() }));
    const at = '2026-11-01T07:00:00.000Z';
    await store.db.send(
      new PutCommand({
        TableName: 'shortsms',
        Item: { pk: 'SETTING#migrate-v2', sk: '#SETTING', entity: 'Setting', segments: 0, startedAt: at, completedAt: at },
      }),
    );
  });
  dirs.push(dir);
  return dir;
}

describe('a data directory of the version before the text counters', () => {
  it('comes up under npm start with every message in its text total', async () => {
    // Prepare
    const texts = [...Array.from({ length: 30 }, () => 'Flash sale: 30% off today'), 'Your code is 1234', 'Flash sale'];
    const dataDir = await dataDirBeforeTextCounts(texts);

    // Act
    const server = await startServer(dataDir, { demoApiKey: 'textcounts00000000000000000000000000demo' });
    running.push(server.child);
    const list = async (text: string) => {
      const response = await fetch(`${server.baseUrl}/service/Message/List?apiKey=${API_KEYS[ACCOUNT]}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ 'criteria[text]': text }).toString(),
      });
      return ((await response.json()) as { data: { items: { id: number }[]; totalItemCount: number } }).data;
    };

    // Assess
    expect(server.output.join('')).toContain(`Migrated: ${texts.length} items upgraded`);
    const sale = await list('Flash sale: 30% off today');
    expect(sale.totalItemCount).toBe(30);
    expect(sale.items.map(({ id }) => id)).toEqual(Array.from({ length: 25 }, (_, i) => 9029 - i));
    expect((await list('Your code is 1234')).totalItemCount).toBe(1);
    expect((await list('Flash sale')).totalItemCount).toBe(1);
  }, 120_000);
});
