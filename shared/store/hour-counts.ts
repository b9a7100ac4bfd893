import type { CountedWrites } from './counted-writes';

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
  /** Counts [from, to] inside one hour (a part of it), from the caller's index. */
  countEdge: (from: Date, to: Date) => Promise<number>;
  /**
   * The same counts a cell per day on per-month items of the partition, when every item
   * counted is in them: whole days of a range longer than a week come from those.
   */
  months?: MonthCells;
}

export interface MonthCells {
  /** The sk of a month's counter item: one fixed prefix and the month, so months sort as their items do. */
  monthSk: (month: string /* YYYY-MM */) => string;
  /** The cells of one day of the month to add up. */
  cells: (day: string /* '01'..'31' */) => string[];
}

/** A range of whole days longer than this reads the month items (one of about 2 KB holds a month's days). */
const DAYS_FROM_DAY_ITEMS = 7;
const DAY_MS = 24 * HOUR_MS;

/**
 * Count of items created (or sent, or updated) in [from, to] (instants, inclusive, to the
 * millisecond; either may be absent): whole UTC hours from hourly cells on per-day counter
 * items (one Query over the days; over more than a week, with `months`, whole days from the
 * per-month items instead, one Query over the months, and the edge days' items by key),
 * partial hours at the edges from `countEdge` (the caller counts those from its index: at
 * most two reads, each within one hour).
 */
export async function countByHours(counted: CountedWrites, args: HourCountArgs): Promise<number> {
  const { from, to } = args;
  if (from && to && from.getTime() > to.getTime()) return 0;
  // Within one hour and not the whole of it: the edge alone.
  if (from && to && hourStart(from.getTime()) === hourStart(to.getTime()) && !(isHourStart(from) && isHourEnd(to))) {
    return args.countEdge(from, to);
  }
  // Whole hours are [wholeFrom, wholeTo) (undefined: open); the rest of from's hour and of
  // to's hour are the edges.
  const wholeFrom = from && (isHourStart(from) ? from.getTime() : hourStart(from.getTime()) + HOUR_MS);
  const wholeTo = to && (isHourEnd(to) ? to.getTime() + 1 : hourStart(to.getTime()));
  const parts: Promise<number>[] = [];
  if (wholeFrom === undefined || wholeTo === undefined || wholeFrom < wholeTo) parts.push(wholeHours(counted, args, wholeFrom, wholeTo));
  if (from && wholeFrom !== undefined && !isHourStart(from)) parts.push(args.countEdge(from, new Date(wholeFrom - 1)));
  if (to && wholeTo !== undefined && !isHourEnd(to)) parts.push(args.countEdge(new Date(wholeTo), to));
  return (await Promise.all(parts)).reduce((sum, part) => sum + part, 0);
}

const hourStart = (instant: number) => Math.floor(instant / HOUR_MS) * HOUR_MS;
const isHourStart = (instant: Date) => instant.getTime() % HOUR_MS === 0;
const isHourEnd = (instant: Date) => (instant.getTime() + 1) % HOUR_MS === 0;

async function wholeHours(counted: CountedWrites, args: HourCountArgs, wholeFrom?: number, wholeTo?: number): Promise<number> {
  const first = wholeFrom === undefined ? { day: FIRST_DAY, hour: 0 } : hourOf(wholeFrom);
  const last = wholeTo === undefined ? { day: LAST_DAY, hour: 23 } : hourOf(wholeTo - 1);
  if (args.months && daysBetween(first.day, last.day) > DAYS_FROM_DAY_ITEMS) return byMonths(counted, args, args.months, first, last);
  const firstSk = args.daySk(first.day);
  const lastSk = args.daySk(last.day);
  let total = 0;
  for (const { sk, cells } of await counted.readRange(args.pk, firstSk, lastSk)) {
    // Edge days count from or up to their edge hour; days between, every hour.
    const fromHour = sk === firstSk ? first.hour : 0;
    const toHour = sk === lastSk ? last.hour : 23;
    for (let hour = fromHour; hour <= toHour; hour++) {
      for (const cell of args.cells(String(hour).padStart(2, '0'))) total += cells[cell] ?? 0;
    }
  }
  return total;
}

type Hour = { day: string; hour: number };

/** Whole hours from `first` to `last` (more than a week apart): the edge days' hours from their items, the days between from the month items. */
async function byMonths(counted: CountedWrites, args: HourCountArgs, months: MonthCells, first: Hour, last: Hour): Promise<number> {
  // An edge day counted whole is left to the month items.
  const partial = [
    first.hour > 0 && { day: first.day, from: first.hour, to: 23 },
    last.hour < 23 && { day: last.day, from: 0, to: last.hour },
  ].filter((edge) => edge !== false);
  const fromDay = first.hour > 0 ? nextDay(first.day, 1) : first.day;
  const toDay = last.hour < 23 ? nextDay(last.day, -1) : last.day;
  const [edgeItems, monthItems] = await Promise.all([
    counted.read(partial.map(({ day }) => ({ pk: args.pk, sk: args.daySk(day) }))),
    counted.readRange(args.pk, months.monthSk(fromDay.slice(0, 7)), months.monthSk(toDay.slice(0, 7))),
  ]);
  let total = 0;
  for (const [i, { from, to }] of partial.entries()) {
    for (let hour = from; hour <= to; hour++) for (const cell of args.cells(String(hour).padStart(2, '0'))) total += edgeItems[i]?.[cell] ?? 0;
  }
  const prefix = months.monthSk('').length;
  for (const { sk, cells } of monthItems) {
    const month = sk.slice(prefix);
    for (let date = 1; date <= 31; date++) {
      const dd = String(date).padStart(2, '0');
      const day = `${month}-${dd}`;
      if (day < fromDay || day > toDay) continue;
      for (const cell of months.cells(dd)) total += cells[cell] ?? 0;
    }
  }
  return total;
}

/** Days from `a` to `b` (YYYY-MM-DD), the open bounds' far days included. */
function daysBetween(a: string, b: string): number {
  if (a === FIRST_DAY || b === LAST_DAY) return Infinity;
  return (Date.parse(b) - Date.parse(a)) / DAY_MS;
}

/** The day `by` days after `day`; the open bounds stay where they are. */
function nextDay(day: string, by: number): string {
  if (day === FIRST_DAY || day === LAST_DAY) return day;
  return new Date(Date.parse(day) + by * DAY_MS).toISOString().slice(0, 10);
}

function hourOf(instant: number): { day: string; hour: number } {
  const date = new Date(instant);
  return { day: date.toISOString().slice(0, 10), hour: date.getUTCHours() };
}
