import { apiRuntime } from '../../api-runtime';
import type { Account } from '../../domain/accounts';
import { AppError } from '../../domain/errors';
import type { LinkQuery, LinkSortField } from '../../domain/link-service';
import { parseRequestTs } from '../../domain/time';
import { criteriaOf, paginationOf, scalar, sortOf } from '../list-params';
import { presentLink } from '../present';
import type { Operation } from '../types';

const SORT_FIELDS: readonly LinkSortField[] = ['createTs', 'expirationDate', 'clickCnt', 'code', 'fullLink'];

/** Link/List: criteria, pagination and sort; items carry the fields of Link/Get. */
export const linkList: Operation = async ({ params, account }) => {
  const { links } = apiRuntime();
  const found = await links.list(account, linkQuery(params, account));
  return {
    items: found.items.map((link) => presentLink(link, account, links.shortLinkOf(link.code))),
    totalItemCount: found.totalItemCount,
  };
};

function linkQuery(params: Record<string, unknown>, account: Account): LinkQuery {
  const criteria = criteriaOf(params.criteria);
  const zone = account.timeZone;
  const flagOf = (name: string) => {
    if (criteria[name] === undefined) return undefined;
    const value = scalar(criteria[name], `criteria[${name}]`).trim();
    if (value !== '0' && value !== '1') throw new AppError('limit', `criteria[${name}] must be 0 or 1`);
    return value === '1' ? 1 : 0;
  };
  const timeOf = (name: string, bareDateAs: 'startOfDay' | 'endOfDay') => {
    if (criteria[name] === undefined) return undefined;
    const value = scalar(criteria[name], `criteria[${name}]`).trim();
    const instant = parseRequestTs(value, zone, { allowDate: true, bareDateAs });
    if (typeof instant === 'string') throw new AppError('limit', `criteria[${name}] ${instant}`);
    return instant;
  };
  const query = criteria.query === undefined ? undefined : scalar(criteria.query, 'criteria[query]').trim();
  // Decoding turns what is not UTF-8 into U+FFFD (see text() in params.ts): no search for that is meant.
  if (query?.includes('\ufffd')) throw new AppError('limit', 'criteria[query] must be valid UTF-8 text');
  return {
    status: flagOf('status'),
    moderatorStatus: flagOf('moderatorStatus'),
    createdFrom: timeOf('createTsFrom', 'startOfDay'),
    createdTo: timeOf('createTsTo', 'endOfDay'),
    query: query === '' ? undefined : query,
    sort: sortOf(params.sort, SORT_FIELDS),
    pagination: paginationOf(params.pagination),
  };
}
