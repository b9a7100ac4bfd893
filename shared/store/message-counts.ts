import type { MessageStatus } from '../domain/message-status';
import type { CounterAdd } from './counted-writes';
import { comboCells, type MessageKeyFields, messageCells, messageCounters, numberCells } from './message-keys';

/**
 * Which of the counters a message was written before `before` is in already (each has its
 * flag on the item: `textCounted`, `toCounted`, `combosCounted`, `statusHoursCounted`,
 * `sentStatusCounted`, `senderDated`): the change that first finds one missing adds the
 * message to it.
 */
export interface CountedIn {
  text: boolean;
  to: boolean;
  combos: boolean;
  statusHours: boolean;
  sentStatus: boolean;
  senderDays: boolean;
}

/** Every counter a message is in, by the item's flags (a message written before them lacks some). */
export const COUNTED_FLAGS: Record<keyof CountedIn, string> = {
  text: 'textCounted',
  to: 'toCounted',
  combos: 'combosCounted',
  statusHours: 'statusHoursCounted',
  sentStatus: 'sentStatusCounted',
  senderDays: 'senderDated',
};

/**
 * The counter additions that take a message from `before` (absent: not counted yet) to
 * `after`: its cells on the account's MESSAGES item, the hour it was created, sent and
 * last updated in on the per-day items (for each of those hours also the hour's cell of its
 * status), its cells of status, campaign status and sender combined (comboCells), the hour
 * it was created in on its sender's day item (that hour's cell of its status too), its text's counter and its number's (`counted`
 * says which of those `before` is in already). A message's sender, text, number and creation
 * time are set at creation, so only a creation, or the one change that first counts a
 * message written before those counters, writes them.
 */
export function countsOf(
  before: MessageKeyFields | undefined,
  after: MessageKeyFields,
  counted: CountedIn = {
    text: before !== undefined,
    to: before !== undefined,
    combos: before !== undefined,
    statusHours: before !== undefined,
    sentStatus: before !== undefined,
    senderDays: before !== undefined,
  },
): CounterAdd[] {
  const adds = new Map<string, CounterAdd>();
  const add = (key: { pk: string; sk: string }, cell: string, n: number) => {
    const id = `${key.pk}|${key.sk}`;
    const counter = adds.get(id) ?? { key, add: {} };
    counter.add[cell] = (counter.add[cell] ?? 0) + n;
    adds.set(id, counter);
  };
  const account = after.accountId;
  const all = messageCounters.all(account);
  for (const cell of before ? messageCells(before) : []) add(all, cell, -1);
  for (const cell of messageCells(after)) add(all, cell, 1);
  if (before && counted.combos) for (const { key, cells } of comboCells(before)) for (const cell of cells) add(key, cell, -1);
  for (const { key, cells } of comboCells(after)) for (const cell of cells) add(key, cell, 1);
  const hourly = (kind: 'C' | 'S' | 'U', instant: string | null, n: number, status?: MessageStatus) => {
    if (!instant) return;
    const day = messageCounters.day(account, kind, instant.slice(0, 10));
    const hour = instant.slice(11, 13);
    add(day, status ? messageCounters.hourStatusCell(hour, status) : messageCounters.hourCell(hour), n);
  };
  if (before) {
    hourly('S', before.startSendAt, -1);
    hourly('U', before.statusUpdatedAt, -1);
    if (counted.statusHours) {
      hourly('C', before.createdAt, -1, before.status);
      hourly('U', before.statusUpdatedAt, -1, before.status);
    }
    if (counted.sentStatus) hourly('S', before.startSendAt, -1, before.status);
  } else hourly('C', after.createdAt, 1);
  hourly('S', after.startSendAt, 1);
  hourly('U', after.statusUpdatedAt, 1);
  // Status with a creation or status time range (message-status-times.ts): a status change moves them within the day items.
  hourly('C', after.createdAt, 1, after.status);
  hourly('U', after.statusUpdatedAt, 1, after.status);
  // Status with a sending time range: a sent message's status change moves its S cells too (one day item, an add and a forget).
  hourly('S', after.startSendAt, 1, after.status);
  // A sender with a creation range (message-time-criteria.ts), and with a status too (message-status-times.ts): the
  // sender's day item of the creation day, its hour's cell set once, its hour's cell of the status moved with it.
  const senderDay = messageCounters.senderDay(account, after.from, after.createdAt.slice(0, 10));
  const createdHour = after.createdAt.slice(11, 13);
  if (!counted.senderDays) add(senderDay, messageCounters.hourCell(createdHour), 1);
  else if (before) add(senderDay, messageCounters.hourStatusCell(createdHour, before.status), -1);
  add(senderDay, messageCounters.hourStatusCell(createdHour, after.status), 1);
  if (!counted.text) add(messageCounters.text(account, after.text), 'all', 1);
  if (!counted.to) for (const { key, cell } of numberCells(account, after.to)) add(key, cell, 1);
  const counters: CounterAdd[] = [];
  for (const counter of adds.values()) {
    const cells = Object.fromEntries(Object.entries(counter.add).filter(([, n]) => n !== 0));
    if (Object.keys(cells).length > 0) counters.push({ key: counter.key, add: cells });
  }
  return counters;
}
