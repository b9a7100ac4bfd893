import type { ScheduledTask } from './campaigns';
import { type Clock, utcMinuteOf } from './time';

/** The minute-partitioned schedule in the table; shared/store/schedule-repo.ts implements it. */
export interface ScheduleStore {
  /** Records a task under the minute it is due in (`2026-11-22T10:05`). */
  schedule(minute: string, task: ScheduledTask): Promise<void>;
  /** The tasks due in one minute. */
  dueIn(minute: string): Promise<ScheduledTask[]>;
  unschedule(minute: string, task: ScheduledTask): Promise<void>;
  /** The last minute whose tasks were all handled. */
  sweptUntil(): Promise<string | undefined>;
  setSweptUntil(minute: string): Promise<void>;
}

export type TaskKind = ScheduledTask['kind'];
export type TaskOf<K extends TaskKind> = Extract<ScheduledTask, { kind: K }>;

/**
 * What a handler made of its task: `later` leaves it for the next sweep (it waits on
 * something still to happen); `done` removes it; `released` removes it too and counts a
 * deferred campaign sent on its way.
 */
export type TaskOutcome = 'later' | 'done' | 'released';
export type TaskHandler<K extends TaskKind> = (task: TaskOf<K>, now: Date) => Promise<TaskOutcome>;
export type TaskHandlers = { [K in TaskKind]?: TaskHandler<K> };

/** How far back a sweep looks after downtime. */
export const SWEEP_LOOKBACK_MS = 24 * 60 * 60_000;
const FIRST_SWEEP_LOOKBACK_MS = 60 * 60_000;

/**
 * Runs timed tasks once they are due: deferred sends, recovery checks of hand-offs,
 * expiries and webhook tries, each by the handler of its kind. A task is removed only
 * after its handler is done, so a sweep stopped at any instant leaves it for the next one;
 * handlers are written so that running one twice does no harm.
 */
export class Scheduler {
  constructor(
    private readonly deps: {
      schedule: ScheduleStore;
      clock: Clock;
      handlers: TaskHandlers;
    },
  ) {}

  /**
   * Handles the tasks that are due: one read per minute since the last sweep (never a
   * scan), so tasks due while the service was down run when it is back. Runs every 20 s
   * locally, every minute on AWS. Returns how many deferred campaigns it released.
   */
  async sweep(): Promise<number> {
    const { schedule } = this.deps;
    const now = this.deps.clock();
    const currentMinute = utcMinuteOf(now);
    const swept = await schedule.sweptUntil();
    // Catch-up reaches back at most SWEEP_LOOKBACK_MS: a task due longer ago than that
    // (the service was down for weeks) is left alone rather than run so late.
    // A table never swept (a fresh install) reaches back an hour: its tasks were all written
    // ahead of their time, minutes before the first sweep at the latest.
    const earliest = utcMinuteOf(new Date(now.getTime() - (swept ? SWEEP_LOOKBACK_MS : FIRST_SWEEP_LOOKBACK_MS)));
    let minute = swept && nextMinute(swept) > earliest ? nextMinute(swept) : earliest;
    let released = 0;
    for (; minute <= currentMinute; minute = nextMinute(minute)) {
      for (const task of await schedule.dueIn(minute)) {
        const outcome = await this.#run(task, now);
        if (outcome === 'later') continue;
        await schedule.unschedule(minute, task);
        if (outcome === 'released') released++;
      }
    }
    // The current minute may still hold tasks due later in it: it is swept again next time.
    await schedule.setSweptUntil(previousMinute(currentMinute));
    return released;
  }

  #run(task: ScheduledTask, now: Date): Promise<TaskOutcome> {
    // A task of a kind nobody handles here stays in the table, untouched.
    // (The handler of a task's kind takes that kind of task: TypeScript cannot follow the pairing.)
    const handler = this.deps.handlers[task.kind] as TaskHandler<TaskKind> | undefined;
    if (!handler) return Promise.resolve('later');
    if ('at' in task && Date.parse(task.at) > now.getTime()) return Promise.resolve('later'); // later this minute
    return handler(task, now);
  }
}

function nextMinute(minute: string): string {
  return utcMinuteOf(new Date(Date.parse(`${minute}:00Z`) + 60_000));
}

function previousMinute(minute: string): string {
  return utcMinuteOf(new Date(Date.parse(`${minute}:00Z`) - 60_000));
}
