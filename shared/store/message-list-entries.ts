import type { MessageQuery, MessageSortField } from '../domain/message-listing';
import { matchingTo } from '../domain/message-listing';
import type { Message } from '../domain/messages';
import type { Entry } from './index-reader';
import { textHash } from './message-keys';

/** What Message/List's planner decides on index entries, before (or instead of) reading messages. */

/** Sorts whose values every index entry carries (creation and id always). */
export const ENTRY_SORTS: ReadonlySet<MessageSortField> = new Set(['campaignId', 'from', 'to']);

/** Whether the criteria can all be decided on an index entry (its projected attributes). */
export function entryDecides(query: MessageQuery): boolean {
  return (
    query.status === undefined &&
    query.campaignStatus === undefined &&
    !query.startSendFrom &&
    !query.startSendTo &&
    !query.campaignSentFrom &&
    !query.campaignSentTo &&
    !query.statusUpdateFrom &&
    !query.statusUpdateTo
  );
}

/** The criteria an index entry can decide, checked before its message is read. */
export function entryMatches(query: MessageQuery, anyAffix: boolean, entry: Entry): boolean {
  const createdAt = Date.parse(String(entry.createdAt));
  return (
    (query.from === undefined || entry.from === query.from) &&
    (query.to === undefined || matchingTo(query.to, anyAffix)(String(entry.to))) &&
    (query.text === undefined || entry.textHash === textHash(query.text)) &&
    (!query.campaignCreatedFrom || createdAt >= query.campaignCreatedFrom.getTime()) &&
    (!query.campaignCreatedTo || createdAt <= query.campaignCreatedTo.getTime())
  );
}

/** An entry as far as the entry-decided criteria and sorts look: the projected attributes. */
export function entryMessage(entry: Entry): Message {
  return {
    id: Number(entry.id),
    accountId: Number(entry.accountId),
    campaignId: Number(entry.campaignId),
    from: String(entry.from),
    to: String(entry.to),
    createdAt: String(entry.createdAt),
    text: '',
  } as Message;
}

export function insertionPoint(sorted: Message[], message: Message, order: (a: Message, b: Message) => number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const at = sorted[middle];
    if (at && order(at, message) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A time range that ends before it starts matches nothing (and is no key condition DynamoDB takes). */
export function emptyRange(query: MessageQuery): boolean {
  const sentFrom = latest(query.startSendFrom, query.campaignSentFrom);
  const sentTo = earliest(query.startSendTo, query.campaignSentTo);
  return [
    [query.campaignCreatedFrom, query.campaignCreatedTo],
    [sentFrom, sentTo],
    [query.statusUpdateFrom, query.statusUpdateTo],
  ].some(([from, to]) => from !== undefined && to !== undefined && from > to);
}

export const latest = (a?: Date, b?: Date) => (a && b ? (a > b ? a : b) : (a ?? b));
export const earliest = (a?: Date, b?: Date) => (a && b ? (a < b ? a : b) : (a ?? b));
