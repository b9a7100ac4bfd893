import { DateTime, IANAZone } from 'luxon';

/**
 * The one place that reads and writes the API's time layouts. Storage is UTC ISO-8601;
 * every time a client sees or sends is wall-clock time in the account's IANA zone.
 */

export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/** Responses: `YYYY-MM-DD HH-MM-SS` (hyphens in the time part, as the interface fixes). */
const RESPONSE_LAYOUT = 'yyyy-MM-dd HH-mm-ss';
/** Requests: `YYYY-MM-DD HH:MM:SS`. */
const REQUEST_LAYOUT = 'yyyy-MM-dd HH:mm:ss';
const DATE_LAYOUT = 'yyyy-MM-dd';

const REQUEST_TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export function isValidTimeZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

export function formatResponseTs(instant: Date | string, zone: string): string {
  return toZoned(instant, zone).toFormat(RESPONSE_LAYOUT);
}

/** `YYYY-MM-DD HH:MM:SS`, the layout of request filters and of webhook payloads. */
export function formatRequestTs(instant: Date | string, zone: string): string {
  return toZoned(instant, zone).toFormat(REQUEST_LAYOUT);
}

/** Today's calendar date in `zone`, `YYYY-MM-DD`. */
export function localDate(instant: Date, zone: string): string {
  return toZoned(instant, zone).toFormat(DATE_LAYOUT);
}

export function isCalendarDate(value: string): boolean {
  return DATE_ONLY.test(value) && DateTime.fromFormat(value, DATE_LAYOUT, { zone: 'UTC' }).isValid;
}

/**
 * Parses a request time (`YYYY-MM-DD HH:MM:SS`, or a bare date where allowed) in the
 * account's zone. A bare date means the start of that day, or its last millisecond when
 * `bareDateAs` is 'endOfDay'. Returns undefined for anything else.
 */
export function parseRequestTs(
  value: string,
  zone: string,
  options: { allowDate?: boolean; bareDateAs?: 'startOfDay' | 'endOfDay' } = {},
): Date | undefined {
  if (REQUEST_TS.test(value)) {
    const parsed = DateTime.fromFormat(value, REQUEST_LAYOUT, { zone });
    return parsed.isValid ? parsed.toJSDate() : undefined;
  }
  if (options.allowDate && DATE_ONLY.test(value)) {
    const day = DateTime.fromFormat(value, DATE_LAYOUT, { zone });
    if (!day.isValid) return undefined;
    return (options.bareDateAs === 'endOfDay' ? day.endOf('day') : day).toJSDate();
  }
  return undefined;
}

/** The last millisecond of calendar day `date` (`YYYY-MM-DD`) in `zone`, as an instant. */
export function endOfLocalDay(date: string, zone: string): Date {
  return DateTime.fromFormat(date, DATE_LAYOUT, { zone }).endOf('day').toJSDate();
}

function toZoned(instant: Date | string, zone: string): DateTime {
  const utc = typeof instant === 'string' ? DateTime.fromISO(instant, { zone: 'UTC' }) : DateTime.fromJSDate(instant);
  return utc.setZone(zone);
}

/** The UTC minute an instant falls in, `2026-11-22T10:05`: the schedule's partition. */
export function utcMinuteOf(at: Date): string {
  return at.toISOString().slice(0, 16);
}

let isoMillisecond = NaN;
let isoText = '';

/** `date.toISOString()`, made once per millisecond: on a busy redirect many clicks share one. */
export function isoInstant(date: Date): string {
  const ms = date.getTime();
  if (ms !== isoMillisecond) {
    isoMillisecond = ms;
    isoText = date.toISOString();
  }
  return isoText;
}
