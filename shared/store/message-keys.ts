import { createHash } from 'node:crypto';
import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { CAMPAIGN_STATUSES, type CampaignStatus } from '../domain/campaigns';
import { NOT_YET_SENT_STATUSES, sortableText } from '../domain/message-listing';
import type { MessageStatus } from '../domain/message-status';
import type { Message } from '../domain/messages';
import type { IndexRange } from './index-reader';
import { type Key, keys } from './keys';

/**
 * A message's index keys and counter cells (docs/data-model.md §4.2, §4.5, §5). Every list
 * index holds an account's messages in one partition `ACCOUNT#<id>#MESSAGES`, except gsi11
 * (campaign status), whose partitions are the status (and deferred or not), so that several
 * statuses read together merge in creation order. String sort keys are
 * `<LABEL>#<value>\u0001<createdAt>#pad(id)`: by the value, then newest or oldest first in the
 * sort's direction (ids alone follow creation only within one process's block). U+0001 ends
 * a free-text value so that a shorter value sorts before a longer one it begins; digits,
 * statuses and instants end at `#`. Absent times are empty, so they sort lowest.
 */

const ID_DIGITS = 15;
const ID_SCALE = 10n ** BigInt(ID_DIGITS);
const MS_SCALE = 10n ** 13n; // a millisecond instant has 13 digits until the year 2286
const END = '\u0001';
/** The greatest sort-key tail after `<value>#`: above any `<createdAt>#pad(id)`. */
const TOP = '~';

export const pad = (id: number) => String(id).padStart(ID_DIGITS, '0');

/** The fields a message's index keys and counts are made from (the message with its campaign's status). */
export type MessageKeyFields = Pick<
  Message,
  'id' | 'accountId' | 'campaignId' | 'from' | 'to' | 'text' | 'segNum' | 'status' | 'createdAt' | 'startSendAt' | 'statusUpdatedAt'
> & {
  campaignStatus: CampaignStatus;
  /** The campaign was deferred (it had a `deferredTo`). */
  deferred: boolean;
};

/** First 16 hex digits of SHA-256 of the text: the exact-text criterion compares it. */
export function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}

export const reversed = (digits: string) => [...digits].reverse().join('');

const accountMessages = (accountId: number) => `ACCOUNT#${accountId}#MESSAGES`;
const tail = (m: Pick<MessageKeyFields, 'createdAt' | 'id'>) => `${m.createdAt}#${pad(m.id)}`;
/** `value × 10^28 + createdAt (ms) × 10^15 + id`: by value, then by creation, exact as a bigint. */
const numeric = (value: number, m: Pick<MessageKeyFields, 'createdAt' | 'id'>) =>
  (BigInt(value) * MS_SCALE + BigInt(Date.parse(m.createdAt))) * ID_SCALE + BigInt(m.id);

/** gsi11's partition: the campaign status, and whether the campaign was deferred. */
export function campaignStatusPartition(accountId: number, status: CampaignStatus, deferred: boolean): string {
  return `${accountMessages(accountId)}#CS#${status}${deferred ? '#D' : ''}`;
}

/** Every index attribute of a message (gsi1 as before). */
export function messageIndexKeys(m: MessageKeyFields): Record<string, NativeAttributeValue> {
  const pk = accountMessages(m.accountId);
  return {
    gsi1pk: pk,
    gsi1sk: tail(m),
    gsi2pk: pk,
    // The status after the tail, as on gsi4: a sending range's edge counts the status from the entries.
    gsi2sk: `SEND#${m.startSendAt ?? ''}#${tail(m)}#${m.status}`,
    gsi3pk: pk,
    gsi3sk: numeric(m.segNum, m),
    gsi4pk: pk,
    // The status after the tail: the order is the update time's (ids are unique), and a
    // status-update range's edge counts the status from the entries (statusOfKey).
    gsi4sk: `UPD#${m.statusUpdatedAt ?? ''}#${tail(m)}#${m.status}`,
    gsi5pk: pk,
    gsi5sk: `TEXT#${sortableText(m.text)}${END}${tail(m)}`,
    gsi6pk: pk,
    gsi6sk: `TO#${m.to}#${tail(m)}`,
    gsi7pk: pk,
    gsi7sk: `OT#${reversed(m.to)}#${tail(m)}`,
    gsi8pk: pk,
    // Campaign ids are unique (one message each): the id only completes the key.
    gsi8sk: BigInt(m.campaignId) * ID_SCALE + BigInt(m.id),
    gsi9pk: pk,
    gsi9sk: `FROM#${m.from}${END}${tail(m)}`,
    gsi10pk: pk,
    gsi10sk: `ST#${m.status}#${tail(m)}`,
    gsi11pk: campaignStatusPartition(m.accountId, m.campaignStatus, m.deferred),
    gsi11sk: tail(m),
    textHash: textHash(m.text),
  };
}

/** `<createdAt>#pad(id)` and the character before it, at the end of every string sort key. */
const TAIL_LENGTH = 24 + 1 + ID_DIGITS + 1;

