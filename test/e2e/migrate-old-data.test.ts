import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DescribeTableCommandOutput,
  DynamoDBClient,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { connect } from '../../bin/admin/connect';
import { startDynalite } from '../../shared/local/dynalite';
import { createStore } from '../../shared/store/client';
import { HeldCampaigns } from '../../shared/store/held-campaigns';
import { itemUpgrades } from '../../shared/store/item-upgrades';
import { type ItemUpgrade, migrate } from '../../shared/store/migration';
import { INDEXES } from '../../shared/store/table';
import { ACCOUNT, API_KEYS, listCases, oldData, oldTableDefinition, writeOldData } from '../support/old-layout';
import ANSWERS from '../support/old-layout-answers.json';
import { adminAsync, startServer, stop } from '../support/serve-process';

/**
 * The acceptance: data written by the previous version, migrated, give the same
 * list answers as before. The answers in old-layout-answers.json were recorded from the
 * previous version's lists on this very fixture (test/support/old-layout.ts), and stay
 * fixed: items in order and totals.
 */
const data = oldData();
const cases = listCases(data.samples);
const dirs: string[] = [];
const running: ChildProcess[] = [];
/** How many of them they upgrade: every link and message, and the campaigns held in moderation (the held index). */
const upgradable = (upgrades: ItemUpgrade[]) =>
  data.items.filter(
    (item) => upgrades.some((upgrade) => upgrade.entity === item.entity) && (item.entity !== 'Campaign' || item.status === 'MODERATION'),
  ).length;

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

afterAll(async () => {
  await Promise.all(running.map((child) => stop(child)));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A data directory as the previous version left it: the table with gsi1 only, the fixture in it. */
async function oldDataDir(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'shortsms-old-'));
  dirs.push(dir);
  const dynamo = await startDynalite({ path: join(dir, 'dynamodb') });
  const client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
  await client.send(new CreateTableCommand(oldTableDefinition('shortsms')));
  await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 1 }, { TableName: 'shortsms' });
  const store = createStore({ tableName: 'shortsms', region: 'us-east-1', dynamoEndpoint: dynamo.endpoint });
  await writeOldData(store, data);
  store.db.destroy();
  client.destroy();
  await dynamo.close();
  return dir;
}

