import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, type NativeAttributeValue, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { CampaignStatus } from '../shared/domain/campaigns';
import type { Message } from '../shared/domain/messages';

/**
 * `npm run bench:list`: what Link/List and Message/List cost on a small and on a big
 * account, per call: p50 latency over real HTTP and DynamoDB read request units (RRU),
 * with the big/small ratio. A list whose cost follows the page, not the account, shows a
 * ratio near 1; today's lists read the whole account, so the ratio follows its size.
 *
 * How it runs: the local runtime in this process (dynalite in a worker thread, the HTTP
 * server, the store client), as bench:units does; calls go over HTTP to that server with
 * the account's API key. RRU are the ConsumedCapacity dynalite returns (as DynamoDB does),
 * summed by a middleware on the runtime's store client for every request a call makes.
 *
 * How the accounts are seeded: not through the API (100,000 Link/Create calls would take
 * long and measure nothing), but with BatchWriteItem, 25 items per request. By default
 * (BENCH_SEED=current) the small and the big account get the items the repositories write
 * at creation (`linkCreation` in links-repo.ts with the link's comment words,
 * `messageCreation` in message-changes.ts with its campaign's state), and the counter
 * items their counted creations would have added, summed here and written once. A third
 * account (BENCH_LEGACY_LINKS, 5,000; BENCH_LEGACY_MESSAGES, 2,000) gets items in the
 * previous version's shapes, and the migration `admin migrate` runs over the whole table
 * (timed, with the units it consumed), as on an upgraded installation. BENCH_SEED=previous
 * seeds the two measured accounts in the previous shapes and migrates them instead (the
 * migration then takes most of the run: about 35 items a second on this machine).
 * The previous shapes: a link is `{ ...keys.link(id), ...keys.linkIndex(
 * accountId, createdAt, id), entity: 'Link', ...withoutNulls(link) }` (LinksRepository's
 * toItem), a message `{ ...keys.message(id), ...keys.messageIndex(accountId, createdAt, id),
 * entity: 'Message', ...withoutNulls(message) }` (MessagesRepository.create) and its
 * campaign `{ ...keys.campaign(id), entity: 'Campaign', ...withoutNulls(campaign) }`
 * (CampaignsRepository.create). Ids come from the same counters as the id allocators
 * (one ADD of the whole block), codes from the service's LinkCodec with the table's
 * secret, so every seeded link is a link the service itself could have made.
 *
 * The data: links created over the last BENCH_MONTHS months (ids in creation order); 30%
 * made by SMS link shortening (campaign and tracking code, the message's ULID), 40% with
 * a comment of everyday words (half the shortened ones, 15% of all, one campaign's comment
 * instead: `Black Friday 2026 subscriptions`); status 0 on 10%; moderatorStatus 0 (blocked) on every 1,000th link of the big
 * account (0.1%) and every 33rd of the small one (3%, so that it too fills a page);
 * clickCnt 0–3 on 90%, up to 5,000 on the rest; an expiration date on 20%. Messages over
 * the same months, each in its own campaign as SendSmsMessage makes them, with statuses
 * mostly DELIVRD and every other one present, a few senders, recipients from a pool of
 * UK, German and US numbers, texts from templates (some repeated verbatim, some with a
 * one-time code), campaign statuses that follow the message (MODERATION and
 * READY_FOR_SEND rare: 1.2% of the big account's messages are held, 3% of the small one's), start-send and status-update times on messages past NEW. The
 * counters seeded are those of `messageCreation`'s counted change: the combination cells of
 * status, campaign status and sender (`MESSAGES#F#<from>`) among them.
 *
 * Settings (environment): BENCH_SMALL_LINKS (1,000), BENCH_BIG_LINKS (100,000),
 * BENCH_SMALL_MESSAGES (1,000), BENCH_BIG_MESSAGES (50,000), BENCH_ROUNDS (7 timed calls
 * per case, after one warm-up), BENCH_ONLY (`links` or `messages`), BENCH_CASES (a regular
 * expression: only the calls whose name matches it are measured), BENCH_SEED, BENCH_BURST (10,000: a campaign sent in one hour on two accounts of their own, 100 times fewer on the small one), BENCH_TRACE=1 (each request of the last round's calls: time, read units, items). The local runtime
 * shares the machine's cores with dynalite and with whatever else runs there: latencies
 * are noisy, RRU are exact. Run time on two shared cores, measured before the lists read
 * indexes and without the migration: about 34 minutes at the defaults (seeding under 2 of
 * them; every call on the big account read it all, 4-11 s), 1.3 GB of memory. A small
 * run to check it works: BENCH_SMALL_LINKS=200 BENCH_BIG_LINKS=2000
 * BENCH_SMALL_MESSAGES=200 BENCH_BIG_MESSAGES=1000 BENCH_ROUNDS=3.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.AUTH_CACHE_TTL_MS = '600000'; // a warm container: the key was checked a moment ago
process.env.API_RATE_LIMIT ??= '0'; // one account makes every call, back to back
process.env.LOCAL_QUEUE_CONSUMERS = 'off'; // nothing is queued; no background work beside the calls

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
/**
 * The latency ratio of a case: the median over rounds of the big account's call over the
 * small one's in the same round, and the range of those ratios. The two calls of a round
 * run back to back, so a busy moment of the shared machine weighs on one round's ratio
 * instead of on one side's median.
 */
const pairedRatio = (small: number[], big: number[]) => {
  const ratios = big.map((time, round) => time / small[round]!);
  return { median: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) };
};
const count = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
};
const SIZES = {
  small: { links: count('BENCH_SMALL_LINKS', 1_000), messages: count('BENCH_SMALL_MESSAGES', 1_000) },
  big: { links: count('BENCH_BIG_LINKS', 100_000), messages: count('BENCH_BIG_MESSAGES', 50_000) },
};
const ROUNDS = count('BENCH_ROUNDS', 7);
const MONTHS = 6;
const ONLY = process.env.BENCH_ONLY;
const CASES = new RegExp(process.env.BENCH_CASES ?? '');
const TRACE = process.env.BENCH_TRACE === '1';
/** `current`: the two accounts seeded in the current layout, and a third in the previous one for the migration to upgrade; `previous`: all three in the previous layout. */
const SEED = (process.env.BENCH_SEED ?? 'current') as 'current' | 'previous';
if (SEED !== 'current' && SEED !== 'previous') throw new Error('BENCH_SEED must be current or previous');
const LEGACY = { links: count('BENCH_LEGACY_LINKS', 5_000), messages: count('BENCH_LEGACY_MESSAGES', 2_000) };
/**
 * A campaign with a link per recipient sent in one hour: BENCH_BURST messages on a big
 * account, a hundredth of them on a small one (two accounts of their own), for the ranges
 * whose edge falls inside that hour.
 */
