import type { Campaign, CampaignStatus } from './campaigns';
import type { MessageStatus } from './message-status';
import type { Message } from './messages';
import { type Pagination, page, type SortOrder, sortBy } from './paging';

/** Message/List, as pure functions over messages already read: which match, in what order, which page. */

export type MessageSortField = 'campaignId' | 'from' | 'to' | 'text' | 'status' | 'startSendTs' | 'statusUpdateTs' | 'segNum';

/** Message/List criteria; times are instants, already read in the account's zone. */
export interface MessageQuery {
  campaignIds?: number[];
  from?: string;
  /** Substring of the recipient number. */
  to?: string;
  /** The whole text. */
  text?: string;
  status?: MessageStatus;
  /** Contact groups: there is no contact book yet, so any group matches nothing. */
  groups?: string[];
  campaignStatus?: CampaignStatus | 'NOT_YET_SENT' | 'DEFERRED';
  campaignCreatedFrom?: Date;
  campaignCreatedTo?: Date;
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
  items: { message: Message; campaign: Campaign | undefined }[];
  totalItemCount: number;
}

const NOT_YET_SENT: ReadonlySet<CampaignStatus> = new Set(['NEW', 'MODERATION', 'READY_FOR_SEND', 'AUTO_READY_FOR_SEND']);

/** Whether the query needs the messages' campaigns (their status or sending time). */
export function needsCampaigns(query: MessageQuery): boolean {
  return query.campaignStatus !== undefined || query.campaignSentFrom !== undefined || query.campaignSentTo !== undefined;
}

/** The query's criteria as one predicate over a message and its campaign (if read). */
export function matchingMessage(query: MessageQuery): (message: Message, campaign: Campaign | undefined) => boolean {
  const campaignIds = query.campaignIds ? new Set(query.campaignIds) : undefined;
  return (message, campaign) =>
    (campaignIds === undefined || campaignIds.has(message.campaignId)) &&
    (query.from === undefined || message.from === query.from) &&
    (query.to === undefined || message.to.includes(query.to)) &&
    (query.text === undefined || message.text === query.text) &&
    (query.status === undefined || message.status === query.status) &&
    (query.groups === undefined || query.groups.length === 0) &&
    matchesCampaignStatus(campaign, query.campaignStatus) &&
    within(message.createdAt, query.campaignCreatedFrom, query.campaignCreatedTo) &&
    within(campaign?.sentAt, query.campaignSentFrom, query.campaignSentTo) &&
    within(message.startSendAt, query.startSendFrom, query.startSendTo) &&
    within(message.statusUpdatedAt, query.statusUpdateFrom, query.statusUpdateTo);
}

/** The value a message sorts by in one field. */
export function messageSortValue(message: Message, field: MessageSortField | 'id'): string | number | null {
  switch (field) {
    case 'id':
      return message.id;
    case 'campaignId':
      return message.campaignId;
    case 'from':
      return message.from;
    case 'to':
      return message.to;
    case 'text':
      return message.text;
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

/** Filters, sorts and pages the account's messages; `campaigns` holds what needsCampaigns asked for. */
export function listMessages(messages: Message[], campaigns: ReadonlyMap<number, Campaign>, query: MessageQuery): MessageListing {
  const matches = matchingMessage(query);
  const matching = messages.filter((message) => matches(message, campaigns.get(message.campaignId)));
  // Newest first by default, and as the last tie-break.
  const order: SortOrder<MessageSortField | 'id'> = [...query.sort, { field: 'id', direction: 'DESC' }];
  const sorted = sortBy(matching, order, messageSortValue);
  return {
    items: page(sorted, query.pagination).map((message) => ({ message, campaign: campaigns.get(message.campaignId) })),
    totalItemCount: matching.length,
  };
}

function within(value: string | null | undefined, from?: Date, to?: Date): boolean {
  return (
    (from === undefined && to === undefined) ||
    (value != null && (from === undefined || Date.parse(value) >= from.getTime()) && (to === undefined || Date.parse(value) <= to.getTime()))
  );
}

function matchesCampaignStatus(campaign: Campaign | undefined, wanted: MessageQuery['campaignStatus']): boolean {
  if (wanted === undefined) return true;
  if (!campaign) return false;
  if (wanted === 'NOT_YET_SENT') return NOT_YET_SENT.has(campaign.status);
  if (wanted === 'DEFERRED') return campaign.deferredTo !== null && NOT_YET_SENT.has(campaign.status);
  return campaign.status === wanted;
}
