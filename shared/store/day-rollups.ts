import { GetCommand, type NativeAttributeValue, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { conditionally } from './conditional';
import type { Key } from './keys';
import { queryAll } from './query';

/**
 * Month roll-ups of the per-day counter items (docs/data-model.md §5.1): a long time range
 * counts its settled days from one item a month instead of every day item.
 *
 * A day is settled once it is SETTLE_DAYS behind the writer's UTC day: its day item is then
 * changed only by late changes (a status change of an old link or message, a late report,
 * a migration), which are rare. The month item `<prefix>M#<YYYY-MM>` holds, per day, the
 * sums of its day item's cells over the hours (`d<DD>`: a map of what follows `h<HH>` in
 * the cell names, each key prefixed `r`) and the day item's roll-up version (`v<DD>`, its
 * ROLLUP_VERSION attribute, which only late changes add to). A reader copies a settled day
 * it finds missing (read consistently), and a late change copies its day after adding to it;
 * each copy is conditional on a lower version, so the newest state wins whatever the order,
 * and a day copied once stays current.
 */

/** A change to a day this many days behind today's is late: it rolls its day up. */
export const SETTLE_DAYS = 3;
/** Readers take from the roll-ups only days one day further back (clocks may differ a little). */
const READER_MARGIN_DAYS = 1;
/** The day item's attribute that late changes add 1 to, with their cells, in the same write. */
export const ROLLUP_VERSION = 'rv';
const DAY_MS = 86_400_000;
/** The sk prefixes of the per-day counter items, all in an account's counters partition (`<prefix><YYYY-MM-DD>`). */
export const DAY_PREFIXES = ['LINKS#D#', 'MESSAGES#C#', 'MESSAGES#S#', 'MESSAGES#U#'] as const;
/** Per-day counters one per sender (`MESSAGES#FD#<hash of from>#`, message-keys.ts: senderDayPrefix), rolled up as the others. */
const SENDER_DAY_PREFIX = 'MESSAGES#FD#[0-9a-f]{16}#';
const DAY_ITEM = new RegExp(`^(${[...DAY_PREFIXES, SENDER_DAY_PREFIX].join('|')})(\\d{4}-\\d{2}-\\d{2})$`);

/** The day (`YYYY-MM-DD`) of a per-day counter item and its month item's key, or undefined for any other counter. */
export function dayItemOf(key: Key): { day: string; month: Key } | undefined {
  const match = DAY_ITEM.exec(key.sk);
  if (!match) return undefined;
  const [, prefix, day] = match as unknown as [string, string, string];
  return { day, month: { pk: key.pk, sk: monthSk(prefix, day.slice(0, 7)) } };
}

const monthSk = (prefix: string, month: string) => `${prefix}M#${month}`;
const dayOf = (instant: number) => new Date(instant).toISOString().slice(0, 10);
export const nextDay = (day: string) => dayOf(Date.parse(`${day}T00:00:00Z`) + DAY_MS);
export const dayBefore = (day: string) => dayOf(Date.parse(`${day}T00:00:00Z`) - DAY_MS);

/** Whether a change made at `now` to that day's item is late. */
export const isLate = (day: string, now: Date) => day <= dayOf(now.getTime() - SETTLE_DAYS * DAY_MS);

/** The last day a reader at `now` takes from the roll-ups. */
export const lastSettledDay = (now: Date) => dayOf(now.getTime() - (SETTLE_DAYS + READER_MARGIN_DAYS) * DAY_MS);

/**
 * The late ones of a change's counter adds (to a settled day's item, by `now`): each gets the
 * day item's roll-up version in its add (in place), and their keys are the days to roll up.
 */
export function lateDays(counters: { key: Key; add: Record<string, number> }[], now: Date): { rollups?: Key[] } {
  const late = counters.filter(({ key }) => {
    const day = dayItemOf(key)?.day;
    return day !== undefined && isLate(day, now);
  });
  for (const counter of late) counter.add = { ...counter.add, [ROLLUP_VERSION]: 1 };
  return late.length > 0 ? { rollups: late.map(({ key }) => key) } : {};
}

/** A day item's cells summed over its hours: `h05#st#DELIVRD` → `r#st#DELIVRD`. */
function summaryOf(item: Record<string, NativeAttributeValue> | undefined): Record<string, number> {
  const summary: Record<string, number> = {};
  for (const [name, value] of Object.entries(item ?? {})) {
    if (!/^h\d\d/.test(name) || typeof value !== 'number') continue;
    const rest = `r${name.slice(3)}`;
    summary[rest] = (summary[rest] ?? 0) + value;
  }
  return summary;
}

/** Copies days onto their month item unless the month holds a newer version of one of them; false if refused. */
function copyDays(store: Store, month: Key, days: { day: string; item?: Record<string, NativeAttributeValue> }[]): Promise<boolean> {
  const names: Record<string, string> = {};
  const values: Record<string, NativeAttributeValue> = { ':entity': 'Rollup' };
  const sets: string[] = ['entity = :entity'];
  const conditions: string[] = [];
  for (const [i, { day, item }] of days.entries()) {
    const dd = day.slice(8, 10);
    Object.assign(names, { [`#d${i}`]: `d${dd}`, [`#v${i}`]: `v${dd}` });
    Object.assign(values, { [`:d${i}`]: summaryOf(item), [`:v${i}`]: Number(item?.[ROLLUP_VERSION] ?? 0) });
    sets.push(`#d${i} = :d${i}`, `#v${i} = :v${i}`);
    conditions.push(`(attribute_not_exists(#v${i}) OR #v${i} <= :v${i})`);
  }
  return conditionally(() =>
    store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: month,
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ),
  );
}

