import * as v from 'valibot';
import type { LinkService, LinkSortField } from '../../domain/link-service';
import { criteriaOf, criterion, flagCriterion, pagination, sortOf, timeCriterion } from '../list-params';
import { readParams, withoutBlanks } from '../params';
import { presentLink } from '../present';
import type { Operation } from '../types';

export interface LinkListDeps {
  links: Pick<LinkService, 'list' | 'shortLinkOf'>;
}

const SORT_FIELDS: readonly LinkSortField[] = ['createTs', 'expirationDate', 'clickCnt', 'code', 'fullLink'];

/** The parameters of Link/List; times are read in the account's zone. */
export function linkListSchema(zone: string) {
  return v.object({
    criteria: criteriaOf({
      query: v.optional(
        v.pipe(
          criterion('query'),
          v.trim(),
          // Decoding turns what is not UTF-8 into U+FFFD (see text() in params.ts): no search for that is meant.
          v.check((query) => !query.includes('\ufffd'), 'criteria[query] must be valid UTF-8 text'),
          v.transform((query) => (query === '' ? undefined : query)),
        ),
      ),
      status: flagCriterion('status'),
      moderatorStatus: flagCriterion('moderatorStatus'),
      createTsFrom: timeCriterion('createTsFrom', zone, 'startOfDay'),
      createTsTo: timeCriterion('createTsTo', zone, 'endOfDay'),
    }),
    sort: sortOf(SORT_FIELDS),
    pagination,
  });
}

/** Link/List: criteria, pagination and sort; items carry the fields of Link/Get. */
export const linkList: Operation<LinkListDeps> = async ({ params, account, deps: { links } }) => {
  const { criteria, sort, pagination } = readParams(linkListSchema(account.timeZone), withoutBlanks(params));
  const found = await links.list(account, {
    status: criteria.status,
    moderatorStatus: criteria.moderatorStatus,
    createdFrom: criteria.createTsFrom,
    createdTo: criteria.createTsTo,
    query: criteria.query,
    sort,
    pagination,
  });
  return {
    items: found.items.map((link) => presentLink(link, account, links.shortLinkOf(link.code))),
    totalItemCount: found.totalItemCount,
  };
};
