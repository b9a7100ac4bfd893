import { runtime } from '../shared/runtime';
import { RANK_PASS_BUDGET_MS } from '../shared/store/click-ranks';
import { COUNTED_RECOVERY_AGE_MS } from '../shared/store/counted-writes';
import { ROLLUP_PASS_BUDGET_MS } from '../shared/store/rollup-pass';
import { logger } from '../shared/telemetry';

const rt = runtime();

/**
 * Runs on a schedule: runs the timed tasks that are due, deferred campaigns among them (see
 * Scheduler.sweep), finishes counted changes a crash left unfinished (CountedWrites.recover),
 * moves the links counted since the last run in the clickCnt order (ClickRanks.apply) and
 * copies settled days onto their month items (RollupPass.run).
 */
export const handler = async () => {
  const [released, recovered, ranked, rolled] = await Promise.allSettled([
    rt.scheduler.sweep(),
    rt.counted.recover(COUNTED_RECOVERY_AGE_MS),
    rt.ranks.apply(RANK_PASS_BUDGET_MS),
    rt.rollups.run(ROLLUP_PASS_BUDGET_MS),
  ]);
  // One failing does not stop the others; a failure still fails the run, which is retried.
  if (released.status === 'rejected') throw released.reason;
  if (recovered.status === 'rejected') throw recovered.reason;
  if (ranked.status === 'rejected') throw ranked.reason;
  if (rolled.status === 'rejected') throw rolled.reason;
  if (recovered.value > 0) logger.warn('Finished counted changes a crash had left unfinished', { recovered: recovered.value });
  return { released: released.value, recovered: recovered.value, ranked: ranked.value, rolledUp: rolled.value };
};
