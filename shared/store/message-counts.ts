import type { MessageStatus } from '../domain/message-status';
import type { CounterAdd } from './counted-writes';
import { comboCells, type MessageKeyFields, messageCells, messageCounters, numberCells } from './message-keys';

/** Which of a message's counters its item says it is in already (older messages lack the later ones). */
export interface CountedParts {
  text: boolean;
  to: boolean;
  combos: boolean;
  statusHours: boolean;
  sentStatus: boolean;
  months: boolean;
}

/**
 * The counter additions that take a message from `before` (absent: not counted yet) to
 * `after`: its cells on the account's MESSAGES item, the hour it was created, sent and
 * last updated in on the per-day items (for each of those hours also the hour's cell of its
 * status) and the day on the per-month items (likewise), its cells of status, campaign
 * status and sender combined (comboCells), its text's counter and its number's (`counted`
 * says which of those six `before` is in already). A message's text and number are set at creation,
 * so only a creation, or the one change that first counts a message written before those
 * counters, writes them.
 */
export function countsOf(
  before: MessageKeyFields | undefined,
  after: MessageKeyFields,
  counted: CountedParts = {
    text: before !== undefined,
    to: before !== undefined,
    combos: before !== undefined,
    statusHours: before !== undefined,
    sentStatus: before !== undefined,
    months: before !== undefined,
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
  // The hour's cell on the day item and the day's on the month item; `before`'s month cells only where it is in them.
  const monthly = (kind: 'C' | 'S' | 'U', instant: string, n: number, status?: MessageStatus) => {
    const date = instant.slice(8, 10);
    add(
      messageCounters.month(account, kind, instant.slice(0, 7)),
      status ? messageCounters.dayStatusCell(date, status) : messageCounters.dayCell(date),
      n,
    );
  };
  const hourly = (kind: 'C' | 'S' | 'U', instant: string | null, n: number, status?: MessageStatus) => {
    if (!instant) return;
    const hour = instant.slice(11, 13);
    add(
      messageCounters.day(account, kind, instant.slice(0, 10)),
      status ? messageCounters.hourStatusCell(hour, status) : messageCounters.hourCell(hour),
      n,
    );
    if (n > 0 || counted.months) monthly(kind, instant, n, status);
  };
  if (before) {
    hourly('S', before.startSendAt, -1);
    hourly('U', before.statusUpdatedAt, -1);
    if (counted.statusHours) {
      hourly('C', before.createdAt, -1, before.status);
      hourly('U', before.statusUpdatedAt, -1, before.status);
    }
    if (counted.sentStatus) hourly('S', before.startSendAt, -1, before.status);
    // Counted in the day items before the month items were kept: its creation's month cell is new.
    if (!counted.months) monthly('C', after.createdAt, 1);
  } else hourly('C', after.createdAt, 1);
  hourly('S', after.startSendAt, 1);
  hourly('U', after.statusUpdatedAt, 1);
  // Status with a creation or status time range (message-status-times.ts): a status change moves them within the day items.
  hourly('C', after.createdAt, 1, after.status);
  hourly('U', after.statusUpdatedAt, 1, after.status);
  // Status with a sending time range: a sent message's status change moves its S cells too (one day item, an add and a forget).
  hourly('S', after.startSendAt, 1, after.status);
  if (!counted.text) add(messageCounters.text(account, after.text), 'all', 1);
  if (!counted.to) for (const { key, cell } of numberCells(account, after.to)) add(key, cell, 1);
  const counters: CounterAdd[] = [];
  for (const counter of adds.values()) {
    const cells = Object.fromEntries(Object.entries(counter.add).filter(([, n]) => n !== 0));
    if (Object.keys(cells).length > 0) counters.push({ key: counter.key, add: cells });
  }
  return counters;
}