/** The sorted field's value as an index entry's sort key holds it (runs of equal values share it). */
export function sortValueOfKey(index: string, key: NativeAttributeValue): string | bigint {
  if (index === 'gsi3') return BigInt(key) / (MS_SCALE * ID_SCALE);
  if (index === 'gsi8') return BigInt(key) / ID_SCALE;
  const text = String(key);
  return (index === 'gsi4' || index === 'gsi2' ? text.replace(STATUS_SUFFIX, '') : text).slice(0, -TAIL_LENGTH);
}

/** A gsi2 or gsi4 key's status; undefined on a key written before it carried one (it ends with the padded id). */
const STATUS_SUFFIX = /#[A-Z]+$/;
export const statusOfKey = (key: NativeAttributeValue): string | undefined => STATUS_SUFFIX.exec(String(key))?.[0].slice(1);

/** The ranges each criterion and sort reads (index, partition and sort-key prefix or bounds). */
export const messageRanges = {
  account: accountMessages,
  all: (accountId: number) => ({ index: 'gsi1', pk: accountMessages(accountId) }),
  created: (accountId: number, from?: Date, to?: Date) => ({
    index: 'gsi1',
    pk: accountMessages(accountId),
    ...bounds('', from, to),
  }),
  startSend: (accountId: number, from?: Date, to?: Date) => ({
    index: 'gsi2',
    pk: accountMessages(accountId),
    ...(from || to ? bounds('SEND#', from ?? new Date(0), to) : { sk: { beginsWith: 'SEND#' } }),
  }),
  statusUpdate: (accountId: number, from?: Date, to?: Date) => ({
    index: 'gsi4',
    pk: accountMessages(accountId),
    ...(from || to ? bounds('UPD#', from ?? new Date(0), to) : { sk: { beginsWith: 'UPD#' } }),
  }),
  segNum: (accountId: number) => ({ index: 'gsi3', pk: accountMessages(accountId) }),
  text: (accountId: number, text?: string) => ({
    index: 'gsi5',
    pk: accountMessages(accountId),
    sk: { beginsWith: text === undefined ? 'TEXT#' : `TEXT#${sortableText(text)}${END}` },
  }),
  /** Numbers starting with `digits` (the whole number among them). */
  toPrefix: (accountId: number, digits = '') => ({ index: 'gsi6', pk: accountMessages(accountId), sk: { beginsWith: `TO#${digits}` } }),
  /** Numbers ending with `digits`. */
  toSuffix: (accountId: number, digits: string) => ({
    index: 'gsi7',
    pk: accountMessages(accountId),
    sk: { beginsWith: `OT#${reversed(digits)}` },
  }),
  campaignId: (accountId: number) => ({ index: 'gsi8', pk: accountMessages(accountId) }),
  from: (accountId: number, from?: string) => ({
    index: 'gsi9',
    pk: accountMessages(accountId),
    sk: { beginsWith: from === undefined ? 'FROM#' : `FROM#${from}${END}` },
  }),
  status: (accountId: number, status?: MessageStatus) => ({
    index: 'gsi10',
    pk: accountMessages(accountId),
    sk: { beginsWith: status === undefined ? 'ST#' : `ST#${status}#` },
  }),
  /** A status's messages created in [from, to] (either may be open): gsi10's keys are the status, then `tail`. */
  statusCreated: (accountId: number, status: MessageStatus, from?: Date, to?: Date) => ({
    index: 'gsi10',
    pk: accountMessages(accountId),
    ...bounds(`ST#${status}#`, from ?? new Date(0), to),
  }),
  /** Every message in creation order through gsi11 (its partitions merged; `sk` as gsi1's range, whose sort key is the same). */
  byCreation: (accountId: number, sk?: IndexRange['sk']): IndexRange[] =>
    CAMPAIGN_STATUSES.flatMap((status) =>
      [false, true].map((deferred) => ({ index: 'gsi11', pk: campaignStatusPartition(accountId, status, deferred), ...(sk && { sk }) })),
    ),
  /** gsi11's partitions for a campaign-status criterion, each in creation order. */
  campaignStatus: (accountId: number, wanted: CampaignStatus | 'NOT_YET_SENT' | 'DEFERRED') => {
    const statuses: readonly CampaignStatus[] = wanted === 'NOT_YET_SENT' || wanted === 'DEFERRED' ? NOT_YET_SENT_STATUSES : [wanted];
    const deferred = wanted === 'DEFERRED' ? [true] : [false, true];
    return statuses.flatMap((status) => deferred.map((d) => ({ index: 'gsi11', pk: campaignStatusPartition(accountId, status, d) })));
  },
};

