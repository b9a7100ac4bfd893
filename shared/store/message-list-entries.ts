import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { AppError } from '../domain/errors';
import type { CampaignState, MessageListing, MessageQuery, MessageSortField } from '../domain/message-listing';
import { matchingMessage, matchingTo, messageOrder, TEXT_SORT_CHARACTERS } from '../domain/message-listing';
import type { Message } from '../domain/messages';
import { batchGetAll } from './batch';
import type { Store } from './client';
import { type Condition, type Entry, type IndexRange, instantCondition } from './index-query';
import { keys } from './keys';
import { campaignStateOfItem } from './message-changes';
import { fromMessageItem } from './message-items';
import { messageRanges, textHash } from './message-keys';

/** Pieces of Message/List's planner: its drivers, and what it decides on index entries before (or instead of) reading messages. */

/** A way to find the matches of one criterion: index ranges, and the order they come in. */
export interface Driver {
  ranges: IndexRange[];
  /** The order the ranges are read in: creation (the default order), or a sort field's. */
  order: 'created' | MessageSortField;
  /** Entries to pass over (already read through another range). */
  skip?: (entry: Entry) => boolean;
  /** The exact number of matches, from the counters; undefined when none covers the criterion. */
  total?: () => Promise<number>;
  /** How many entries it is likely to read, to pick the cheapest; lower is better. */
  rank: number;
  /** Its rank stands whatever its total: it is not ranked by the counters among several criteria. */
  placed?: boolean;
  /**
   * What reading it costs, in list index entries, where that is not its total times its
   * matches' cost (matchCost): ranks it among several criteria. Undefined when unknown: its
   * rank stands.
   */
  reads?: () => Promise<number | undefined>;
  /** The criteria its ranges decide exactly (those the index entries cannot are then not read from the messages). */
  covers?: MessageCriterion;
}

/**
 * Whether gsi5's range for an exact text holds that text's messages only: its key is the
 * first 200 characters and U+0001 before the creation tail, so a shorter text without that
 * character is matched by the key alone; a longer one (texts sharing its first 200
 * characters) or one holding it needs the projected hash checked on each entry.
 */
function textRangeIsExact(text: string): boolean {
  return [...text].length < TEXT_SORT_CHARACTERS && !text.includes('\u0001');
}

/**
 * criteria[text]: gsi5's range of the text, newest first. Alone, its total is `total` (the
 * text's own counter); with other criteria it drives whatever the counters say of them, as
 * the likeliest to be narrow, and the total is counted as its matches are read.
 */
export function textDriver(accountId: number, text: string, total: () => Promise<number>): Driver {
  const range = messageRanges.text(accountId, text);
  return {
    // Unfiltered where the key decides, so that a page reads the page's entries only; else the read checks the hash.
    ranges: [textRangeIsExact(text) ? range : { ...range, where: [{ attribute: 'textHash', equals: textHash(text) }] }],
    order: 'created',
    total,
    rank: 1,
    placed: true,
  };
}

/** Sorts whose values every index entry carries (creation and id always). */
export const ENTRY_SORTS: ReadonlySet<MessageSortField> = new Set(['campaignId', 'from', 'to']);

/** The criteria the index entries do not carry: a driver's ranges may decide one of them. */
export type MessageCriterion = 'status' | 'campaignStatus' | 'startSend' | 'statusUpdate';

/** Whether the criteria can all be decided on an index entry (its projected attributes), but the one `covered` by the ranges read. */
export function entryDecides(query: MessageQuery, covered?: MessageCriterion): boolean {
  const absent = (criterion: MessageCriterion, ...set: unknown[]) => criterion === covered || set.every((value) => value === undefined);
  return (
    absent('status', query.status) &&
    absent('campaignStatus', query.campaignStatus) &&
    absent('startSend', query.startSendFrom, query.startSendTo, query.campaignSentFrom, query.campaignSentTo) &&
    absent('statusUpdate', query.statusUpdateFrom, query.statusUpdateTo)
  );
}

/**
 * What reading one match of a driver costs, relative to a list index entry (~250 bytes): a
 * gsi1 entry is a whole message (~6), and an entry that cannot decide the rest of the query
 * has its message read too (0.5 RRU: ~16 entries).
 */