/** A late change's last step for a day it added to: the day, read consistently, onto its month. */
export async function rollUp(store: Store, dayKey: Key): Promise<void> {
  const of = dayItemOf(dayKey);
  if (!of) return;
  const { Item } = await store.db.send(new GetCommand({ TableName: store.tableName, Key: dayKey, ConsistentRead: true }));
  await copyDays(store, of.month, [{ day: of.day, item: Item }]);
}

/**
 * The sums of the cells `rests` (what follows `h<HH>` in their names) over the settled
 * whole days of [fromDay, toDay] from the month items, copying those they lack from their
 * day items; and the last day counted (the caller reads the days after it). Undefined when
 * fewer than `minDays` of the range are settled.
 */
export async function countSettledDays(
  store: Store,
  now: Date,
  pk: string,
  prefix: string,
  fromDay: string,
  toDay: string,
  rests: readonly string[],
  minDays: number,
): Promise<{ total: number; through: string } | undefined> {
  // Only the day items late changes roll up (DAY_ITEM) have month items to trust.
  if (!dayItemOf({ pk, sk: `${prefix}2000-01-01` })) return undefined;
  const settled = lastSettledDay(now);
  const through = toDay < settled ? toDay : settled;
  const long = (from: string) => Date.parse(through) - Date.parse(from) >= (minDays - 1) * DAY_MS;
  let first = fromDay;
  // An open start ('0000-00-00'): from the account's first day item.
  if (first < '0001') {
    const page = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': `${prefix}${fromDay}`, ':to': `${prefix}${through}` },
        ProjectionExpression: 'sk',
        Limit: 1,
      }),
    );
    const sk = page.Items?.[0]?.sk as string | undefined;
    if (!sk) return undefined;
    first = sk.slice(prefix.length);
  }
  if (!long(first)) return undefined;
  const months = new Map<string, Record<string, NativeAttributeValue>>();
  for (const item of await queryAll(store, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': pk, ':from': monthSk(prefix, first.slice(0, 7)), ':to': monthSk(prefix, through.slice(0, 7)) },
  })) {
    months.set((item.sk as string).slice(-7), item);
  }
  const missing: string[] = [];
  let total = 0;
  let present: string | undefined;
  for (let day = first; day <= through; day = nextDay(day)) {
    const summary = months.get(day.slice(0, 7))?.[`d${day.slice(8, 10)}`] as Record<string, number> | undefined;
    if (summary === undefined) missing.push(day);
    else {
      present ??= day;
      for (const rest of rests) total += Number(summary[`r${rest}`] ?? 0);
    }
  }
  if (missing.length > 0) total += await copyMissing(store, pk, prefix, missing, rests, present);
  return { total, through };
}

/**
 * The stores this process may not copy days onto month items with. The deployed list functions may only
 * read the table: their first copy is refused (AccessDeniedException), and from then on they
 * read missing days without copying them (eventually consistent, as the day items' own reads).
 */
const readOnly = new WeakSet<Store>();

