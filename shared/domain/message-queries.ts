import type { Account } from './accounts';
import type { LinkService } from './link-service';
import type { Link } from './links';
import type { MessageListing, MessageQuery } from './message-listing';
import type { CampaignStore, MessageLists } from './message-ports';
import { notFoundCampaign } from './moderation';

/** The reads of messages and campaigns the API offers: Message/List and Link/GetLinks. */
export class MessageQueries {
  constructor(
    private readonly deps: {
      lists: MessageLists;
      campaigns: Pick<CampaignStore, 'get'>;
      links: Pick<LinkService, 'getMany'>;
    },
  ) {}

  /**
   * Message/List, by the rule of domain/message-listing.ts: the store answers it from its
   * indexes, at a cost that follows the page (docs/data-model.md §4.2).
   */
  list(account: Account, query: MessageQuery): Promise<MessageListing> {
    return this.deps.lists.list(account.id, query);
  }

  /** Link/GetLinks: the links made for the account's campaign; not found for others' campaigns. */
  async campaignLinks(account: Account, campaignId: number): Promise<Link[]> {
    const campaign = await this.deps.campaigns.get(campaignId);
    if (!campaign || campaign.accountId !== account.id) throw notFoundCampaign();
    return this.deps.links.getMany(account, campaign.linkIds);
  }
}
