import * as v from 'valibot';
import { AppError } from '../../domain/errors';
import { STATS_TYPES } from '../../domain/stats';
import { MAX_STATS_IDS, type StatsService } from '../../domain/stats-service';
import { criteriaOf, timeCriterion } from '../list-params';
import { idList, isGiven, readParams, withoutBlanks } from '../params';
import type { Operation } from '../types';

export interface LinkGetStatsDeps {
  stats: Pick<StatsService, 'linkStats'>;
}

const IDS_MESSAGE = 'ids must be a list of link ids';
const TYPE_MESSAGE = `type must be one of ${STATS_TYPES.join(', ')}`;

export function statsSchema(zone: string) {
  return v.pipe(
    v.object({
      ids: v.pipe(
        idList(IDS_MESSAGE),
        v.nonEmpty(IDS_MESSAGE),
        v.maxLength(MAX_STATS_IDS, `At most ${MAX_STATS_IDS} link ids per request`),
        // An id that is no positive integer is no link's: it is reported as such, not refused.
        v.transform((ids) => ids.map((id) => (/^\d{1,15}$/.test(id) ? Number(id) : undefined))),
      ),
      // Absent is refused like any other value: no type is the default.
      type: v.optional(v.pipe(v.string(TYPE_MESSAGE), v.trim(), v.toLowerCase(), v.picklist(STATS_TYPES, TYPE_MESSAGE)), ''),
      criteria: criteriaOf({ dateFrom: timeCriterion('dateFrom', zone), dateTo: timeCriterion('dateTo', zone) }),
    }),
    v.check(
      ({ criteria: { dateFrom, dateTo } }) => !(dateFrom && dateTo && dateTo < dateFrom),
      'criteria[dateTo] must not be before criteria[dateFrom]',
    ),
  );
}

/** Link/GetStats: `ids` (at most 5), `type`, `criteria[dateFrom]`, `criteria[dateTo]`. */
export const linkGetStats: Operation<LinkGetStatsDeps> = async ({ params, account, deps: { stats } }) => {
  if (!isGiven(params.ids)) throw new AppError('missingParameter', 'The ids parameter is required');
  const { ids, type, criteria } = readParams(statsSchema(account.timeZone), withoutBlanks(params));
  return stats.linkStats(account, ids, type, criteria.dateFrom, criteria.dateTo);
};
