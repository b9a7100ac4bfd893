import type { Account } from '../../domain/accounts';
import { AppError } from '../../domain/errors';
import type { LinkService } from '../../domain/link-service';
import type { Link } from '../../domain/links';
import { entityId, isGiven, readParams } from '../params';
import type { Operation } from '../types';

export interface LinkGetLinksDeps {
  /** Not found (code 404) for a campaign of another account, as for one that does not exist. */
  messageQueries: { campaignLinks(account: Account, campaignId: number): Promise<Link[]> };
  links: Pick<LinkService, 'shortLinkOf'>;
}

/** `campaignId`: any text that is no entity id names no campaign of the account. */
export const campaignIdSchema = entityId('Campaign not found');

/** Link/GetLinks: the links of the account's campaign, with click and redirect counts. */
export const linkGetLinks: Operation<LinkGetLinksDeps> = async ({ params, account, deps: { messageQueries, links } }) => {
  if (!isGiven(params.campaignId)) throw new AppError('missingParameter', 'The campaignId parameter is required');
  const campaignId = readParams(campaignIdSchema, params.campaignId, 'notFound');
  return (await messageQueries.campaignLinks(account, campaignId)).map((link) => ({
    id: link.id,
    code: link.code,
    fullLink: link.fullLink,
    shortLink: links.shortLinkOf(link.code),
    clickCnt: link.clickCnt,
    redirectCnt: link.redirectCnt,
    comment: link.comment,
  }));
};
