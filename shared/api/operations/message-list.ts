import { apiRuntime } from '../../api-runtime';
import type { Account } from '../../domain/accounts';
import { CAMPAIGN_STATUSES } from '../../domain/campaigns';
import { AppError } from '../../domain/errors';
import type { MessageQuery, MessageSortField } from '../../domain/message-service';
import { isMessageStatus } from '../../domain/message-status';
import { numberInfo } from '../../domain/phone';
import { formatResponseTs, parseRequestTs } from '../../domain/time';
import { criteriaOf, paginationOf, scalar, sortOf } from '../list-params';
import { echo, listOf } from '../params';
import type { Operation } from '../types';

const SORT_FIELDS: readonly MessageSortField[] = ['campaignId', 'from', 'to', 'text', 'status', 'startSendTs', 'statusUpdateTs', 'segNum'];
const CAMPAIGN_STATUS_FILTERS = [...CAMPAIGN_STATUSES, 'NOT_YET_SENT', 'DEFERRED'] as const;
/** criteria[campaignIds] beyond this many: the search uses the first ones (interface spec §8). */
const MAX_CAMPAIGN_IDS = 100;

/** Message/List: criteria, pagination, sort and withNumberInfo; items as in interface spec §2.2. */
export const messageList: Operation = async ({ params, account }) => {
  const withNumberInfo =
    params.withNumberInfo === undefined || params.withNumberInfo === '' ? '0' : scalar(params.withNumberInfo, 'withNumberInfo').trim();
  if (withNumberInfo !== '0' && withNumberInfo !== '1') throw new AppError('limit', 'withNumberInfo must be 0 or 1');
  const found = await apiRuntime().messages.list(account, messageQuery(params, account));
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
      ...(withNumberInfo === '1' && (await numberInfo(message.to))),
      startSendTs: message.startSendAt ? formatResponseTs(message.startSendAt, zone) : null,
      statusUpdateTs: message.statusUpdatedAt && message.startSendAt !== null ? formatResponseTs(message.statusUpdatedAt, zone) : null,
    })),
  );
  return { items, totalItemCount: found.totalItemCount };
};

function messageQuery(params: Record<string, unknown>, account: Account): MessageQuery {
  const criteria = criteriaOf(params.criteria);
  const text = (name: string) => (criteria[name] === undefined ? undefined : scalar(criteria[name], `criteria[${name}]`));
  const time = (name: string, bareDateAs: 'startOfDay' | 'endOfDay') => {
    const value = text(name);
    if (value === undefined) return undefined;
    const instant = parseRequestTs(value.trim(), account.timeZone, { allowDate: true, bareDateAs });
    if (typeof instant === 'string') throw new AppError('limit', `criteria[${name}] ${instant}`);
    return instant;
  };
  const ids = (name: string) => {
    if (criteria[name] === undefined) return undefined;
    const list = listOf(criteria[name]);
    if (list === undefined || list.some((id) => !/^\d{1,15}$/.test(id)))
      throw new AppError('limit', `criteria[${name}] must be ids, as a list or separated by commas`);
    return list;
  };
  const status = text('status')?.trim().toUpperCase();
  if (status !== undefined && !isMessageStatus(status)) throw new AppError('limit', `criteria[status] is not a message status: ${echo(status)}`);
  const campaignStatus = text('campaignStatus')?.trim().toUpperCase();
  if (campaignStatus !== undefined && !(CAMPAIGN_STATUS_FILTERS as readonly string[]).includes(campaignStatus)) {
    throw new AppError('limit', `criteria[campaignStatus] must be one of ${CAMPAIGN_STATUS_FILTERS.join(', ')}`);
  }
  return {
    campaignIds: ids('campaignIds')?.slice(0, MAX_CAMPAIGN_IDS).map(Number),
    from: text('from')?.trim(),
    to: text('to')?.trim().replace(/^\+/, ''),
    text: text('text'),
    status,
    groups: ids('groups'),
    campaignStatus: campaignStatus as MessageQuery['campaignStatus'],
    campaignCreatedFrom: time('campaignCreateTsFrom', 'startOfDay'),
    campaignCreatedTo: time('campaignCreateTsTo', 'endOfDay'),
    campaignSentFrom: time('campaignSentTsFrom', 'startOfDay'),
    campaignSentTo: time('campaignSentTsTo', 'endOfDay'),
    startSendFrom: time('startSendTsFrom', 'startOfDay'),
    startSendTo: time('startSendTsTo', 'endOfDay'),
    statusUpdateFrom: time('statusUpdateTsFrom', 'startOfDay'),
    statusUpdateTo: time('statusUpdateTsTo', 'endOfDay'),
    sort: sortOf(params.sort, SORT_FIELDS),
    pagination: paginationOf(params.pagination),
  };
}
