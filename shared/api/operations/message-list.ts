import * as v from 'valibot';
import type { Account } from '../../domain/accounts';
import { CAMPAIGN_STATUSES } from '../../domain/campaigns';
import type { MessageQuery, MessageSortField } from '../../domain/message-listing';
import { MESSAGE_STATUSES } from '../../domain/message-status';
import type { Message } from '../../domain/messages';
import { numberInfo } from '../../domain/phone';
import { formatResponseTs } from '../../domain/time';
import { criteriaOf, criterion, pagination, sortOf, timeCriterion } from '../list-params';
import { echo, idList, readParams, withoutBlanks } from '../params';
import type { Operation } from '../types';

export interface MessageListDeps {
  messageQueries: { list(account: Account, query: MessageQuery): Promise<{ items: { message: Message }[]; totalItemCount: number }> };
}

const SORT_FIELDS: readonly MessageSortField[] = ['campaignId', 'from', 'to', 'text', 'status', 'startSendTs', 'statusUpdateTs', 'segNum'];
const CAMPAIGN_STATUS_FILTERS = [...CAMPAIGN_STATUSES, 'NOT_YET_SENT', 'DEFERRED'] as const;
/** criteria[campaignIds] beyond this many: the search uses the first ones (interface spec §8). */
const MAX_CAMPAIGN_IDS = 100;

const ids = (name: string) => {
  const message = `criteria[${name}] must be ids, as a list or separated by commas`;
  return v.optional(
    v.pipe(
      idList(message),
      v.everyItem((id) => /^\d{1,15}$/.test(id), message),
    ),
  );
};
const trimmed = (name: string) => v.optional(v.pipe(criterion(name), v.trim()));

/** The parameters of Message/List, in the order they are checked; times are read in the account's zone. */
export function messageListSchema(zone: string) {
  return v.object({
    withNumberInfo: v.optional(
      v.pipe(v.string('withNumberInfo must be a single value'), v.trim(), v.picklist(['0', '1'], 'withNumberInfo must be 0 or 1')),
      '0',
    ),
    criteria: criteriaOf({
      status: v.optional(
        v.pipe(
          criterion('status'),
          v.trim(),
          v.toUpperCase(),
          v.picklist(MESSAGE_STATUSES, (issue) => `criteria[status] is not a message status: ${echo(String(issue.input))}`),
        ),
      ),
      campaignStatus: v.optional(
        v.pipe(
          criterion('campaignStatus'),
          v.trim(),
          v.toUpperCase(),
          v.picklist(CAMPAIGN_STATUS_FILTERS, `criteria[campaignStatus] must be one of ${CAMPAIGN_STATUS_FILTERS.join(', ')}`),
        ),
      ),
      campaignIds: ids('campaignIds'),
      from: trimmed('from'),
      to: trimmed('to'),
      text: v.optional(criterion('text')),
      groups: ids('groups'),
      campaignCreateTsFrom: timeCriterion('campaignCreateTsFrom', zone, 'startOfDay'),
      campaignCreateTsTo: timeCriterion('campaignCreateTsTo', zone, 'endOfDay'),
      campaignSentTsFrom: timeCriterion('campaignSentTsFrom', zone, 'startOfDay'),
      campaignSentTsTo: timeCriterion('campaignSentTsTo', zone, 'endOfDay'),
      startSendTsFrom: timeCriterion('startSendTsFrom', zone, 'startOfDay'),
      startSendTsTo: timeCriterion('startSendTsTo', zone, 'endOfDay'),
      statusUpdateTsFrom: timeCriterion('statusUpdateTsFrom', zone, 'startOfDay'),
      statusUpdateTsTo: timeCriterion('statusUpdateTsTo', zone, 'endOfDay'),
    }),
    sort: sortOf(SORT_FIELDS),
    pagination,
  });
}

/** Message/List: criteria, pagination, sort and withNumberInfo; items as in interface spec §2.2. */
export const messageList: Operation<MessageListDeps> = async ({ params, account, deps: { messageQueries } }) => {
  const { withNumberInfo, ...query } = messageQueryOf(params, account);
  const found = await messageQueries.list(account, query);
  const zone = account.timeZone;
  const items = await Promise.all(
    found.items.map(async ({ message }) => ({
      id: message.id,
      campaignId: message.campaignId,
      segNum: message.segNum,
      segUserBuy: message.segUserBuy,
      from: message.from,
      to: message.to,
      text: message.text,
      status: message.status,
      groups: '',
      uuid: message.uuid,
      ...(withNumberInfo && (await numberInfo(message.to))),
      startSendTs: message.startSendAt ? formatResponseTs(message.startSendAt, zone) : null,
      statusUpdateTs: message.statusUpdatedAt && message.startSendAt !== null ? formatResponseTs(message.statusUpdatedAt, zone) : null,
    })),
  );
  return { items, totalItemCount: found.totalItemCount };
};

function messageQueryOf(params: Record<string, unknown>, account: Account): MessageQuery & { withNumberInfo: boolean } {
  const { withNumberInfo, criteria, sort, pagination } = readParams(messageListSchema(account.timeZone), withoutBlanks(params));
  return {
    withNumberInfo: withNumberInfo === '1',
    campaignIds: criteria.campaignIds?.slice(0, MAX_CAMPAIGN_IDS).map(Number),
    from: criteria.from,
    to: criteria.to?.replace(/^\+/, ''),
    text: criteria.text,
    status: criteria.status,
    groups: criteria.groups,
    campaignStatus: criteria.campaignStatus,
    campaignCreatedFrom: criteria.campaignCreateTsFrom,
    campaignCreatedTo: criteria.campaignCreateTsTo,
    campaignSentFrom: criteria.campaignSentTsFrom,
    campaignSentTo: criteria.campaignSentTsTo,
    startSendFrom: criteria.startSendTsFrom,
    startSendTo: criteria.startSendTsTo,
    statusUpdateFrom: criteria.statusUpdateTsFrom,
    statusUpdateTo: criteria.statusUpdateTsTo,
    sort,
    pagination,
  };
}