/** `[from, to]` on a sort key `<label><instant>#…`; an open end (or one beyond the years keys hold) reaches the label's first or last key. */
function bounds(label: string, from?: Date, to?: Date): { sk?: { between: [string, string] } } {
  const low = from && keyInstant(from);
  const high = to && keyInstant(to);
  if (!low && !high) return {};
  return { sk: { between: [`${label}${low ?? ''}`, `${label}${high ? `${high}#${TOP}` : TOP}`] } };
}

/** An instant as keys hold it (four-digit years), or undefined outside them. */
function keyInstant(date: Date): string | undefined {
  const year = date.getUTCFullYear();
  return year >= 0 && year <= 9999 ? date.toISOString() : undefined;
}

/** The message's counter cells on `ACCOUNT#<id>#COUNTS` / `MESSAGES` (§5): each counts 1 for it. */
export function messageCells(m: MessageKeyFields): string[] {
  return ['all', `st#${m.status}`, campaignStatusCell(m), `from#${m.from}`];
}

/** A message's campaign-status cell name: the status, and `#D` when its campaign was deferred. */
const campaignStatusCell = (m: Pick<MessageKeyFields, 'campaignStatus' | 'deferred'>) => `cs#${m.campaignStatus}${m.deferred ? '#D' : ''}`;

/**
 * The cells that count a message among combinations of status, campaign status and sender
 * (§5.1): a `st#<status>#cs#<campaign status>` cell on MESSAGES (at most 9 × 16, about 40 in
 * use), and on its sender's item (`MESSAGES#F#<from>`) one cell for its status, one for its
 * campaign status and one for the pair. A sender never changes, so a message moves cells
 * within one sender's item; MESSAGES keeps no cell per sender and status.
 */
export function comboCells(m: MessageKeyFields): { key: Key; cells: string[] }[] {
  const pair = `st#${m.status}#${campaignStatusCell(m)}`;
  return [
    { key: messageCounters.all(m.accountId), cells: [pair] },
    { key: messageCounters.sender(m.accountId, m.from), cells: [`st#${m.status}`, campaignStatusCell(m), pair] },
  ];
}

/** Counter items (the account's counts partition) and the hourly cell an instant falls in. */
export const messageCounters = {
  all: (accountId: number): Key => keys.counts(accountId, 'MESSAGES'),
  /** Per UTC day: C created, S sent (startSendAt), U status updated. */
  day: (accountId: number, kind: 'C' | 'S' | 'U', day: string): Key => keys.counts(accountId, `MESSAGES#${kind}#${day}`),
  hourCell: (hour: string) => `h${hour}`,
  /** The hour's cell of one status, on the C and U day items (messages created, or last updated, in it with that status now). */
  hourStatusCell: (hour: string, status: MessageStatus) => `h${hour}#st#${status}`,
  /** Per exact text (its hash), cell `all`: kept apart from MESSAGES, which a cell per text would grow without end. */
  text: (accountId: number, text: string): Key => keys.counts(accountId, `MESSAGES#TEXT#${textHash(text)}`),
  /** Per sender: its messages by status, by campaign status and by both (comboCells). */
  sender: (accountId: number, from: string): Key => keys.counts(accountId, `MESSAGES#F#${from}`),
  /**
   * Per sender and UTC day of creation: cell `h<HH>` counts its messages created in that hour
   * (a sender with a campaignCreateTs range), `h<HH>#st#<status>` those of them with that
   * status now (and a status). The sender by its hash: its days' items sort together whatever
   * characters it has.
   */
  senderDay: (accountId: number, from: string, day: string): Key => keys.counts(accountId, senderDaySk(from, day)),
};

/** The sk prefix of a sender's day items (messageCounters.senderDay), then the day. */
export const senderDayPrefix = (from: string) => `MESSAGES#FD#${textHash(from)}#`;
export const senderDaySk = (from: string, day: string) => `${senderDayPrefix(from)}${day}`;

/** A number's starts (`TO`), or its ends read as the starts of its digits reversed (`OT`), as gsi6 and gsi7 hold them. */
export type NumberSide = 'TO' | 'OT';
/** Lengths of a start one counter item answers: its own and the next two. */
const LENGTHS_PER_ITEM = 3;

/**
 * The counter item and cell that count the messages whose number starts (side `OT`: whose
 * number reversed starts) with `start` (§5.1). Items are `MESSAGES#TO#<digits>` for digits
 * of length 1, 4, 7, …: cell `n` counts that start, `n<d>` and `n<dd>` the starts one and
 * two digits longer (at most 111 cells: about 800 bytes), so a message writes a third as many
 * items as its number has digits on each side, and any length is one item's cell.
 */
export function numberCell(accountId: number, side: NumberSide, start: string): { key: Key; cell: string } {
  const itemLength = start.length - ((start.length - 1) % LENGTHS_PER_ITEM);
  return { key: keys.counts(accountId, `MESSAGES#${side}#${start.slice(0, itemLength)}`), cell: `n${start.slice(itemLength)}` };
}

/**
 * The cells a message to `to` counts 1 in: every start of its number (`TO`), and every end
 * that is not also its start (`OT`: the whole number never is one; `12312` ends with `12`
 * and starts so), so that the two sides add up to criteria[to]'s union without counting a
 * number twice.
 */
export function numberCells(accountId: number, to: string): { key: Key; cell: string }[] {
  const cells: { key: Key; cell: string }[] = [];
  const back = reversed(to);
  for (let length = 1; length <= to.length; length++) {
    const start = to.slice(0, length);
    cells.push(numberCell(accountId, 'TO', start));
    if (!to.endsWith(start)) cells.push(numberCell(accountId, 'OT', back.slice(0, length)));
  }
  return cells;
}
