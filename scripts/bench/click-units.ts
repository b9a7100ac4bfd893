import type { LocalService } from '../../shared/local/runtime';
import { seedLinks } from './seed-links';
import { noUnits, type UnitMeter, type Units } from './units';

/** The rank pass of Link/List's clickCnt order, where the runtime has one (`ranks.apply()`). */
interface Ranks {
  apply(): Promise<unknown>;
}

export interface ClickUnits {
  clicks: number;
  links: number;
  /** Per click: the aggregator's units (claims, counters, markers). */
  aggregation: Units;
  /** Per click: the rank pass's units, when the runtime has one. */
  rank: Units | undefined;
}

/** What redirects and Link/Create need: the service and a fetch that checks answers. */
export interface ClickBench {
  local: LocalService;
  meter: UnitMeter;
  createLink(fullLink: string): Promise<{ id: number; code: string }>;
}

const RANK = 'rank';
/** A browser's User-Agent: the redirect counts other agents as bots, in neither clicks nor buckets. */
export const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0';

/**
 * Counts the rank pass's units apart wherever it runs (the local sweep runs it too), by
 * running the runtime's `ranks.apply()` under a label of its own. Returns the pass, or
 * undefined when the runtime has none.
 */
export function meterRanks(local: LocalService, meter: UnitMeter): Ranks | undefined {
  const ranks = (local.runtime as { ranks?: Ranks }).ranks;
  if (!ranks || typeof ranks.apply !== 'function') return undefined;
  const apply = ranks.apply.bind(ranks);
  ranks.apply = () => meter.labelled(RANK, apply);
  return ranks;
}

/**
 * Units per click of `clicksPerCode` clicks on each of `codes`, made by real redirects
 * (so the queue carries what the redirect sends), then counted by the click aggregator in
 * the local queue's batches (1,000 clicks, as the stack's event source mapping), then the
 * rank pass. The clicks consumer is off while the redirects run, so the batches are full.
 */
export async function clickUnits(bench: ClickBench, codes: string[], clicksPerCode: number, ranks: Ranks | undefined): Promise<ClickUnits> {
  const { local, meter } = bench;
  const queue = local.queues.queues.clicks;
  const { handler } = await import('../../functions/click-aggregator');
  await queue.stop();
  meter.on = false;
  const requests = codes.flatMap((code) => Array.from({ length: clicksPerCode }, () => code));
  await inParallel(requests, 16, async (code) => {
    const response = await fetch(`${local.baseUrl}/${code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });
    await response.arrayBuffer();
    if (response.status !== 302) throw new Error(`/${code} answered ${response.status}`);
  });
  meter.on = true;
  meter.reset();
  queue.consume(handler as never);
  await local.queues.drain();
  await queue.stop();
  if (ranks) await ranks.apply();
  const clicks = requests.length;
  const per = (units: Units): Units => ({ read: units.read / clicks, write: units.write / clicks, indexWrite: units.indexWrite / clicks });
  const aggregation = per(meter.get());
  const rank = ranks ? per(meter.get(RANK)) : undefined;
  queue.consume(handler as never);
  return { clicks, links: codes.length, aggregation, rank };
}

/** Seeds `count` links of the demo account (scripts/bench/seed-links.ts), unmetered. */
export async function createLinks(bench: ClickBench, count: number, prefix: string): Promise<string[]> {
  bench.meter.on = false;
  try {
    const links = await seedLinks(bench.local.runtime.store, bench.local.demo.accountId, count, prefix);
    return links.map((link) => link.code);
  } finally {
    bench.meter.on = true;
  }
}

export function sumUnits(...all: (Units | undefined)[]): Units {
  const sum = noUnits();
  for (const units of all) {
    if (!units) continue;
    sum.read += units.read;
    sum.write += units.write;
    sum.indexWrite += units.indexWrite;
  }
  return sum;
}

async function inParallel<T>(items: T[], width: number, act: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await act(items[next++]!);
  };
  await Promise.all(Array.from({ length: width }, worker));
}