const BURST = count('BENCH_BURST', 10_000);
const DAY_MS = 24 * 60 * 60_000;
/** The default page: a call finding fewer is compared with a full page of the other account. */
const PAGE = 25;
/**
 * Rare values are rarer on the big account than a page of the small one holds: every
 * BLOCKED_EVERY-th link is blocked, HELD_SHARE of the new messages wait in moderation (the
 * others wait for their deferred time) and HELD_DEFERRED_SHARE of those held have a
 * deferred time too, so that both accounts answer a full page and the ratio compares page with page.
 */
const BLOCKED_EVERY = { small: 33, big: 1000, legacy: 1000 } as const;
const HELD_SHARE = { small: 0.75, big: 0.3, legacy: 0.3 } as const;
const HELD_DEFERRED_SHARE = { small: 0.6, big: 0, legacy: 0 } as const;

type Account = { id: number; key: string; name: 'small' | 'big' | 'legacy' };
type Item = Record<string, NativeAttributeValue>;
type Shape = 'current' | 'previous';

/** A seeded pseudo-random source, so two runs seed the same data. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(values: readonly T[]) => values[int(values.length)]!;
  /** One of `choices` by weight. */
  const weighted = <T>(choices: readonly [T, number][]) => {
    let r = next() * choices.reduce((sum, [, w]) => sum + w, 0);
    for (const [value, weight] of choices) {
      r -= weight;
      if (r < 0) return value;
    }
    return choices[choices.length - 1]![0];
  };
  return { next, int, pick, weighted };
}

const WORDS = [
  'spring',
  'sale',
  'newsletter',
  'winter',
  'launch',
  'promo',
  'partner',
  'invoice',
  'survey',
  'webinar',
  'coupon',
  'blog',
  'press',
  'retarget',
  'loyalty',
];
/**
 * Half the shortened links (15% of all) carry one campaign's comment, as a campaign's
 * shortened links do: one distinct comment on many links. Its last word is past the
 * counted word-start length (12).
 */
const CAMPAIGN_COMMENT = 'Black Friday 2026 subscriptions';
const withCampaignComment = (everyday: string | null, shortened: boolean, i: number) => (shortened && i % 2 === 0 ? CAMPAIGN_COMMENT : everyday);

const SITES = [
  'https://shop.example.com/p/',
  'https://www.example.org/blog/',
  'https://example.net/events/',
  'https://docs.example.com/guide/',
  'https://m.example.co.uk/offer/',
];
const SENDERS = ['ShopCo', 'Alerts', 'INFO', '447700900123'];
const TEXTS = [
  'Your order has shipped. Track it in the app.',
  'Reminder: your appointment is tomorrow at 10:00.',
  'Thanks for your purchase!',
  'Spring sale: 20% off everything this weekend.',
];

/** Creation instants spread over the last MONTHS months, oldest first (ids follow creation order). */
function creationTimes(n: number, rnd: ReturnType<typeof random>, now: number): string[] {
  const span = MONTHS * 30 * DAY_MS;
  return Array.from({ length: n }, () => now - DAY_MS - rnd.int(span))
    .sort((a, b) => a - b)
    .map((t) => new Date(t).toISOString());
}

