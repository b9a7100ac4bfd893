import { apiRuntime } from '../../api-runtime';
import { AppError } from '../../domain/errors';
import { isStatsType, STATS_TYPES } from '../../domain/stats';
import { MAX_STATS_IDS } from '../../domain/stats-service';
import { parseRequestTs } from '../../domain/time';
import { criteriaOf, scalar } from '../list-params';
import { isGiven, listOf } from '../params';
import type { Operation } from '../types';

/** Link/GetStats: `ids` (at most 5), `type`, `criteria[dateFrom]`, `criteria[dateTo]`. */
export const linkGetStats: Operation = async ({ params, account }) => {
  if (!isGiven(params.ids)) throw new AppError('missingParameter', 'The ids parameter is required');
  const ids = listOf(params.ids);
  if (ids === undefined || ids.length === 0) throw new AppError('limit', 'ids must be a list of link ids');
  if (ids.length > MAX_STATS_IDS) throw new AppError('limit', `At most ${MAX_STATS_IDS} link ids per request`);
  const type = typeof params.type === 'string' ? params.type.trim().toLowerCase() : '';
  if (!isStatsType(type)) throw new AppError('limit', `type must be one of ${STATS_TYPES.join(', ')}`);
  const criteria = criteriaOf(params.criteria);
  const moment = (name: 'dateFrom' | 'dateTo') => {
    if (criteria[name] === undefined) return undefined;
    const value = parseRequestTs(scalar(criteria[name], `criteria[${name}]`).trim(), account.timeZone, { allowDate: true });
    if (typeof value === 'string') throw new AppError('limit', `criteria[${name}] ${value}`);
    return value;
  };
  const from = moment('dateFrom');
  const to = moment('dateTo');
  if (from && to && to < from) throw new AppError('limit', 'criteria[dateTo] must not be before criteria[dateFrom]');
  return apiRuntime().stats.linkStats(
    account,
    ids.map((id) => (/^\d{1,15}$/.test(id) ? Number(id) : undefined)),
    type,
    from,
    to,
  );
};
