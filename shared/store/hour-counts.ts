import type { CountedWrites } from './counted-writes';
import { dayBefore, nextDay } from './day-rollups';

const HOUR_MS = 60 * 60_000;
/** Day bounds for an open range: every `YYYY-MM-DD` sorts between them. */
const FIRST_DAY = '0000-00-00';
const LAST_DAY = '9999-99-99';

export interface HourCountArgs {
  /** The counter items' partition. */
  pk: string;
  /** The sk of a day's counter item: one fixed prefix and the day, so days sort as their items do. */
  daySk: (day: string /* YYYY-MM-DD */) => string;
  /** The cells of one UTC hour to add up. */
  cells: (hour: string /* '00'..'23' */) => string[];
  from?: Date;
  to?: Date;
  /** Counts [from, to] inside one hour (a part of it), from the caller's index: what the hour's cells count, for that part. */
  countEdge: (from: Date, to: Date) => Promise<number>;
}

/**
 * Count of items created (or sent, or updated) in [from, to] (instants, inclusive, to the
 * millisecond; either may be absent): whole UTC hours from hourly cells on per-day counter
 * items (one Query over the days), partial hours at the edges from `countEdge` (the caller
 * counts those from its index: at most two reads, each within one hour), or as the hour's
 * cells less the rest of the hour, whichever part spans less time that has passed: a range
 * "until now" then reads the rest of its last hour, which holds nothing yet, not the hour
 * so far, and an edge late in a busy hour reads the hour's shorter side.
 */
export async function countByHours(counted: CountedWrites, args: HourCountArgs): Promise<number> {
  const { from, to } = args;
  if (from && to && from.getTime() > to.getTime()) return 0;
  // Within one hour and not the whole of it: the edge alone.
  if (from && to && hourStart(from.getTime()) === hourStart(to.getTime()) && !(isHourStart(from) && isHourEnd(to))) {
    return edgeCount(counted, args, from, to);
  }
  // Whole hours are [wholeFrom, wholeTo) (undefined: open); the rest of from's hour and of
  // to's hour are the edges.
  const wholeFrom = from && (isHourStart(from) ? from.getTime() : hourStart(from.getTime()) + HOUR_MS);
  const wholeTo = to && (isHourEnd(to) ? to.getTime() + 1 : hourStart(to.getTime()));
  const parts: Promise<number>[] = [];
  if (wholeFrom === undefined || wholeTo === undefined || wholeFrom < wholeTo) parts.push(wholeHours(counted, args, wholeFrom, wholeTo));
  if (from && wholeFrom !== undefined && !isHourStart(from)) parts.push(edgeCount(counted, args, from, new Date(wholeFrom - 1)));
  if (to && wholeTo !== undefined && !isHourEnd(to)) parts.push(edgeCount(counted, args, new Date(wholeTo), to));
  return (await Promise.all(parts)).reduce((sum, part) => sum + part, 0);
}

/**
 * Part of one hour: counted by `countEdge`, or as the hour's cells (its day item, one read)
 * less the rest of the hour counted by `countEdge`, when that rest spans less time that has
 * passed (exact either way: the cells count what the edges do).
 */
async function edgeCount(counted: CountedWrites, args: HourCountArgs, from: Date, to: Date): Promise<number> {
  const start = hourStart(from.getTime());
  const end = start + HOUR_MS - 1;
  const now = counted.now().getTime();
  const passed = (a: number, b: number) => Math.max(0, Math.min(b, now) - a + 1);
  const rest: [number, number][] = [];
  if (from.getTime() > start) rest.push([start, from.getTime() - 1]);
  if (to.getTime() < end) rest.push([to.getTime() + 1, end]);
  if (rest.reduce((sum, [a, b]) => sum + passed(a, b), 0) >= passed(from.getTime(), to.getTime())) return args.countEdge(from, to);
  const { day, hour } = hourOf(start);
  const hourCells = async () => {
    const [cells = {}] = await counted.read([{ pk: args.pk, sk: args.daySk(day) }]);
    return args.cells(String(hour).padStart(2, '0')).reduce((sum, name) => sum + (cells[name] ?? 0), 0);
  };
  const [cell = 0, ...others] = await Promise.all([hourCells(), ...rest.map(([a, b]) => args.countEdge(new Date(a), new Date(b)))]);
  return others.reduce((left, other) => left - other, cell);
}

const hourStart = (instant: number) => Math.floor(instant / HOUR_MS) * HOUR_MS;
const isHourStart = (instant: Date) => instant.getTime() % HOUR_MS === 0;
const isHourEnd = (instant: Date) => (instant.getTime() + 1) % HOUR_MS === 0;

/** A range with at least this many settled whole days counts them from the month roll-ups (day-rollups.ts). */
const ROLLUP_MIN_DAYS = 8;

async function wholeHours(counted: CountedWrites, args: HourCountArgs, wholeFrom?: number, wholeTo?: number): Promise<number> {
  const first = wholeFrom === undefined ? { day: FIRST_DAY, hour: 0 } : hourOf(wholeFrom);
  const last = wholeTo === undefined ? { day: LAST_DAY, hour: 23 } : hourOf(wholeTo - 1);
  // A busy account's day item holds a cell per hour and status (or flags) seen: only the asked-for cells are sent.
  const hours = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));
  const only = [...new Set(hours.flatMap((hour) => args.cells(hour)))];
  let total = 0;
  let spans: [string, string][] = [[first.day, last.day]];
  if (first.day < last.day) {
    // The range's whole days, settled ones from the month roll-ups; the edge days and the recent ones from their items.
    const wholeDaysFrom = first.hour === 0 ? first.day : nextDay(first.day);
    const wholeDaysTo = last.hour === 23 ? last.day : dayBefore(last.day);
    const rests = [...new Set(only.map((cell) => cell.slice(3)))];
    const rolled = await counted.countSettledDays(args.pk, args.daySk(''), wholeDaysFrom, wholeDaysTo, rests, ROLLUP_MIN_DAYS);
    if (rolled) {
      total += rolled.total;
      spans = [];
      if (first.day < wholeDaysFrom) spans.push([first.day, first.day]);
      if (rolled.through < last.day) spans.push([nextDay(rolled.through), last.day]);
    }
  }
  const days = await Promise.all(spans.map(([from, to]) => counted.readRange(args.pk, args.daySk(from), args.daySk(to), only)));
  for (const { sk, cells } of days.flat()) {
    // Edge days count from or up to their edge hour; days between, every hour.
    const fromHour = sk === args.daySk(first.day) ? first.hour : 0;
    const toHour = sk === args.daySk(last.day) ? last.hour : 23;
    for (let hour = fromHour; hour <= toHour; hour++) {
      for (const cell of args.cells(String(hour).padStart(2, '0'))) total += cells[cell] ?? 0;
    }
  }
  return total;
}

function hourOf(instant: number): { day: string; hour: number } {
  const date = new Date(instant);
  return { day: date.toISOString().slice(0, 10), hour: date.getUTCHours() };
}
