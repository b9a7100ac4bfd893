import type { Runtime } from '../../shared/runtime';
import { itemUpgrades } from '../../shared/store/item-upgrades';
import { migrate } from '../../shared/store/migration';
import { type Options, UsageError } from './usage';

/**
 * `migrate`: brings items written by the previous version to schema 2 (shared/store/
 * migration.ts), printing progress about once a second; Ctrl-C stops after the pages in
 * progress, and the next run resumes there.
 */
export async function runMigrate(rt: Runtime, values: Options): Promise<void> {
  const segments = values.segments === undefined ? undefined : Number(values.segments);
  if (segments !== undefined && !(Number.isInteger(segments) && segments >= 1)) throw new UsageError('--segments takes a whole number from 1');
  const stop = new AbortController();
  const interrupt = () => {
    console.log('Stopping after the pages being upgraded; run migrate again to resume');
    stop.abort();
  };
  process.once('SIGINT', interrupt);
  const started = performance.now();
  const rate = (n: number) => Math.round(n / Math.max((performance.now() - started) / 1000, 0.001));
  let printed = started;
  try {
    const result = await migrate(rt.store, itemUpgrades(rt), {
      ...(segments !== undefined && { segments }),
      restart: values.restart,
      signal: stop.signal,
      onPage: (tally) => {
        if (values.json || performance.now() - printed < 1000) return;
        printed = performance.now();
        console.log(`seen ${tally.seen}, upgraded ${tally.upgraded}, skipped ${tally.skipped} (${rate(tally.seen)} items/s)`);
      },
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const summary = `seen ${result.seen}, upgraded ${result.upgraded}, skipped ${result.skipped} in ${seconds} s (${rate(result.seen)} items/s, ${result.segments} segments)`;
    // The migrated counters' quiet days are copied onto their month items by the next passes.
    if (result.completed) await rt.rollups.restart();
    const outcome = result.completed ? 'Migration complete' : 'Migration stopped; run it again to resume';
    console.log(values.json ? JSON.stringify(result, null, 2) : `${outcome}${result.resumed ? ' (resumed)' : ''}: ${summary}`);
  } finally {
    process.off('SIGINT', interrupt);
  }
}