async function main(): Promise<void> {
  const { startLocal } = await import('../shared/local/runtime');
  const { keys } = await import('../shared/store/keys');
  const { withoutNulls } = await import('../shared/store/items');
  const { LinkCodec } = await import('../shared/domain/link-code');
  const { migrate } = await import('../shared/store/migration');
  const { itemUpgrades } = await import('../shared/store/item-upgrades');
  const { linkCreation } = await import('../shared/store/links-repo');
  const { messageCreation } = await import('../shared/store/message-changes');
  const started = Date.now();
  const local = await startLocal({ port: 0 });
  const rt = local.runtime;
  const { store } = rt;
  // The local sweep's roll-up passes are held: the ones measured below copy every seeded day.
  const rollUp = rt.rollups.run.bind(rt.rollups);
  rt.rollups.run = async () => 0;
  const units = { read: 0, write: 0, requests: 0, trace: undefined as string[] | undefined };
  store.db.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { ReturnConsumedCapacity?: string; IndexName?: string; Limit?: number; Select?: string };
      input.ReturnConsumedCapacity = 'TOTAL';
      units.requests++;
      const start = performance.now();
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
      const kind = /Put|Update|Delete|Write/.test(context.commandName ?? '') ? 'write' : 'read';
      let spent = 0;
      for (const capacity of [consumed ?? []].flat()) spent += capacity.CapacityUnits ?? 0;
      units[kind] += spent;
      if (units.trace) {
        const output = result.output as { Count?: number; Items?: unknown[]; Responses?: Record<string, unknown[]> };
        const got = output.Count ?? Object.values(output.Responses ?? {}).flat().length;
        const what = [context.commandName, input.IndexName, input.Limit && `Limit ${input.Limit}`, input.Select].filter(Boolean).join(' ');
        units.trace.push(
          `      ${(performance.now() - start).toFixed(1).padStart(6)} ms ${spent.toFixed(1).padStart(6)} RU ${String(got).padStart(5)} items  ${what}`,
        );
      }
      return result;
    },
    { step: 'initialize', name: 'consumedCapacity' },
  );

  /** A block of ids from the allocator's counter, in one ADD, as IdAllocator reserves them. */
  const reserve = async (counter: string, n: number): Promise<number> => {
    const result = await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.counter(counter),
        UpdateExpression: 'ADD #value :block SET entity = :entity',
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: { ':block': n, ':entity': 'Counter' },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(result.Attributes?.value) - n + 1;
  };
  /** BatchWriteItem, 25 puts per request, four requests at a time, retrying unprocessed items. */
  const writeAll = async (items: Item[]) => {
    const chunks: Item[][] = [];
    for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
    const worker = async () => {
      for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
        let request: Record<string, { PutRequest: { Item: Item } }[]> | undefined = {
          [store.tableName]: chunk.map((Item) => ({ PutRequest: { Item } })),
        };
        while (request && Object.keys(request).length > 0) {
          const result = await store.db.send(new BatchWriteCommand({ RequestItems: request }));
          request = result.UnprocessedItems as typeof request;
        }
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
  };

  /** Counter cells of the items seeded in the current layout, summed here and written once, as their counted creations would have added them. */
  const counters = new Map<string, Item>();
  const count = (adds: { key: { pk: string; sk: string }; add: Record<string, number> }[]) => {
    for (const { key, add } of adds) {
      const item = counters.get(`${key.pk}|${key.sk}`) ?? { ...key, entity: 'Count' };
      for (const [cell, n] of Object.entries(add)) item[cell] = (item[cell] ?? 0) + n;
      counters.set(`${key.pk}|${key.sk}`, item);
    }
  };

  const codec = new LinkCodec(await rt.settings.linkCodeSecret());
  const now = Date.now();
  const day = (t: number) => new Date(t).toISOString().slice(0, 10);

  const seedLinks = async (account: Account, n: number, shape: Shape) => {
    const rnd = random(account.id * 7919);
    const first = await reserve('link', n);
    const times = creationTimes(n, rnd, now);
    const items: Item[] = [];
    const samples = { code: '', trackingCode: '' };
    for (let i = 0; i < n; i++) {
      const id = first + i;
      const shortened = rnd.next() < 0.3;
      const clickCnt = rnd.weighted<() => number>([
        [() => 0, 50],
        [() => 1, 20],
        [() => 2, 12],
        [() => 3, 8],
        [() => 4 + rnd.int(5000), 10],
      ])();
      const expiring = rnd.next() < 0.2;
      const expirationDate = expiring ? day(now + (rnd.int(210) - 30) * DAY_MS) : null;
      const link = {
        id,
        accountId: account.id,
        code: codec.encode(id),
        fullLink: `${rnd.pick(SITES)}${rnd.int(1e6)}${rnd.next() < 0.5 ? `?utm_source=sms&utm_campaign=${rnd.pick(WORDS)}` : ''}`,
        status: (rnd.next() < 0.1 ? 0 : 1) as 0 | 1,
        moderatorStatus: (i % BLOCKED_EVERY[account.name] === Math.floor(BLOCKED_EVERY[account.name] / 2) ? 0 : 1) as 0 | 1,
        moderatorComment: null,
        comment: withCampaignComment(rnd.next() < 0.4 ? `${rnd.pick(WORDS)} ${rnd.pick(WORDS)} ${rnd.int(100)}` : null, shortened, i),
        expirationDate,
        expiresAt: expirationDate ? `${expirationDate}T23:59:59.999Z` : null,
        clickCnt,
        redirectCnt: clickCnt + (clickCnt > 0 ? rnd.int(3) : 0),
        createdAt: times[i]!,
        campaignId: shortened ? 1_000_000 + rnd.int(1e6) : null,
        trackingCode: shortened ? ulid(Date.parse(times[i]!)) : null,
      };
      if (i === Math.floor(n / 2)) samples.code = link.code;
      if (shortened && !samples.trackingCode && i > n / 3) samples.trackingCode = link.trackingCode!;
      if (shape === 'previous') {
        items.push({ ...keys.link(link.id), ...keys.linkIndex(link.accountId, link.createdAt, link.id), entity: 'Link', ...withoutNulls(link) });
      } else {
        const { item, op } = linkCreation(link);
        items.push(item, ...(op.puts ?? []));
        count(op.counters);
      }
    }
    await writeAll(items);
    return samples;
  };

  /** `within`: every message created in that hour (its start, ms), sent a few seconds later; else over the last months. */
  const seedMessages = async (account: Account, n: number, shape: Shape, within?: number) => {
    const rnd = random(account.id * 104729);
    const firstMessage = await reserve('message', n);
    const firstCampaign = await reserve('campaign', n);
    const times =
      within === undefined
        ? creationTimes(n, rnd, now)
        : Array.from({ length: n }, () => within + rnd.int(3_590_000))
            .sort((a, b) => a - b)
            .map((t) => new Date(t).toISOString());
    const recipients = Array.from({ length: Math.max(10, Math.floor(n / 10)) }, () =>
      rnd.weighted<() => string>([
        [() => `4477009${String(rnd.int(1e5)).padStart(5, '0')}`, 60],
        [() => `49151${String(rnd.int(1e8)).padStart(8, '0')}`, 25],
        [() => `1202555${String(rnd.int(1e4)).padStart(4, '0')}`, 15],
      ])(),
    );
    const items: Item[] = [];
    for (let i = 0; i < n; i++) {
      const id = firstMessage + i;
      const campaignId = firstCampaign + i;
      const createdAt = times[i]!;
      const status = rnd.weighted<string>([
        ['DELIVRD', 70],
        ['UNDELIV', 8],
        ['ACCEPTD', 5],
        ['EXPIRED', 5],
        ['NEW', 4],
        ['REJECTD', 3],
        ['ENQUEUD', 2],
        ['PDLIVRD', 2],
        ['DELETED', 1],
      ]);
      const held = status === 'NEW' && rnd.next() < HELD_SHARE[account.name];
      const sent = !['NEW', 'ENQUEUD'].includes(status);
      const deferredTo =
        status === 'NEW' && (!held || rnd.next() < HELD_DEFERRED_SHARE[account.name])
          ? new Date(Date.parse(createdAt) + 2 * 60 * 60_000).toISOString()
          : null;
      const startSendAt = sent ? new Date(Date.parse(createdAt) + 500 + rnd.int(5000)).toISOString() : null;
      const statusUpdatedAt = startSendAt ? new Date(Date.parse(startSendAt) + 1000 + rnd.int(600_000)).toISOString() : null;
      const campaignStatus = held
        ? 'MODERATION'
        : status === 'NEW'
          ? 'READY_FOR_SEND'
          : status === 'ENQUEUD'
            ? 'RUNNING'
            : ['ACCEPTD', 'PDLIVRD'].includes(status)
              ? 'SENT'
              : 'DONE';
      const text =
        rnd.next() < 0.5
          ? rnd.pick(TEXTS)
          : rnd.next() < 0.6
            ? `Your verification code is ${String(rnd.int(1e6)).padStart(6, '0')}`
            : `${rnd.pick(WORDS)} offer for you: https://sms.example/${codec.encode(1 + rnd.int(1e6))}`;
      const to = rnd.pick(recipients);
      const uuid = ulid(Date.parse(createdAt));
      const campaign = {
        id: campaignId,
        accountId: account.id,
        messageId: id,
        name: rnd.next() < 0.3 ? `${rnd.pick(WORDS)} ${day(Date.parse(createdAt))}` : null,
        status: campaignStatus,
        linkIds: [],
        createdAt,
        sentAt: startSendAt,
        deferredTo,
      };
      const message = {
        id,
        accountId: account.id,
        campaignId,
        from: rnd.pick(SENDERS),
        to,
        text,
        segNum: text.length > 160 ? 2 : 1,
        segUserBuy: 0.05,
        status,
        uuid,
        countryA2: to.startsWith('44') ? 'GB' : to.startsWith('49') ? 'DE' : 'US',
        validityMinutes: 1440,
        createdAt,
        startSendAt,
        statusUpdatedAt,
        gateway: sent ? 'simulator' : null,
        gatewayMessageId: sent ? `sim-${id}` : null,
        submitState: null,
      };
      items.push({ ...keys.campaign(campaign.id), entity: 'Campaign', ...withoutNulls(campaign) });
      if (shape === 'previous') {
        items.push({
          ...keys.message(message.id),
          ...keys.messageIndex(message.accountId, message.createdAt, message.id),
          entity: 'Message',
          ...withoutNulls(message),
        });
      } else {
        const { item, op } = messageCreation(message as Message, {
          status: campaignStatus as CampaignStatus,
          deferred: campaign.deferredTo !== null,
        });
        items.push(item);
        count(op.counters);
      }
    }
    await writeAll(items);
    return { campaignIds: [firstCampaign + Math.floor(n / 3), firstCampaign + Math.floor(n / 2), firstCampaign + n - 2], to: recipients[1]! };
  };

  /** Brings the seeded items to the current layout, as `admin migrate` does, and says what it cost. */
  const migrateSeeded = async () => {
    const start = performance.now();
    units.read = 0;
    units.write = 0;
    const result = await migrate(store, itemUpgrades(rt));
    const seconds = (performance.now() - start) / 1000;
    const line = `${result.seen} items seen, ${result.upgraded} upgraded in ${seconds.toFixed(1)} s (${(result.seen / seconds).toFixed(0)} items/s), ${units.read.toFixed(0)} RRU, ${units.write.toFixed(0)} WRU`;
    process.stderr.write(`migrated: ${line}\n`);
    // A pass over a table with nothing left to upgrade: what the next version's start costs.
    const again = performance.now();
    units.read = 0;
    const second = await migrate(store, itemUpgrades(rt), { restart: true });
    const secondSeconds = (performance.now() - again) / 1000;
    const idle = `${second.seen} items seen, ${second.upgraded} upgraded in ${secondSeconds.toFixed(1)} s (${(second.seen / secondSeconds).toFixed(0)} items/s), ${units.read.toFixed(0)} RRU`;
    process.stderr.write(`passed again: ${idle}\n`);
    return `${line}; a second pass, nothing left to upgrade: ${idle}`;
  };

  /**
   * The scheduled roll-up pass over the seeded table, as the sweep runs it: first over every
   * account's whole history (as after an upgrade), then on the next day, copying that day.
   */
  const rollUpSeeded = async () => {
    const pass = async () => {
      const start = performance.now();
      units.read = 0;
      units.write = 0;
      const days = await rollUp();
      return `${days} days in ${((performance.now() - start) / 1000).toFixed(1)} s, ${units.read.toFixed(1)} RRU, ${units.write.toFixed(1)} WRU`;
    };
    // The first pass a day back (every day before), then today's: the day that settled since.
    await rt.rollups.restart();
    const clock = rt.clock;
    rt.clock = () => new Date(clock().getTime() - 86_400_000);
    const first = await pass().finally(() => (rt.clock = clock));
    const next = await pass();
    const line = `the first pass copied ${first}; the next day's, ${next}`;
    process.stderr.write(`rolled up: ${line}\n`);
    return line;
  };

  const call = async (account: Account, path: string, body: Record<string, string>) => {
    const response = await fetch(`${local.baseUrl}/service/${path}?apiKey=${account.key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
    const envelope = (await response.json()) as { code: number; data: any; message: string };
    if (envelope.code !== 0) throw new Error(`${path} answered code ${envelope.code}: ${envelope.message}`);
    return envelope.data as { items: unknown[]; totalItemCount: number };
  };
  type Row = { name: string; small: Measured & { days?: number }; big: Measured };
  type Measured = { p50: number; times: number[]; rru: number; total: number; requests: number };
  /**
   * One warm-up call on each account, then ROUNDS rounds of one timed call on each, which
   * goes first alternating: the machine's busy moments fall on both alike. Each side's median
   * latency, its latency per round (in round order), mean RRU and what its call found.
   */
  const measure = async (path: string, sides: [Account, Record<string, string>][]): Promise<Measured[]> => {
    for (const [account, body] of sides) await call(account, path, body);
    const measured = sides.map(() => ({ times: [] as number[], read: 0, requests: 0, total: 0 }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
        const [account, body] = sides[i]!;
        const side = measured[i]!;
        units.read = 0;
        units.requests = 0;
        // BENCH_TRACE: each request of the last round's calls, with its time, read units and items.
        units.trace = TRACE && round === ROUNDS - 1 ? [] : undefined;
        const start = performance.now();
        side.total = (await call(account, path, body)).totalItemCount;
        side.times.push(performance.now() - start);
        if (units.trace)
          process.stderr.write(`    ${account.name} ${path} ${(performance.now() - start).toFixed(1)} ms:\n${units.trace.join('\n')}\n`);
        side.read += units.read;
        side.requests += units.requests;
      }
    }
    return measured.map(({ times, read, requests, total }) => ({
      p50: median(times),
      times,
      rru: read / ROUNDS,
      total,
      requests: requests / ROUNDS,
    }));
  };

  const accounts: Account[] = [];
  for (const name of ['small', 'big'] as const) {
    const account = await rt.accounts.createAccount({ name: `bench-${name}`, timeZone: 'UTC' });
    accounts.push({ id: account.id, key: (await rt.accounts.issueKey(account.id)).key, name });
  }
  const [small, big] = accounts as [Account, Account];
  const bursts: Account[] = [];
  for (const name of ['small', 'big'] as const) {
    const account = await rt.accounts.createAccount({ name: `bench-burst-${name}`, timeZone: 'UTC' });
    bursts.push({ id: account.id, key: (await rt.accounts.issueKey(account.id)).key, name });
  }
  /** The hour of the sending burst: two days ago, on the hour. */
  const burstHour = Math.floor((now - 2 * DAY_MS) / 3_600_000) * 3_600_000;
  const legacyAccount = await rt.accounts.createAccount({ name: 'bench-legacy', timeZone: 'UTC' });
  const legacy: Account = { id: legacyAccount.id, key: '', name: 'legacy' };
  const window = (days: number) => {
    const to = new Date(now - 30 * DAY_MS);
    const from = new Date(to.getTime() - days * DAY_MS);
    const ts = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
    return [ts(from), ts(to)] as const;
  };
  const [weekFrom, weekTo] = window(7);
  const [fiveMonthsFrom] = window(150);

  try {
    const sections: { title: string; rows: Row[] }[] = [];
    const compare = async (
      rows: Row[],
      name: string,
      path: string,
      body: (account: Account) => Record<string, string> | Promise<Record<string, string>>,
      [one, other] = [small, big],
    ) => {
      if (!CASES.test(name)) return;
      const { body: smallBody, days } = await filled(one, path, await body(one));
      const [smallMeasured, bigMeasured] = (await measure(path, [
        [one, smallBody],
        [other, await body(other)],
      ])) as [Measured, Measured];
      const measured = { small: { ...smallMeasured, days }, big: bigMeasured };
      rows.push({ name, ...measured });
      process.stderr.write(
        `  ${path} ${name}: ${measured.big.p50.toFixed(0)} ms, ${measured.big.rru.toFixed(0)} RRU, ${measured.small.requests.toFixed(1)} / ${measured.big.requests.toFixed(1)} requests (small / big)\n`,
      );
    };
    /**
     * A week of the small account holds a hundredth of what the big one's does: where its
     * week finds less than a page, its range starts earlier (two weeks, four, ...) until it
     * finds a page, so that both answers are a full page. The row says how many days.
     */
    const filled = async (account: Account, path: string, body: Record<string, string>) => {
      const ranged = Object.values(body).includes(weekFrom);
      if (!ranged || (await call(account, path, body)).totalItemCount >= PAGE) return { body, days: undefined };
      for (let days = 14; days <= MONTHS * 31; days *= 2) {
        const [from] = window(days);
        const widened = Object.fromEntries(Object.entries(body).map(([name, value]) => [name, value === weekFrom ? from : value]));
        if ((await call(account, path, widened)).totalItemCount >= PAGE) return { body: widened, days };
      }
      // No range finds a page (a single number's messages): measured on its week.
      return { body, days: undefined };
    };
    const lastPage = async (account: Account, path: string, body: Record<string, string>) => {
      const { totalItemCount } = await call(account, path, { ...body, 'pagination[pageSize]': '100' });
      return { ...body, 'pagination[pageSize]': '100', 'pagination[currentPage]': String(Math.max(0, Math.ceil(totalItemCount / 100) - 1)) };
    };

    const linkSamples = new Map<number, Awaited<ReturnType<typeof seedLinks>>>();
    if (ONLY !== 'messages') {
      const seedStart = Date.now();
      for (const account of [small, big]) linkSamples.set(account.id, await seedLinks(account, SIZES[account.name as 'small' | 'big'].links, SEED));
      if (SEED === 'current') await seedLinks(legacy, LEGACY.links, 'previous');
      process.stderr.write(`seeded ${SIZES.small.links} + ${SIZES.big.links} links in ${((Date.now() - seedStart) / 1000).toFixed(0)} s\n`);
    }
    const messageSamples = new Map<number, Awaited<ReturnType<typeof seedMessages>>>();
    if (ONLY !== 'links') {
      const seedStart = Date.now();
      for (const account of [small, big])
        messageSamples.set(account.id, await seedMessages(account, SIZES[account.name as 'small' | 'big'].messages, SEED));
      if (SEED === 'current') await seedMessages(legacy, LEGACY.messages, 'previous');
      for (const account of bursts) await seedMessages(account, account.name === 'big' ? BURST : Math.ceil(BURST / 100), 'current', burstHour);
      process.stderr.write(
        `seeded ${SIZES.small.messages} + ${SIZES.big.messages} messages (and as many campaigns) in ${((Date.now() - seedStart) / 1000).toFixed(0)} s\n`,
      );
    }
    await writeAll([...counters.values()]);
    const migrated = await migrateSeeded();
    const rolledUp = await rollUpSeeded();

    if (ONLY !== 'messages') {
      const samples = linkSamples;
      const rows: Row[] = [];
      const list = (name: string, body: (account: Account) => Record<string, string> | Promise<Record<string, string>>) =>
        compare(rows, name, 'Link/List', body);
      await list('no criteria (page 0 of 25)', () => ({}));
      for (const field of ['createTs', 'expirationDate', 'clickCnt', 'code', 'fullLink']) {
        for (const direction of ['ASC', 'DESC']) await list(`sort[${field}]=${direction}`, () => ({ [`sort[${field}]`]: direction }));
      }
      await list('criteria[status]=0', () => ({ 'criteria[status]': '0' }));
      await list('criteria[status]=1', () => ({ 'criteria[status]': '1' }));
      await list('criteria[moderatorStatus]=0 (3% / 0.1%)', () => ({ 'criteria[moderatorStatus]': '0' }));
      await list('criteria[moderatorStatus]=1', () => ({ 'criteria[moderatorStatus]': '1' }));
      await list('createTsFrom/To (one week)', () => ({ 'criteria[createTsFrom]': weekFrom, 'criteria[createTsTo]': weekTo }));
      await list('status=1 + week + sort[clickCnt]=DESC', () => ({
        'criteria[status]': '1',
        'criteria[createTsFrom]': weekFrom,
        'criteria[createTsTo]': weekTo,
        'sort[clickCnt]': 'DESC',
      }));
      // A long range: its total adds up every day's counter item in it.
      await list('createTsFrom/To (five months)', () => ({ 'criteria[createTsFrom]': fiveMonthsFrom, 'criteria[createTsTo]': weekTo }));
      // One bound: the range closed at the account's newest link (about five weeks) or oldest (about five months).
      await list('createTsFrom (5 weeks) + sort[clickCnt]=DESC', () => ({ 'criteria[createTsFrom]': weekFrom, 'sort[clickCnt]': 'DESC' }));
      await list('createTsTo (5 months) + sort[clickCnt]=ASC', () => ({ 'criteria[createTsTo]': weekTo, 'sort[clickCnt]': 'ASC' }));
      await list('first page of 100', () => ({ 'pagination[pageSize]': '100' }));
      await list('last page of 100', (account) => lastPage(account, 'Link/List', {}));
      await list('criteria[query]: exact code', (account) => ({ 'criteria[query]': samples.get(account.id)!.code }));
      await list('criteria[query]: tracking code', (account) => ({ 'criteria[query]': samples.get(account.id)!.trackingCode }));
      await list('criteria[query]: comment word', () => ({ 'criteria[query]': 'webinar' }));
      await list('criteria[query]: two words of a repeated comment', () => ({ 'criteria[query]': 'black fri' }));
      await list('criteria[query]: a word past 12 characters', () => ({ 'criteria[query]': 'subscriptions' }));
      const week = { 'criteria[createTsFrom]': weekFrom, 'criteria[createTsTo]': weekTo };
      await list('criteria[query]: comment word + week', () => ({ 'criteria[query]': 'webinar', ...week }));
      await list('criteria[query]: two words of a repeated comment + week', () => ({ 'criteria[query]': 'black fri', ...week }));
      await list('criteria[query]: a word past 12 characters + week', () => ({ 'criteria[query]': 'subscriptions', ...week }));
      await list('criteria[query]: comment word + sort[clickCnt]=DESC', () => ({ 'criteria[query]': 'webinar', 'sort[clickCnt]': 'DESC' }));
      await list('criteria[query]: comment word + sort[code]=ASC', () => ({ 'criteria[query]': 'webinar', 'sort[code]': 'ASC' }));
      await list('criteria[query]: comment word + sort[fullLink]=DESC', () => ({ 'criteria[query]': 'webinar', 'sort[fullLink]': 'DESC' }));
      await list('criteria[query]: comment word + sort[expirationDate]=ASC', () => ({ 'criteria[query]': 'webinar', 'sort[expirationDate]': 'ASC' }));
      await list('criteria[query]: two words of a repeated comment + sort[fullLink]=ASC', () => ({
        'criteria[query]': 'black fri',
        'sort[fullLink]': 'ASC',
      }));
      await list('criteria[query]: two words of a repeated comment + sort[code]=DESC', () => ({
        'criteria[query]': 'black fri',
        'sort[code]': 'DESC',
      }));
      await list('criteria[query]: two words of a repeated comment + sort[expirationDate]=DESC', () => ({
        'criteria[query]': 'black fri',
        'sort[expirationDate]': 'DESC',
      }));
      await list('criteria[query]: a word past 12 characters + sort[fullLink]=ASC', () => ({
        'criteria[query]': 'subscriptions',
        'sort[fullLink]': 'ASC',
      }));
      await list('criteria[query]: two words of a repeated comment + sort[clickCnt]=DESC', () => ({
        'criteria[query]': 'black fri',
        'sort[clickCnt]': 'DESC',
      }));
      await list('criteria[query]: two words of a repeated comment + status=1 + sort[clickCnt]=ASC, 4th page', () => ({
        'criteria[query]': 'black fri',
        'criteria[status]': '1',
        'sort[clickCnt]': 'ASC',
        'pagination[currentPage]': '3',
      }));
      sections.push({ title: `Link/List: ${SIZES.small.links.toLocaleString('en')} vs ${SIZES.big.links.toLocaleString('en')} links`, rows });
    }

    if (ONLY !== 'links') {
      const samples = messageSamples;
      const rows: Row[] = [];
      const list = (name: string, body: (account: Account) => Record<string, string> | Promise<Record<string, string>>) =>
        compare(rows, name, 'Message/List', body);
      await list('no criteria (page 0 of 25)', () => ({}));
      for (const field of ['campaignId', 'from', 'to', 'text', 'status', 'startSendTs', 'statusUpdateTs', 'segNum']) {
        for (const direction of ['ASC', 'DESC']) await list(`sort[${field}]=${direction}`, () => ({ [`sort[${field}]`]: direction }));
      }
      await list('criteria[campaignIds] (3 ids)', (account) => ({ 'criteria[campaignIds]': samples.get(account.id)!.campaignIds.join(',') }));
      await list('criteria[status]=UNDELIV', () => ({ 'criteria[status]': 'UNDELIV' }));
      await list('criteria[from]=Alerts', () => ({ 'criteria[from]': 'Alerts' }));
      await list('criteria[to]: whole number', (account) => ({ 'criteria[to]': samples.get(account.id)!.to }));
      await list('criteria[to]: prefix 4477009', () => ({ 'criteria[to]': '4477009' }));
      await list('criteria[to]: 4477009, last page of 100', (account) => lastPage(account, 'Message/List', { 'criteria[to]': '4477009' }));
      await list('criteria[to]: prefix 1202555 (15%)', () => ({ 'criteria[to]': '1202555' }));
      await list('criteria[to]: suffix (last 5 digits)', (account) => ({ 'criteria[to]': samples.get(account.id)!.to.slice(-5) }));
      await list('criteria[to]: middle digits', (account) => ({ 'criteria[to]': samples.get(account.id)!.to.slice(3, 8) }));
      await list('criteria[text] (a repeated text)', () => ({ 'criteria[text]': TEXTS[1]! }));
      await list('criteria[campaignStatus]=MODERATION', () => ({ 'criteria[campaignStatus]': 'MODERATION' }));
      await list('criteria[campaignStatus]=NOT_YET_SENT', () => ({ 'criteria[campaignStatus]': 'NOT_YET_SENT' }));
      await list('criteria[campaignStatus]=DEFERRED', () => ({ 'criteria[campaignStatus]': 'DEFERRED' }));
      // Status, campaign status and sender combined: totals from the combination cells, pages driven in order (message-combos.ts).
      const failedFromAlerts = { 'criteria[status]': 'UNDELIV', 'criteria[from]': 'Alerts' };
      const deliveredFromAlerts = { 'criteria[status]': 'DELIVRD', 'criteria[from]': 'Alerts' };
      await list('status=UNDELIV + from=Alerts', () => failedFromAlerts);
      await list('status=DELIVRD + from=Alerts', () => deliveredFromAlerts);
      await list('status=DELIVRD + from=Alerts, last page of 100', (account) => lastPage(account, 'Message/List', deliveredFromAlerts));
      await list('status=DELIVRD + campaignStatus=DONE', () => ({ 'criteria[status]': 'DELIVRD', 'criteria[campaignStatus]': 'DONE' }));
      await list('status=NEW + campaignStatus=MODERATION', () => ({ 'criteria[status]': 'NEW', 'criteria[campaignStatus]': 'MODERATION' }));
      await list('from=Alerts + status=DELIVRD + sort[segNum]=DESC', () => ({ ...deliveredFromAlerts, 'sort[segNum]': 'DESC' }));
      await list('from=Alerts + status=UNDELIV + sort[segNum]=DESC', () => ({ ...failedFromAlerts, 'sort[segNum]': 'DESC' }));
      for (const range of ['campaignCreateTs', 'campaignSentTs', 'startSendTs', 'statusUpdateTs']) {
        await list(`${range}From/To (one week)`, () => ({ [`criteria[${range}From]`]: weekFrom, [`criteria[${range}To]`]: weekTo }));
      }
      // Long ranges: their totals add up every day's counter item in them.
      await list('campaignCreateTsFrom/To (five months)', () => ({
        'criteria[campaignCreateTsFrom]': fiveMonthsFrom,
        'criteria[campaignCreateTsTo]': weekTo,
      }));
      await list('status=DELIVRD + statusUpdateTs five months', () => ({
        'criteria[status]': 'DELIVRD',
        'criteria[statusUpdateTsFrom]': fiveMonthsFrom,
        'criteria[statusUpdateTsTo]': weekTo,
      }));
      // A creation week with another criterion (one key range of its index: message-time-criteria.ts) or a sort.
      const createdWeek = { 'criteria[campaignCreateTsFrom]': weekFrom, 'criteria[campaignCreateTsTo]': weekTo };
      await list('from=Alerts + campaignCreateTs week', () => ({ 'criteria[from]': 'Alerts', ...createdWeek }));
      await list('status=DELIVRD + from=Alerts + campaignCreateTs week', () => ({
        'criteria[status]': 'DELIVRD',
        'criteria[from]': 'Alerts',
        ...createdWeek,
      }));
      // A sender's total from its day items, however many messages it sent in the range.
      await list('from=Alerts + campaignCreateTs five months', () => ({
        'criteria[from]': 'Alerts',
        'criteria[campaignCreateTsFrom]': fiveMonthsFrom,
        'criteria[campaignCreateTsTo]': weekTo,
      }));
      await list('text + campaignCreateTs week', () => ({ 'criteria[text]': TEXTS[1]!, ...createdWeek }));
      await list('to whole + campaignCreateTs week', (account) => ({ 'criteria[to]': samples.get(account.id)!.to, ...createdWeek }));
      await list('campaignStatus=DONE + campaignCreateTs week', () => ({ 'criteria[campaignStatus]': 'DONE', ...createdWeek }));
      await list('to whole + startSendTs week', (account) => ({
        'criteria[to]': samples.get(account.id)!.to,
        'criteria[startSendTsFrom]': weekFrom,
        'criteria[startSendTsTo]': weekTo,
      }));
      await list('campaignCreateTs week + sort[segNum]=DESC', () => ({ ...createdWeek, 'sort[segNum]': 'DESC' }));
      await list('campaignCreateTs week + sort[status]=ASC', () => ({ ...createdWeek, 'sort[status]': 'ASC' }));
      await list('campaignCreateTs week + sort[to]=ASC', () => ({ ...createdWeek, 'sort[to]': 'ASC' }));
      await list('campaignCreateTs week + sort[from]=ASC', () => ({ ...createdWeek, 'sort[from]': 'ASC' }));
      await list('text + startSendTs week', () => ({
        'criteria[text]': TEXTS[1]!,
        'criteria[startSendTsFrom]': weekFrom,
        'criteria[startSendTsTo]': weekTo,
      }));
      // Status with a time range: totals from the hourly cells per status (created, sent, updated: message-status-times.ts).
      const week = (range: string) => ({ [`criteria[${range}From]`]: weekFrom, [`criteria[${range}To]`]: weekTo });
      await list('status=UNDELIV + statusUpdateTs week', () => ({ 'criteria[status]': 'UNDELIV', ...week('statusUpdateTs') }));
      await list('status=DELIVRD + statusUpdateTs week', () => ({ 'criteria[status]': 'DELIVRD', ...week('statusUpdateTs') }));
      await list('status=DELIVRD + startSendTs week', () => ({ 'criteria[status]': 'DELIVRD', ...week('startSendTs') }));
      await list('status=UNDELIV + startSendTs week', () => ({ 'criteria[status]': 'UNDELIV', ...week('startSendTs') }));
      await list('status=DELIVRD + campaignSentTs week', () => ({ 'criteria[status]': 'DELIVRD', ...week('campaignSentTs') }));
      await list('status=DELIVRD + campaignCreateTs week', () => ({ 'criteria[status]': 'DELIVRD', ...week('campaignCreateTs') }));
      await list('status=UNDELIV + campaignCreateTs week', () => ({ 'criteria[status]': 'UNDELIV', ...week('campaignCreateTs') }));
      // A dashboard's "sent in the last 8 days, delivered": a range until the moment of the call (its last, partial hour from
      // that hour's cell, less the rest of the hour, which has not happened yet).
      const untilNow = () => {
        const ts = (time: number) => new Date(time).toISOString().slice(0, 19).replace('T', ' ');
        return { 'criteria[startSendTsFrom]': ts(Date.now() - 8 * DAY_MS), 'criteria[startSendTsTo]': ts(Date.now()) };
      };
      await list('status=DELIVRD + startSendTs 8 days until now', () => ({ 'criteria[status]': 'DELIVRD', ...untilNow() }));
      await list('first page of 100', () => ({ 'pagination[pageSize]': '100' }));
      await list('last page of 100', (account) => lastPage(account, 'Message/List', {}));
      sections.push({
        title: `Message/List: ${SIZES.small.messages.toLocaleString('en')} vs ${SIZES.big.messages.toLocaleString('en')} messages`,
        rows,
      });
      // A status with a range whose edge falls inside the sending burst's hour: that part of the hour is counted from an index.
      const burstRows: Row[] = [];
      const ts = (time: number) => new Date(time).toISOString().slice(0, 19).replace('T', ' ');
      const burst = (name: string, range: string, from: number) =>
        compare(
          burstRows,
          `burst: ${name}`,
          'Message/List',
          () => ({ 'criteria[status]': 'DELIVRD', [`criteria[${range}From]`]: ts(from), [`criteria[${range}To]`]: ts(burstHour + DAY_MS) }),
          bursts as [Account, Account],
        );
      await burst('status=DELIVRD + startSendTs from the hour', 'startSendTs', burstHour);
      await burst('status=DELIVRD + startSendTs from :20', 'startSendTs', burstHour + 20 * 60_000);
      await burst('status=DELIVRD + startSendTs from :40', 'startSendTs', burstHour + 40 * 60_000);
      await burst('status=DELIVRD + statusUpdateTs from :20', 'statusUpdateTs', burstHour + 20 * 60_000);
      await burst('status=DELIVRD + campaignCreateTs from :20', 'campaignCreateTs', burstHour + 20 * 60_000);
      sections.push({
        title: `Message/List, a sending burst: ${Math.ceil(BURST / 100).toLocaleString('en')} vs ${BURST.toLocaleString('en')} messages sent in one hour (accounts of their own)`,
        rows: burstRows,
      });
    }

    console.log('\nbench:list');
    console.log(
      `  p50 latency of ${ROUNDS} calls over HTTP after one warm-up (the two accounts' calls alternating), and DynamoDB read units (RRU) per call, small vs big account.`,
    );
    console.log('  Latency ratio: the median over rounds of big / small, each round timing both calls back to back, and the range of those ratios.');
    console.log('  Local runtime (dynalite) on a shared machine: latencies are noisy, RRU are what DynamoDB would charge.');
    if (SEED === 'current') {
      console.log('  Seeded by BatchWriteItem of the items, comment words and counters the repositories write at creation (see the header of');
      console.log(
        `  scripts/bench-list.ts); a third account of ${LEGACY.links.toLocaleString('en')} links and ${LEGACY.messages.toLocaleString('en')} messages in the previous layout was`,
      );
      console.log(`  then migrated (admin migrate, scanning the whole table): ${migrated}.`);
      console.log(`  The scheduled roll-up pass (the accounts' counters onto month items): ${rolledUp}.`);
    } else {
      console.log('  Seeded by BatchWriteItem of items shaped as the previous version wrote them (see the header of scripts/bench-list.ts),');
      console.log(`  then migrated (admin migrate): ${migrated}.`);
    }
    console.log(
      `  Rare values fill a page on both accounts (see BLOCKED_EVERY, HELD_SHARE). "(Nd)": the small account's week found less than a page,`,
    );
    console.log('  so its range was widened to N days ending where the week ends, and both accounts answer a full page.');
    for (const { title, rows } of sections) {
      console.log(`\n  ${title}`);
      console.log(
        `  ${'call'.padEnd(40)}${'found s/b'.padStart(16)}${'p50 ms s'.padStart(10)}${'p50 ms b'.padStart(10)}${'ratio'.padStart(7)}${'(range)'.padStart(12)}${'RRU s'.padStart(9)}${'RRU b'.padStart(10)}${'ratio'.padStart(7)}`,
      );
      for (const { name, small: s, big: b } of rows) {
        const found = `${s.total}${s.days ? ` (${s.days}d)` : ''}/${b.total}`;
        const ratio = pairedRatio(s.times, b.times);
        const range = `${ratio.low.toFixed(2)}-${ratio.high.toFixed(2)}`;
        console.log(
          `  ${name.padEnd(40)}${found.padStart(16)}${s.p50.toFixed(1).padStart(10)}${b.p50.toFixed(1).padStart(10)}${ratio.median.toFixed(2).padStart(7)}${range.padStart(12)}` +
            `${s.rru.toFixed(1).padStart(9)}${b.rru.toFixed(1).padStart(10)}${(b.rru / s.rru).toFixed(2).padStart(7)}`,
        );
      }
    }
    console.log(`\n  Run time ${((Date.now() - started) / 1000).toFixed(0)} s (seeding included).`);
  } finally {
    await local.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
