import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../shared/store/keys';
import { BROWSER, type ClickUnits, clickUnits, createLinks, meterRanks, sumUnits } from './bench/click-units';
import { UnitMeter, type Units } from './bench/units';

/**
 * `npm run bench:units`: DynamoDB request units per API call, per click, per redirect and
 * per SMS, measured on the local runtime (dynalite reports the table's ConsumedCapacity as
 * DynamoDB does; the indexes' write units are estimated from the items written,
 * scripts/bench/index-writes.ts), and what a million of each costs on AWS at list prices.
 * Prints figures; asserts nothing.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.AUTH_CACHE_TTL_MS = '60000'; // a warm container: the key was checked a moment ago
process.env.SIMULATOR_LATENCY_MS = '10';
process.env.API_RATE_LIMIT ??= '0'; // one account makes every call, back to back: beyond its default rate
const DEMO_KEY = 'bench000000000000000000000000000000key03';
const ROUNDS = 20;
/** Links of the long-tail figure, each clicked once (BENCH_LONG_TAIL_LINKS); the hot link gets as many clicks. */
const LONG_TAIL = Number(process.env.BENCH_LONG_TAIL_LINKS ?? 10_000);

/**
 * List prices, us-east-1, as published by AWS (on-demand DynamoDB after its November 2024
 * reduction). Lambda duration is an assumption (no AWS account here to measure it on):
 * 20 ms billed per API call, 10 ms per redirect, 512 MB arm64.
 */
const PRICE = {
  lambdaRequest: 0.2 / 1e6,
  lambdaGbSecondArm: 0.0000133334,
  httpApiRequest: 1.0 / 1e6,
  cloudFrontHttpsRequest: 0.01 / 1e4,
  dynamoRead: 0.125 / 1e6,
  dynamoWrite: 0.625 / 1e6,
  sqsRequest: 0.4 / 1e6,
};
const lambda = (ms: number) => PRICE.lambdaRequest + (ms / 1000) * 0.5 * PRICE.lambdaGbSecondArm;

