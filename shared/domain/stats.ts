import { DateTime, type DurationLike } from 'luxon';

/**
 * Click statistics: the buckets a click is counted in, and Link/GetStats' intervals.
 * Every bucket is wall-clock time in the account's zone, so days and months (and hours,
 * in zones such as UTC−03:30) start where the account's do.
 */

export const STATS_TYPES = ['monthly', 'daily', 'hourly', 'minute'] as const;
export type StatsType = (typeof STATS_TYPES)[number];

/** Longest interval per type (interface spec §4.5). */
const MAX_INTERVAL: Record<StatsType, DurationLike> = {
  monthly: { years: 3 },
  daily: { days: 90 },
  hourly: { weeks: 1 },
  minute: { hours: 3 },
};

const UNIT = { monthly: 'month', daily: 'day', hourly: 'hour', minute: 'minute' } as const;

/** `param` layouts: `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DD HH:00`, `YYYY-MM-DD HH:MM`. */
const PARAM_LAYOUT: Record<StatsType, string> = {
  monthly: 'yyyy-MM',
  daily: 'yyyy-MM-dd',
  hourly: "yyyy-MM-dd HH':00'",
  minute: 'yyyy-MM-dd HH:mm',
};

export function isStatsType(value: string): value is StatsType {
  return (STATS_TYPES as readonly string[]).includes(value);
}

/** The bucket of each type a click at `at` falls in, for an account in `zone`. */
export function bucketsOf(at: Date, zone: string): Record<StatsType, string> {
  const local = DateTime.fromJSDate(at).setZone(zone);
  return {
    monthly: local.toFormat(PARAM_LAYOUT.monthly),
    daily: local.toFormat(PARAM_LAYOUT.daily),
    hourly: local.toFormat(PARAM_LAYOUT.hourly),
    minute: local.toFormat(PARAM_LAYOUT.minute),
  };
}

export interface StatsInterval {
  from: Date;
  to: Date;
  /** Every bucket the interval touches, oldest first: the items' `param` values. */
  params: string[];
}

/**
 * The interface's three rules: neither end given → the last maximum interval, ending
 * now; only `from`, or a gap beyond the maximum → the maximum interval from `from`;
 * only `to` → the maximum interval ending at `to`.
 */
export function statsInterval(type: StatsType, from: Date | undefined, to: Date | undefined, now: Date, zone: string): StatsInterval {
  const max = MAX_INTERVAL[type];
  const zoned = (date: Date) => DateTime.fromJSDate(date).setZone(zone);
  let start: DateTime;
  let end: DateTime;
  if (to === undefined) {
    if (from === undefined) {
      end = zoned(now);
      start = end.minus(max);
    } else {
      start = zoned(from);
      end = start.plus(max);
    }
  } else if (from === undefined) {
    end = zoned(to);
    start = end.minus(max);
  } else if (zoned(from).plus(max) < zoned(to)) {
    start = zoned(from);
    end = start.plus(max);
  } else {
    start = zoned(from);
    end = zoned(to);
  }
  const params: string[] = [];
  const unit = UNIT[type];
  for (let bucket = start.startOf(unit); bucket <= end; bucket = bucket.plus({ [unit]: 1 })) {
    const param = bucket.toFormat(PARAM_LAYOUT[type]);
    // A wall-clock hour repeated when clocks go back is one bucket.
    if (params.at(-1) !== param) params.push(param);
  }
  return { from: start.toJSDate(), to: end.toJSDate(), params };
}
