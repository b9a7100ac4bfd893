import type { Account } from '../domain/accounts';
import type { Link } from '../domain/links';
import { formatResponseTs } from '../domain/time';

/**
 * A link with exactly the fields of Link/Get (interface spec §4.3), in the spec's order,
 * plus `redirectCnt` after `clickCnt`, as the live service answers it.
 */
export function presentLink(link: Link, account: Account, shortLink: string) {
  return {
    id: link.id,
    status: link.status,
    moderatorStatus: link.moderatorStatus,
    clickCnt: link.clickCnt,
    redirectCnt: link.redirectCnt,
    createTs: formatResponseTs(link.createdAt, account.timeZone),
    expirationDate: link.expirationDate,
    code: link.code,
    fullLink: link.fullLink,
    shortLink,
    comment: link.comment,
    moderatorComment: link.moderatorComment,
  };
}