async function main(): Promise<void> {
  const { startLocal } = await import('../shared/local/runtime');
  const local = await startLocal({ port: 0, demoApiKey: DEMO_KEY });
  const meter = new UnitMeter(local.runtime.store, local.dynamoEndpoint);
  const ranks = meterRanks(local, meter);
  const call = async (path: string, body: Record<string, string>) => {
    const response = await fetch(`${local.baseUrl}/service/${path}?apiKey=${DEMO_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
    const envelope = (await response.json()) as { code: number; data: any; message: string };
    if (envelope.code !== 0) throw new Error(`${path} answered code ${envelope.code}: ${envelope.message} ${JSON.stringify(envelope.data)}`);
    if (path === 'Message/SendSmsMessage') lives.watch(Number(envelope.data.campaignId));
    return envelope;
  };
  const bench = {
    local,
    meter,
    createLink: async (fullLink: string) => (await call('Link/Create', { 'data[fullLink]': fullLink })).data as { id: number; code: string },
  };
  const lives = new SmsLives(local.dynamoEndpoint, local.runtime.store.tableName, local.queues);
  /**
   * Units per call of `act`, over ROUNDS calls, after one call that warms caches. An SMS's
   * life goes on after its call (the gateway's report comes later, then its campaign's
   * moves): the window opens once the warm-up's SMS has lived its whole life and closes once
   * every round's has, so each life is counted once, whole.
   */
  const measure = async (act: (round: number) => Promise<unknown>): Promise<Units> => {
    await act(-1);
    await lives.settled();
    meter.reset();
    for (let round = 0; round < ROUNDS; round++) await act(round);
    await lives.settled();
    const units = meter.get();
    return { read: units.read / ROUNDS, write: units.write / ROUNDS, indexWrite: units.indexWrite / ROUNDS };
  };
  try {
    const links: { id: number; code: string }[] = [];
    for (let i = 0; i < 10; i++) links.push(await bench.createLink(`https://example.com/${i}`));
    const sent = (await call('Message/SendSmsMessage', { recipient: '447400123450', text: 'Setup' })).data;
    await local.queues.drain();

    const rows: [string, Units, number][] = [];
    const api = async (name: string, path: string, body: (round: number) => Record<string, string>) =>
      rows.push([name, await measure((round) => call(path, body(round))), 20]);
    await api('Link/Create', 'Link/Create', (round) => ({ 'data[fullLink]': `https://example.com/n${round}` }));
    await api('Link/Get', 'Link/Get', () => ({ id: String(links[0]!.id) }));
    await api('Link/Create with a 3-word comment', 'Link/Create', (round) => ({
      'data[fullLink]': `https://example.com/c${round}`,
      'data[comment]': `Summer sale ${2000 + round}`,
    }));
    await api('Link/Update', 'Link/Update', (round) => ({ id: String(links[1]!.id), 'data[comment]': `c${round}` }));
    await call('Link/Update', { id: String(links[2]!.id), 'data[comment]': 'Summer sale 2026' });
    await api('Link/Update status (3-word comment)', 'Link/Update', (round) => ({
      id: String(links[2]!.id),
      'data[status]': String((round + 2) % 2),
    }));
    await api('Link/Update expirationDate (3-word comment)', 'Link/Update', (round) => ({
      id: String(links[2]!.id),
      'data[expirationDate]': new Date(Date.UTC(2030, 0, 10 + round)).toISOString().slice(0, 10),
    }));
    await api('Link/List (10 links, page of 10)', 'Link/List', () => ({ 'pagination[limit]': '10' }));
    await api('Link/GetStats (daily, 1 link)', 'Link/GetStats', () => ({ 'ids[]': String(links[0]!.id), type: 'daily' }));
    await api('Link/GetLinks', 'Link/GetLinks', () => ({ campaignId: String(sent.campaignId) }));
    await api('Message/GetSMSStatus (1 id)', 'Message/GetSMSStatus', () => ({ ids: String(sent.messageId) }));
    await api('Message/List (few messages)', 'Message/List', () => ({}));
    await api('Message/SendSmsMessage + delivery', 'Message/SendSmsMessage', (round) => ({ recipient: '447400123450', text: `Code ${round}` }));
    await api('  the same with one link shortened', 'Message/SendSmsMessage', (round) => ({
      recipient: '447400123450',
      text: `Code ${round}: https://example.com/sms/${round}`,
      'params[shortenLinks]': '1',
    }));
    const doomed: { id: number }[] = [];
    for (let i = 0; i <= ROUNDS; i++) doomed.push(await bench.createLink(`https://example.com/d${i}`));
    await api('Link/Delete', 'Link/Delete', (round) => ({ ids: String(doomed[round + 1]!.id) }));

    // Redirects that miss the cache: each round a code not read before; the clicks wait.
    const fresh: { code: string }[] = [];
    for (let i = 0; i <= ROUNDS; i++) fresh.push(await bench.createLink(`https://example.com/r${i}`));
    await local.queues.drain();
    await local.queues.queues.clicks.stop();
    const redirectMiss = await measure((round) =>
      fetch(`${local.baseUrl}/${fresh[round + 1]!.code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } }),
    );
    await local.queues.queues.clicks.drain();

    // Clicks as SMS links get them (one click per link in a batch), then on one hot link.
    const made = performance.now();
    const longTailCodes = await createLinks(bench, LONG_TAIL, 'tail');
    const madeSeconds = (performance.now() - made) / 1000;
    const longTail = await clickUnits(bench, longTailCodes, 1, ranks);
    const hot = await clickUnits(bench, [(await bench.createLink('https://example.com/hot')).code], LONG_TAIL, ranks);

    printTable(rows, redirectMiss, longTail, hot);
    console.log(`  (${LONG_TAIL} long-tail links seeded in ${madeSeconds.toFixed(0)} s, not measured)`);
  } finally {
    meter.close();
    await local.close();
  }
}

/**
 * The SMS sent during a bench, followed until each campaign is DONE (its message reported
 * final and the campaign moved after it), read through a client of its own so that the
 * waiting costs nothing on the meter.
 */
class SmsLives {
  readonly #reader: DynamoDBDocumentClient;
  readonly #pending = new Set<number>();

  constructor(
    endpoint: string,
    private readonly tableName: string,
    private readonly queues: { drain(): Promise<void> },
  ) {
    const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    this.#reader = DynamoDBDocumentClient.from(client);
  }

  watch(campaignId: number): void {
    this.#pending.add(campaignId);
  }

  /** Resolves once every SMS watched so far has lived its whole life and the queues are empty. */
  async settled(timeoutMs = 60_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (true) {
      await this.queues.drain();
      for (const id of [...this.#pending]) {
        const { Item } = await this.#reader.send(new GetCommand({ TableName: this.tableName, Key: keys.campaign(id), ConsistentRead: true }));
        if (Item?.status === 'DONE') this.#pending.delete(id);
      }
      if (this.#pending.size === 0) return this.queues.drain();
      if (Date.now() > until) throw new Error(`campaigns ${[...this.#pending].join(', ')} not DONE after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const dollarsPerMillion = (units: Units) => (units.read * PRICE.dynamoRead + (units.write + units.indexWrite) * PRICE.dynamoWrite) * 1e6;
const fixed = (value: number, width: number, digits = 2) => value.toFixed(digits).padStart(width);

function printTable(rows: [string, Units, number][], redirectMiss: Units, longTail: ClickUnits, hot: ClickUnits): void {
  console.log('\nbench:units');
  console.log(`  DynamoDB request units per call (mean of ${ROUNDS}, warm container), and cost per million at us-east-1 list prices;`);
  console.log("  WRU is the table's (as DynamoDB reports it), index WRU what the writes add to the indexes (estimated from the items)");
  const header = `  ${'call'.padEnd(40)}${'RRU'.padStart(7)}${'WRU'.padStart(7)}${'index'.padStart(7)}${'$/million'.padStart(12)}`;
  const line = (name: string, units: Units, dollars: number, digits = 2) =>
    console.log(
      `  ${name.padEnd(40)}${fixed(units.read, 7, digits)}${fixed(units.write, 7, digits)}${fixed(units.indexWrite, 7, digits)}${fixed(dollars, 12)}`,
    );
  console.log(header);
  const costs = new Map<string, number>();
  for (const [name, measured, ms] of rows) {
    // An SMS also pays its queue's send, receive and delete, and the worker's and the report's invocations.
    const extra = name.startsWith('Message/SendSmsMessage') || name.startsWith('  the same') ? 3 * PRICE.sqsRequest + 2 * lambda(20) : 0;
    const dollars = (PRICE.httpApiRequest + lambda(ms) + extra) * 1e6 + dollarsPerMillion(measured);
    costs.set(name, dollars);
    line(name, measured, dollars);
  }

  // A click: its SQS send; the event source mapping's receive and delete (ten messages a
  // request at most, whatever the batch size), so a tenth of each; its share of the batch's writes.
  const click = (units: Units) => (PRICE.sqsRequest + (2 / 10) * PRICE.sqsRequest) * 1e6 + dollarsPerMillion(units);
  const redirect = (read: number) => (PRICE.cloudFrontHttpsRequest + lambda(10) + read * PRICE.dynamoRead) * 1e6;
  const tailTotal = sumUnits(longTail.aggregation, longTail.rank);
  const hotTotal = sumUnits(hot.aggregation, hot.rank);
  console.log(`\n  per click, counted (${longTail.clicks} clicks in batches of 1,000; $ per million clicks: SQS and DynamoDB)`);
  console.log(header.replace('call'.padEnd(40), 'click'.padEnd(40)));
  line(`long-tail (${longTail.links} links, one click each)`, longTail.aggregation, click(longTail.aggregation), 3);
  if (longTail.rank) {
    line('  its rank pass (clickCnt order)', longTail.rank, dollarsPerMillion(longTail.rank), 3);
    line('  long-tail in all', tailTotal, click(tailTotal), 3);
  }
  line('hot link (one link)', hot.aggregation, click(hot.aggregation), 3);
  if (hot.rank) line('  its rank pass (clickCnt order)', hot.rank, dollarsPerMillion(hot.rank), 3);
  const warmHot = sumUnits(hotTotal);
  const missTail = sumUnits(redirectMiss, tailTotal);
  line('redirect, warm cache, hot link click', warmHot, redirect(0) + click(hotTotal), 3);
  line('redirect, cache miss, long-tail click', missTail, redirect(redirectMiss.read) + click(tailTotal), 3);
  const smsWithLink = costs.get('  the same with one link shortened') ?? NaN;
  const smsClicks = 2 * (redirect(redirectMiss.read) + click(tailTotal));
  const wru = (units: Units) => units.write + units.indexWrite;
  console.log(
    `\n  per click, long-tail (one click per link): ${wru(longTail.aggregation).toFixed(3)} WRU (table ${longTail.aggregation.write.toFixed(3)} + index ${longTail.aggregation.indexWrite.toFixed(3)}; target ≤ 1.5)`,
  );
  console.log(
    longTail.rank
      ? `  per click, rank pass after the long-tail clicks: ${wru(longTail.rank).toFixed(3)} WRU, ${longTail.rank.read.toFixed(3)} RRU; in all ${wru(tailTotal).toFixed(3)} WRU`
      : '  per click, rank pass: none in this runtime (the aggregator keeps the clickCnt order itself, in the figure above)',
  );
  console.log(
    `  per click, hot link (${hot.clicks} clicks on one link): ${wru(hot.aggregation).toFixed(4)} WRU (table ${hot.aggregation.write.toFixed(4)} + index ${hot.aggregation.indexWrite.toFixed(4)}; target ≤ 0.05)${hot.rank ? `; with its rank pass ${wru(hotTotal).toFixed(4)}` : ''}`,
  );
  console.log(
    `  per million SMS, one link each and two clicks on it: $${(smsWithLink + smsClicks).toFixed(2)} (the SMS with its link $${smsWithLink.toFixed(2)}, its two redirects and clicks $${smsClicks.toFixed(2)})`,
  );
  console.log('  Assumed: Lambda arm64 512 MB, 20 ms per API call and per SMS step, 10 ms per redirect; a redirect sends its click to SQS,');
  console.log("  received and deleted ten a request, counted in batches of 1,000 (the aggregator's Lambda time is left out); an SMS adds");
  console.log('  the send queue and two more invocations. Data transfer and CloudWatch not included.');
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
