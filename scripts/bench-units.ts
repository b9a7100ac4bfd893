import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';

/**
 * `npm run bench:units`: DynamoDB request units per API call, per redirect and per SMS,
 * measured on the local runtime (dynalite reports ConsumedCapacity as DynamoDB does), and
 * what a million of each costs on AWS at list prices. Prints figures; asserts nothing.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.AUTH_CACHE_TTL_MS = '60000'; // a warm container: the key was checked a moment ago
process.env.SIMULATOR_LATENCY_MS = '10';
process.env.API_RATE_LIMIT ??= '0'; // one account makes every call, back to back: beyond its default rate
const DEMO_KEY = 'bench000000000000000000000000000000key03';
const ROUNDS = 20;

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
  const units = { read: 0, write: 0 };
  local.runtime.store.db.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
      const isWrite = /Put|Update|Delete|Write/.test(context.commandName ?? '');
      for (const capacity of [consumed ?? []].flat()) units[isWrite ? 'write' : 'read'] += capacity.CapacityUnits ?? 0;
      return result;
    },
    { step: 'initialize', name: 'consumedCapacity' },
  );
  const call = async (path: string, body: Record<string, string>) => {
    const response = await fetch(`${local.baseUrl}/service/${path}?apiKey=${DEMO_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
    const envelope = (await response.json()) as { code: number; data: any; message: string };
    if (envelope.code !== 0) throw new Error(`${path} answered code ${envelope.code}: ${envelope.message} ${JSON.stringify(envelope.data)}`);
    return envelope;
  };
  /** Units per call of `act`, over ROUNDS calls, after one call that warms caches. */
  const measure = async (act: (round: number) => Promise<unknown>) => {
    await act(-1);
    await local.queues.drain();
    Object.assign(units, { read: 0, write: 0 });
    for (let round = 0; round < ROUNDS; round++) await act(round);
    await local.queues.drain();
    return { read: units.read / ROUNDS, write: units.write / ROUNDS };
  };
  try {
    const links: { id: number; code: string }[] = [];
    for (let i = 0; i < 10; i++) links.push((await call('Link/Create', { 'data[fullLink]': `https://example.com/${i}` })).data);
    const sent = (await call('Message/SendSmsMessage', { recipient: '447400123450', text: 'Setup' })).data;
    await local.queues.drain();

    const rows: [string, { read: number; write: number }, number][] = [];
    const api = async (name: string, path: string, body: (round: number) => Record<string, string>) =>
      rows.push([name, await measure((round) => call(path, body(round))), 20]);
    await api('Link/Create', 'Link/Create', (round) => ({ 'data[fullLink]': `https://example.com/n${round}` }));
    await api('Link/Get', 'Link/Get', () => ({ id: String(links[0]!.id) }));
    await api('Link/Update', 'Link/Update', (round) => ({ id: String(links[1]!.id), 'data[comment]': `c${round}` }));
    await api('Link/List (10 links, page of 10)', 'Link/List', () => ({ 'pagination[limit]': '10' }));
    await api('Link/GetStats (daily, 1 link)', 'Link/GetStats', () => ({ 'ids[]': String(links[0]!.id), type: 'daily' }));
    await api('Link/GetLinks', 'Link/GetLinks', () => ({ campaignId: String(sent.campaignId) }));
    await api('Message/GetSMSStatus (1 id)', 'Message/GetSMSStatus', () => ({ ids: String(sent.messageId) }));
    await api('Message/List (few messages)', 'Message/List', () => ({}));
    await api('Message/SendSmsMessage + delivery', 'Message/SendSmsMessage', (round) => ({ recipient: '447400123450', text: `Code ${round}` }));
    const doomed: { id: number }[] = [];
    for (let i = 0; i <= ROUNDS; i++) doomed.push((await call('Link/Create', { 'data[fullLink]': `https://example.com/d${i}` })).data);
    await api('Link/Delete', 'Link/Delete', (round) => ({ ids: String(doomed[round + 1]!.id) }));

    // Redirects that miss the cache: each round a code not read before.
    const fresh: { code: string }[] = [];
    for (let i = 0; i <= ROUNDS; i++) fresh.push((await call('Link/Create', { 'data[fullLink]': `https://example.com/r${i}` })).data);
    await local.queues.drain();
    await local.queues.queues.clicks.stop(); // the aggregator's writes are counted apart (bench:redirect)
    const redirectMiss = await measure((round) => fetch(`${local.baseUrl}/${fresh[round + 1]!.code}`, { redirect: 'manual' }));

    console.log('\nbench:units');
    console.log(`  DynamoDB request units per call (mean of ${ROUNDS}, warm container), and cost per million at us-east-1 list prices`);
    console.log(`  ${'call'.padEnd(38)}${'RRU'.padStart(7)}${'WRU'.padStart(7)}${'$/million'.padStart(12)}`);
    for (const [name, measured, ms] of rows) {
      const extraWrites = name.startsWith('Message/SendSmsMessage') ? 3 * PRICE.sqsRequest + 2 * lambda(20) : 0; // queue send/receive/delete, worker and report
      const cost = PRICE.httpApiRequest + lambda(ms) + measured.read * PRICE.dynamoRead + measured.write * PRICE.dynamoWrite + extraWrites;
      console.log(
        `  ${name.padEnd(38)}${measured.read.toFixed(2).padStart(7)}${measured.write.toFixed(2).padStart(7)}${(cost * 1e6).toFixed(2).padStart(12)}`,
      );
    }
    const redirectCost = (read: number) =>
      PRICE.cloudFrontHttpsRequest +
      lambda(10) +
      read * PRICE.dynamoRead +
      PRICE.sqsRequest +
      0.02 * PRICE.dynamoWrite +
      (2 / 1000) * PRICE.sqsRequest;
    console.log(
      `  ${'redirect, warm cache (+ its click)'.padEnd(38)}${'0.00'.padStart(7)}${'0.02'.padStart(7)}${(redirectCost(0) * 1e6).toFixed(2).padStart(12)}`,
    );
    console.log(
      `  ${'redirect, cache miss (+ its click)'.padEnd(38)}${redirectMiss.read.toFixed(2).padStart(7)}${'0.02'.padStart(7)}${(redirectCost(redirectMiss.read) * 1e6).toFixed(2).padStart(12)}`,
    );
    console.log('  Assumed: Lambda arm64 512 MB, 20 ms per API call and per SMS step, 10 ms per redirect; a click costs one SQS send and');
    console.log('  0.02 WRU after aggregation (bench:redirect); an SMS adds the send queue and two more invocations. Data transfer not included.');
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
