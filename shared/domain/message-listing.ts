import type { Campaign, CampaignStatus } from './campaigns';
import type { MessageStatus } from './message-status';
import type { Message } from './messages';
import { compareValues, type Pagination, type SortDirection, type SortOrder } from './paging';

/**
 * Message/List as pure functions over messages already read: which match, in what order,
 * which page. The store answers from its indexes (shared/store/message-lists.ts); this is
 * the rule it follows, and the reference its tests compare it with.
 */

export type MessageSortField = 'campaignId' | 'from' | 'to' | 'text' | 'status' | 'startSendTs' | 'statusUpdateTs' | 'segNum';

/** Message/List criteria; times are instants, already read in the account's zone. */
export interface MessageQuery {
  campaignIds?: number[];
  from?: string;
  /** Digits of the recipient number: see matchingTo. */
  to?: string;
  /** The whole text. */
  text?: string;
  status?: MessageStatus;
  /** Contact groups: there is no contact book yet, so any group matches nothing. */
  groups?: string[];
  campaignStatus?: CampaignStatus | 'NOT_YET_SENT' | 'DEFERRED';
  campaignCreatedFrom?: Date;
  campaignCreatedTo?: Date;
  /** A campaign's sending time is its message's startSendAt (one message per campaign). */
  campaignSentFrom?: Date;
  campaignSentTo?: Date;
  startSendFrom?: Date;
  startSendTo?: Date;
  statusUpdateFrom?: Date;
  statusUpdateTo?: Date;
  sort: SortOrder<MessageSortField>;
  pagination: Pagination;
}

export interface MessageListing {
  items: { message: Message }[];
  totalItemCount: number;
}

/** What a message knows of its campaign (copied onto it when the campaign moves). */
export interface CampaignState {
  status: CampaignStatus;
  /** The campaign had a deferred sending time. */
  deferred: boolean;
}

export const NOT_YET_SENT_STATUSES: readonly CampaignStatus[] = ['NEW', 'MODERATION', 'READY_FOR_SEND', 'AUTO_READY_FOR_SEND'];
/** How much of a text the text sort compares: its first 200 characters (an index key holds 1,024 bytes). */
export const TEXT_SORT_CHARACTERS = 200;

export function sortableText(text: string): string {
  return [...text].slice(0, TEXT_SORT_CHARACTERS).join('');
}

export function campaignStateOf(campaign: Pick<Campaign, 'status' | 'deferredTo'>): CampaignState {
  return { status: campaign.status, deferred: campaign.deferredTo !== null };
}

/**
 * `criteria[to]` as the indexes answer it: numbers that start or end with the digits; only
 * when no number of the account does is it containment anywhere in the number (a read of
 * every number, in pages). `anyAffix` says whether some number of the account starts or ends with them.
 */
export function matchingTo(digits: string, anyAffix: boolean): (to: string) => boolean {
  return anyAffix ? (to) => to.startsWith(digits) || to.endsWith(digits) : (to) => to.includes(digits);
}

/** The query's criteria as one predicate over a message and its campaign's state. */
export function matchingMessage(query: MessageQuery, anyAffix = true): (message: Message, campaign: CampaignState | undefined) => boolean {
  const campaignIds = query.campaignIds ? new Set(query.campaignIds) : undefined;
  const to = query.to === undefined ? undefined : matchingTo(query.to, anyAffix);
  return (message, campaign) =>
    (campaignIds === undefined || campaignIds.has(message.campaignId)) &&
    (query.from === undefined || message.from === query.from) &&
    (to === undefined || to(message.to)) &&
    (query.text === undefined || message.text === query.text) &&
    (query.status === undefined || message.status === query.status) &&
    (query.groups === undefined || query.groups.length === 0) &&
    matchesCampaignStatus(campaign, query.campaignStatus) &&
    within(message.createdAt, query.campaignCreatedFrom, query.campaignCreatedTo) &&
    within(message.startSendAt, query.campaignSentFrom, query.campaignSentTo) &&
    within(message.startSendAt, query.startSendFrom, query.startSendTo) &&
    within(message.statusUpdatedAt, query.statusUpdateFrom, query.statusUpdateTo);
}

/** The value a message sorts by in one field. */
export function messageSortValue(message: Message, field: MessageSortField): string | number | null {
  switch (field) {
    case 'campaignId':
      return message.campaignId;
    case 'from':
      return message.from;
    case 'to':
      return message.to;
    case 'text':
      return sortableText(message.text);
    case 'status':
      return message.status;
    case 'startSendTs':
      return message.startSendAt;
    case 'statusUpdateTs':
      return message.statusUpdatedAt;
    case 'segNum':
      return message.segNum;
  }
}

/**
 * The order of a list: by each sort field in its direction, then by creation and id in the
 * first field's direction (newest first without a sort). Strings compare by code point, as
 * DynamoDB compares UTF-8 bytes; an absent value sorts lowest.
 */
export function messageOrder(sort: SortOrder<MessageSortField>): (a: Message, b: Message) => number {
  const tieDirection: SortDirection = sort[0]?.direction ?? 'DESC';
  return (a, b) => {
    for (const { field, direction } of sort) {
      const difference = compareValues(messageSortValue(a, field), messageSortValue(b, field));
      if (difference !== 0) return direction === 'ASC' ? difference : -difference;
    }
    const difference = compareValues(a.createdAt, b.createdAt) || a.id - b.id;
    return tieDirection === 'ASC' ? difference : -difference;
  };
}

/** Filters, sorts and pages the account's messages; `campaigns` holds each message's campaign state by campaign id. */
export function listMessages(messages: Message[], campaigns: ReadonlyMap<number, CampaignState>, query: MessageQuery): MessageListing {
  const digits = query.to;
  const anyAffix = digits !== undefined && messages.some((m) => m.to.startsWith(digits) || m.to.endsWith(digits));
  const matches = matchingMessage(query, anyAffix);
  const matching = messages.filter((message) => matches(message, campaigns.get(message.campaignId)));
  const sorted = [...matching].sort(messageOrder(query.sort));
  const { pageSize, currentPage } = query.pagination;
  return {
    items: sorted.slice(currentPage * pageSize, (currentPage + 1) * pageSize).map((message) => ({ message })),
    totalItemCount: matching.length,
  };
}

/** Code-point order (UTF-8 byte order); numbers by value; null lowest. */
function within(value: string | null | undefined, from?: Date, to?: Date): boolean {
  return (
    (from === undefined && to === undefined) ||
    (value != null && (from === undefined || Date.parse(value) >= from.getTime()) && (to === undefined || Date.parse(value) <= to.getTime()))
  );
}

function matchesCampaignStatus(campaign: CampaignState | undefined, wanted: MessageQuery['campaignStatus']): boolean {
  if (wanted === undefined) return true;
  if (!campaign) return false;
  if (wanted === 'NOT_YET_SENT') return NOT_YET_SENT_STATUSES.includes(campaign.status);
  if (wanted === 'DEFERRED') return campaign.deferred && NOT_YET_SENT_STATUSES.includes(campaign.status);
  return campaign.status === wanted;
}