/** The days by month, each with its day item among `items` (absent: a day without one). */
function monthsOf(prefix: string, days: string[], items: Record<string, NativeAttributeValue>[]) {
  const byDay = new Map(items.map((item) => [(item.sk as string).slice(prefix.length), item]));
  const byMonth = new Map<string, { day: string; item?: Record<string, NativeAttributeValue> }[]>();
  for (const day of days) byMonth.set(day.slice(0, 7), [...(byMonth.get(day.slice(0, 7)) ?? []), { day, item: byDay.get(day) }]);
  return byMonth;
}

/** Reads the missing days' items (one Query over their span), copies them onto their months (consistent reads then), and sums them. */
async function copyMissing(
  store: Store,
  pk: string,
  prefix: string,
  missing: string[],
  rests: readonly string[],
  present: string | undefined,
): Promise<number> {
  const copy = !readOnly.has(store);
  const items = await queryAll(store, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': pk, ':from': `${prefix}${missing[0]}`, ':to': `${prefix}${missing.at(-1)}` },
    ConsistentRead: copy,
  });
  // The span may hold days the months have: only the missing ones count here.
  const wanted = new Set(missing);
  let total = 0;
  for (const item of items) {
    if (!wanted.has((item.sk as string).slice(prefix.length))) continue;
    const summary = summaryOf(item);
    for (const rest of rests) total += summary[`r${rest}`] ?? 0;
  }
  // The range's first days without a day item or a copy are not copied: a range from long before an account's
  // first activity would write a month item for every month back to its start (a later reader's Query over
  // those days alone finds nothing again).
  const active = items.map((item) => (item.sk as string).slice(prefix.length)).find((day) => wanted.has(day));
  const start = [active, present].filter((day) => day !== undefined).sort()[0];
  if (!copy || start === undefined) return total;
  const byMonth = monthsOf(
    prefix,
    missing.filter((day) => day >= start),
    items,
  );
  // A refused copy (a late change copied one of its days first) is left for the next reader.
  try {
    await Promise.all([...byMonth].map(([month, days]) => copyDays(store, { pk, sk: monthSk(prefix, month) }, days)));
  } catch (error) {
    if ((error as Error).name !== 'AccessDeniedException') throw error;
    readOnly.add(store);
  }
  return total;
}

/** A counter quiet for longer than this is left by the scheduled pass until it is active again. */
export const QUIET_DAYS = 31;

/**
 * Copies an account's days of one counter (`prefix`) in [from, to] (settled days; from
 * undefined: from its first day item) onto their month items, read consistently, for the
 * scheduled pass; returns the days copied. The quiet days since the counter's last day item
 * before the span are copied too, empty, so a reader of a long range finds every day from
 * an account's first active one; but a counter quiet for more than QUIET_DAYS writes nothing
 * (a reader finds those days missing and reads nothing from one Query over them) until it
 * is active again.
 */
export async function copyDaySpan(store: Store, pk: string, prefix: string, from: string | undefined, to: string): Promise<number> {
  const items = await queryAll(store, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': pk, ':from': `${prefix}${from ?? '0000-00-00'}`, ':to': `${prefix}${to}` },
    ConsistentRead: true,
  });
  const first = (items[0]?.sk as string | undefined)?.slice(prefix.length);
  let start = first;
  if (from !== undefined) {
    const { Items } = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': `${prefix}0000-00-00`, ':to': `${prefix}${dayBefore(from)}` },
        ProjectionExpression: 'sk',
        ScanIndexForward: false,
        Limit: 1,
      }),
    );
    const previous = (Items?.[0]?.sk as string | undefined)?.slice(prefix.length);
    const recent = previous !== undefined && previous >= dayOf(Date.parse(`${to}T00:00:00Z`) - QUIET_DAYS * DAY_MS);
    if (previous !== undefined && (first !== undefined || recent)) start = nextDay(previous);
  }
  if (start === undefined) return 0;
  const days: string[] = [];
  for (let day = start; day <= to; day = nextDay(day)) days.push(day);
  const byMonth = monthsOf(prefix, days, items);
  let copied = 0;
  for (const [month, days] of byMonth) {
    const key = { pk, sk: monthSk(prefix, month) };
    // Refused: a late change copied a newer state of one of them meanwhile; the others one by one.
    if (await copyDays(store, key, days)) copied += days.length;
    else for (const day of days) copied += (await copyDays(store, key, [day])) ? 1 : 0;
  }
  return copied;
}