export function matchCost(query: MessageQuery, driver: Driver): number {
  if (driver.ranges.every((range) => range.index === 'gsi1')) return 6;
  return entryDecides(query, driver.covers) ? 1 : 17;
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

/**
 * What entryMatches decides, as conditions the index read checks itself (index-query.ts): the
 * entries the query cannot match are read but not sent. `whole`: the entries are whole
 * messages (gsi1), which also carry the status and the sending and status times.
 */
export function entryConditions(query: MessageQuery, whole = false): Condition[] {
  const conditions: Condition[] = [];
  if (query.from !== undefined) conditions.push({ attribute: 'from', equals: query.from });
  if (query.to !== undefined) conditions.push({ attribute: 'to', contains: query.to });
  if (query.text !== undefined) conditions.push({ attribute: 'textHash', equals: textHash(query.text) });
  if (query.campaignCreatedFrom || query.campaignCreatedTo)
    conditions.push(instantCondition('createdAt', query.campaignCreatedFrom, query.campaignCreatedTo));
  if (!whole) return conditions;
  if (query.status !== undefined) conditions.push({ attribute: 'status', equals: query.status });
  for (const [from, to] of [
    [query.startSendFrom, query.startSendTo],
    [query.campaignSentFrom, query.campaignSentTo],
  ])
    if (from || to) conditions.push(instantCondition('startSendAt', from, to));
  if (query.statusUpdateFrom || query.statusUpdateTo)
    conditions.push(instantCondition('statusUpdatedAt', query.statusUpdateFrom, query.statusUpdateTo));
  return conditions;
}

/** The ranges with the query's conditions added to their own. */
export function withConditions(ranges: IndexRange[], query: MessageQuery): IndexRange[] {
  return ranges.map((range) => {
    const where = [...(range.where ?? []), ...entryConditions(query, range.index === 'gsi1')];
    return where.length > 0 ? { ...range, where } : range;
  });
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

/** Whether some number of the account starts or ends with the digits: one entry of each index at most. */
export async function someNumberStartsOrEnds(store: Store, accountId: number, digits: string): Promise<boolean> {
  for (const range of [messageRanges.toPrefix(accountId, digits), messageRanges.toSuffix(accountId, digits)]) {
    const sk = `${range.index}sk`;
    const found = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: range.index,
        KeyConditionExpression: `${range.index}pk = :pk AND begins_with(${sk}, :prefix)`,
        ExpressionAttributeValues: { ':pk': range.pk, ':prefix': range.sk.beginsWith },
        Limit: 1,
      }),
    );
    if ((found.Items?.length ?? 0) > 0) return true;
  }
  return false;
}

/** Message/List's criteria (sort, pagination and groups aside). */
const CRITERIA = [
  'campaignIds',
  'from',
  'to',
  'text',
  'status',
  'campaignStatus',
  'campaignCreatedFrom',
  'campaignCreatedTo',
  'campaignSentFrom',
  'campaignSentTo',
  'startSendFrom',
  'startSendTo',
  'statusUpdateFrom',
  'statusUpdateTo',
] as const satisfies readonly (keyof MessageQuery)[];

/** Whether the query has no group and no criterion but those `allowed`. */
export function onlyCriteria(query: MessageQuery, allowed: readonly (typeof CRITERIA)[number][]): boolean {
  return !query.groups?.length && CRITERIA.every((name) => allowed.includes(name) || query[name] === undefined);
}

/** The messages of index entries (one BatchGetItem per 100), in the entries' order, with their campaign's state. */
export async function messagesOfEntries(store: Store, entries: Entry[]): Promise<{ message: Message; state: CampaignState }[]> {
  const items = await batchGetAll(
    store,
    entries.map((entry) => keys.message(Number(entry.id))),
  );
  const byId = new Map(items.map((item) => [Number(item.id), { message: fromMessageItem(item), state: campaignStateOfItem(item) }]));
  return entries.flatMap((entry) => byId.get(Number(entry.id)) ?? []);
}

/** criteria[campaignIds] (at most 100): their messages, by the campaigns' message ids, the account's only. */
export async function listByCampaigns(store: Store, accountId: number, query: MessageQuery, anyAffix: boolean): Promise<MessageListing> {
  const campaigns = await batchGetAll(
    store,
    [...new Set(query.campaignIds)].map((id) => keys.campaign(id)),
  );
  const ids = campaigns.filter((campaign) => Number(campaign.accountId) === accountId).map((campaign) => Number(campaign.messageId));
  const matches = matchingMessage(query, anyAffix);
  const found = (
    await messagesOfEntries(
      store,
      ids.map((id) => ({ id })),
    )
  )
    .filter(({ message, state }) => message.accountId === accountId && matches(message, state))
    .map(({ message }) => message);
  const { pageSize, currentPage } = query.pagination;
  const sorted = found.sort(messageOrder(query.sort));
  return {
    items: sorted.slice(currentPage * pageSize, (currentPage + 1) * pageSize).map((message) => ({ message })),
    totalItemCount: found.length,
  };
}

/**
 * How long one call may read a criterion's matches (a `to` found only inside numbers reads
 * every number of the account): within the function's 29 s, with room for the page.
 */
export const READ_BUDGET_MS = 20_000;

/** Code 12: a query whose matches take longer to read than a call may. */
export const tooWide = (read: number, budget: number) =>
  new AppError(
    'limit',
    `Message/List read ${read} index entries in ${budget / 1000} s without finishing: narrow the query (criteria[to] as the start or end of the number, a status, a sender or a time range)`,
  );