async function listAnswers(baseUrl: string): Promise<Record<string, { totalItemCount: number; ids: number[] }>> {
  const answers: Record<string, { totalItemCount: number; ids: number[] }> = {};
  for (const { name, path, body } of cases) {
    const response = await fetch(`${baseUrl}/service/${path}?apiKey=${API_KEYS[ACCOUNT]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
    const envelope = (await response.json()) as { code: number; data: { items: { id: number }[]; totalItemCount: number } };
    answers[name] = { totalItemCount: envelope.data?.totalItemCount, ids: envelope.data?.items.map((item) => item.id) };
  }
  return answers;
}

const recorded = Object.fromEntries(Object.entries(ANSWERS).map(([name, { totalItemCount, ids }]) => [name, { totalItemCount, ids }]));

describe('a data directory of the previous version', () => {
  it('comes up under npm start rebuilt with every index and migrated, giving the lists the previous answers; migrate then upgrades nothing', async () => {
    // Prepare
    const dataDir = await oldDataDir();

    // Act
    const server = await startServer(dataDir, { demoApiKey: 'oldlayout000000000000000000000000000demo' });
    running.push(server.child);
    const answers = await listAnswers(server.baseUrl);
    process.env.DATA_DIR = dataDir;
    const connection = await connect(false); // through the running service's dynalite
    const upgrades = itemUpgrades(connection.runtime);
    const again = await migrate(connection.runtime.store, upgrades).finally(() => connection.close());
    delete process.env.DATA_DIR;

    // Assess
    expect(Object.keys(answers)).toEqual(Object.keys(recorded));
    expect(answers).toEqual(recorded);
    const defaults = await Promise.all(
      ['Link/List', 'Message/List'].map(async (path) => {
        const response = await fetch(`${server.baseUrl}/service/${path}?apiKey=${API_KEYS[ACCOUNT]}`);
        return ((await response.json()) as { data: { items: Record<string, unknown>[] } }).data.items.slice(0, 5);
      }),
    );
    expect(defaults[0]!.map(({ shortLink: _shortLink, ...link }) => link)).toEqual(ANSWERS['Link/List default'].items);
    expect(defaults[1]).toEqual(ANSWERS['Message/List default'].items);
    expect(server.output.join('')).toMatch(new RegExp(`Migrated: ${upgradable(upgrades)} items upgraded`));
    // Every item is current: the Scan's filter hands none over.
    expect(again).toEqual(expect.objectContaining({ completed: true, upgraded: 0, skipped: 0 }));
  }, 120_000);

  it('is migrated by admin migrate, stopped after a few pages and run again, to the previous answers; a further run upgrades nothing', async () => {
    // Prepare: the table rebuilt by connecting, as the CLI does
    const dataDir = await oldDataDir();
    process.env.DATA_DIR = dataDir;
    const connection = await connect(false);
    const interrupt = new AbortController();
    let pages = 0;
    let first: Awaited<ReturnType<typeof migrate>>;
    let second: Awaited<ReturnType<typeof migrate>>;
    let upgrades: ItemUpgrade[];
    let held: Awaited<ReturnType<HeldCampaigns['list']>>;
    try {
      upgrades = itemUpgrades(connection.runtime);
      const table = (await connection.runtime.store.db.send(
        new DescribeTableCommand({ TableName: 'shortsms' }) as never,
      )) as DescribeTableCommandOutput;

      // Act
      first = await migrate(connection.runtime.store, upgrades, {
        pageSize: 10,
        signal: interrupt.signal,
        onPage: () => ++pages === 4 && interrupt.abort(),
      });
      second = await migrate(connection.runtime.store, upgrades, { pageSize: 10 });
      held = await new HeldCampaigns(connection.runtime.store).list(0, 100);

      // Assess
      expect(table.Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(INDEXES.map((index) => index.name).sort());
    } finally {
      await connection.close();
      delete process.env.DATA_DIR;
    }
    expect(first).toEqual(expect.objectContaining({ completed: false }));
    expect(upgrades.map((upgrade) => upgrade.entity)).toEqual(['Link', 'Message', 'Campaign']);
    expect(held.items.map((campaign) => campaign.id)).toEqual(
      data.items.filter((item) => item.entity === 'Campaign' && item.status === 'MODERATION').map((item) => item.id),
    );
    expect(held.items.length).toBe(1);
    expect(first.upgraded).toBeGreaterThan(0);
    expect(first.upgraded).toBeLessThan(upgradable(upgrades));
    expect(second).toEqual(expect.objectContaining({ completed: true, resumed: true }));
    expect(first.upgraded + second.upgraded).toBe(upgradable(upgrades));
    const before = await adminAsync(dataDir, 'rollups', 'copy', '--json');
    const third = await adminAsync(dataDir, 'migrate', '--json');
    expect(third.status).toBe(0);
    expect(JSON.parse(third.stdout)).toEqual(expect.objectContaining({ completed: true, resumed: false, upgraded: 0, skipped: 0 }));
    // A completed migration has the roll-up pass copy every settled day again (the migrated counters' quiet days with them).
    const copied = await adminAsync(dataDir, 'rollups', 'copy', '--json');
    const copiedAgain = await adminAsync(dataDir, 'rollups', 'copy', '--json');
    expect([before.status, copied.status, copiedAgain.status]).toEqual([0, 0, 0]);
    expect(JSON.parse(before.stdout).days).toBeGreaterThan(60);
    expect(JSON.parse(copied.stdout)).toEqual(JSON.parse(before.stdout));
    expect(JSON.parse(copiedAgain.stdout)).toEqual({ days: 0 });
    const server = await startServer(dataDir, { demoApiKey: 'oldlayout000000000000000000000000000demo' });
    running.push(server.child);
    expect(await listAnswers(server.baseUrl)).toEqual(recorded);
    expect(server.output.join('')).not.toContain('Migrated:');
  }, 120_000);
});
