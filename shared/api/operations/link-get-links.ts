import { apiRuntime } from '../../api-runtime';
import { AppError } from '../../domain/errors';
import { isGiven } from '../params';
import type { Operation } from '../types';

/** Link/GetLinks: the links of the account's campaign, with click and redirect counts. */
export const linkGetLinks: Operation = async ({ params, account }) => {
  if (!isGiven(params.campaignId)) throw new AppError('missingParameter', 'The campaignId parameter is required');
  const raw = typeof params.campaignId === 'string' ? params.campaignId.trim() : '';
  if (!/^\d{1,15}$/.test(raw)) throw new AppError('notFound', 'Campaign not found');
  const { messages, links } = apiRuntime();
  return (await messages.campaignLinks(account, Number(raw))).map((link) => ({
    id: link.id,
    code: link.code,
    fullLink: link.fullLink,
    shortLink: links.shortLinkOf(link.code),
    clickCnt: link.clickCnt,
    redirectCnt: link.redirectCnt,
    comment: link.comment,
  }));
};
