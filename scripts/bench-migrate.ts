import { BatchWriteCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { Link } from '../shared/domain/links';
import type { Message } from '../shared/domain/messages';

/**
 * `npx tsx scripts/bench-migrate.ts`: how fast `admin migrate` passes over a table on the local
 * runtime (dynalite), where most items need nothing. Seeds BENCH_ITEMS items (50,000) as
 * this version writes them (links with their comment words, messages, campaigns: none
 * needs an upgrade); then, for each configuration of BENCH_PASSES, writes BENCH_OLD links
 * (200) in the previous version's shape, runs a pass that upgrades them, and one more with
 * nothing left to upgrade (each `--restart`), printing items/s and the Scan's read units.
 * BENCH_PASSES: `segments/pageSize/concurrency` separated by spaces, `-` for the default
 * (default: `4/-/- 1/-/- 16/-/- 4/100/-`). The machine's other load makes the times noisy;
 * read units are exact.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const count = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ITEMS = count('BENCH_ITEMS', 50_000);
const OLD = count('BENCH_OLD', 200);
const PASSES = (process.env.BENCH_PASSES ?? '4/-/- 1/-/- 16/-/- 4/100/-').split(/\s+/).filter(Boolean);
const ACCOUNT = 900;
const WORDS = ['spring', 'summer', 'sale', 'newsletter', 'partner', 'invoice', 'black', 'friday', 'coupon', 'webinar'];

type Item = Record<string, NativeAttributeValue>;

async function main(): Promise<void> {
  const { startLocal } = await import('../shared/local/runtime');
  const { migrate } = await import('../shared/store/migration');
  const { itemUpgrades } = await import('../shared/store/item-upgrades');
  const { linkCreation } = await import('../shared/store/links-repo');
  const { messageCreation } = await import('../shared/store/message-changes');
  const { keys } = await import('../shared/store/keys');
  const { withoutNulls } = await import('../shared/store/items');
  const local = await startLocal({ port: 0 });
  const rt = local.runtime;
  const { store } = rt;
  const units = { read: 0 };
  store.db.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      if (context.commandName === 'ScanCommand')
        units.read += (result.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity?.CapacityUnits ?? 0;
      return result;
    },
    { step: 'initialize', name: 'scanUnits' },
  );
  const writeAll = async (items: Item[]) => {
    const batches: Item[][] = [];
    for (let start = 0; start < items.length; start += 25) batches.push(items.slice(start, start + 25));
    for (let start = 0; start < batches.length; start += 8) {
      await Promise.all(
        batches
          .slice(start, start + 8)
          .map((batch) =>
            store.db.send(new BatchWriteCommand({ RequestItems: { [store.tableName]: batch.map((Item) => ({ PutRequest: { Item } })) } })),
          ),
      );
    }
  };

  const base = Date.parse('2026-06-01T00:00:00.000Z');
  const link = (id: number): Link => ({
    id,
    accountId: ACCOUNT,
    code: `c${id.toString(36)}`,
    fullLink: `https://example.com/page/${id}`,
    status: 1,
    moderatorStatus: 1,
    moderatorComment: null,
    comment: id % 3 === 0 ? `${WORDS[id % WORDS.length]} ${WORDS[(id >> 2) % WORDS.length]}` : null,
    expirationDate: null,
    expiresAt: null,
    clickCnt: id % 7,
    redirectCnt: id % 7,
    createdAt: new Date(base + id * 60_000).toISOString(),
    campaignId: null,
    trackingCode: null,
  });
  const message = (id: number): Message => {
    const createdAt = new Date(base + id * 60_000).toISOString();
    return {
      id,
      accountId: ACCOUNT,
      campaignId: id,
      from: 'Shop',
      to: `4477009${String(id % 100_000).padStart(5, '0')}`,
      text: `Your code is ${id % 1000}`,
      segNum: 1,
      segUserBuy: 0.05,
      status: 'DELIVRD',
      uuid: `01J${String(id).padStart(23, '0')}`,
      countryA2: 'GB',
      validityMinutes: 1440,
      createdAt,
      startSendAt: createdAt,
      statusUpdatedAt: createdAt,
      gateway: 'kannel',
      gatewayMessageId: String(id),
      submitState: null,
    };
  };

  const seedStart = performance.now();
  const items: Item[] = [];
  for (let id = 1; items.length < ITEMS; id++) {
    if (id % 2 === 0) {
      const { item, op } = linkCreation(link(id));
      items.push(item, ...(op.puts ?? []).map((put) => ({ ...put })));
    } else {
      const sent = message(id);
      const campaign = { status: 'SENT', deferred: false } as const;
      items.push(messageCreation(sent, campaign).item, {
        ...keys.campaign(id),
        entity: 'Campaign',
        ...withoutNulls({ id, accountId: ACCOUNT, messageId: id, name: null, status: 'SENT', linkIds: [], createdAt: sent.createdAt }),
      });
    }
  }
  // The previous shape: as LinksRepository's toItem wrote it (bench-list.ts's header).
  const oldLinks = Array.from({ length: OLD }, (_, n) => {
    const old = link(1_000_000 + n);
    return { ...keys.link(old.id), ...keys.linkIndex(old.accountId, old.createdAt, old.id), entity: 'Link', ...withoutNulls(old) };
  });
  await writeAll(items);
  console.log(`seeded ${items.length} items in ${((performance.now() - seedStart) / 1000).toFixed(0)} s`);

  const pass = async (label: string, options: { segments?: number; pageSize?: number; concurrency?: number }) => {
    units.read = 0;
    const start = performance.now();
    const result = await migrate(store, itemUpgrades(rt), { ...options, restart: true });
    const seconds = (performance.now() - start) / 1000;
    console.log(
      `${label}: ${result.seen} items seen, ${result.upgraded} upgraded, ${result.skipped} skipped in ${seconds.toFixed(1)} s ` +
        `(${(result.seen / seconds).toFixed(0)} items/s, ${result.segments} segments), ${units.read.toFixed(0)} RRU of Scan`,
    );
  };
  for (const config of PASSES) {
    const [segments, pageSize, concurrency] = config.split('/').map((part) => (part === '-' || part === undefined ? undefined : Number(part)));
    // The same links in the previous shape again (their counters counted twice: only the time matters here)
    await writeAll(oldLinks);
    await pass(`${config}, ${OLD} old links`, { segments, pageSize, concurrency });
    await pass(`${config}, nothing to upgrade`, { segments, pageSize, concurrency });
  }
  await local.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
