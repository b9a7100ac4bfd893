import type { Account } from './accounts';
import type { LinkService } from './link-service';
import type { Link } from './links';
import { listMessages, type MessageListing, type MessageQuery, needsCampaigns } from './message-listing';
import type { CampaignStore, MessageRecords } from './message-ports';
import { notFoundCampaign } from './moderation';

/** The reads of messages and campaigns the API offers: Message/List and Link/GetLinks. */
export class MessageQueries {
  constructor(
    private readonly deps: {
      messages: Pick<MessageRecords, 'listByAccount'>;
      campaigns: Pick<CampaignStore, 'get' | 'getMany'>;
      links: Pick<LinkService, 'getMany'>;
    },
  ) {}

  /**
   * Message/List. Reads the account's messages from its index partition (and their
   * campaigns, 100 per read), then filters, sorts and pages in memory: every criterion
   * and sort costs the same, in proportion to the account's messages.
   */
  async list(account: Account, query: MessageQuery): Promise<MessageListing> {
    const all = await this.deps.messages.listByAccount(account.id);
    const campaigns = needsCampaigns(query) ? await this.deps.campaigns.getMany([...new Set(all.map((m) => m.campaignId))]) : [];
    return listMessages(all, new Map(campaigns.map((campaign) => [campaign.id, campaign])), query);
  }

  /** Link/GetLinks: the links made for the account's campaign; not found for others' campaigns. */
  async campaignLinks(account: Account, campaignId: number): Promise<Link[]> {
    const campaign = await this.deps.campaigns.get(campaignId);
    if (!campaign || campaign.accountId !== account.id) throw notFoundCampaign();
    return this.deps.links.getMany(account, campaign.linkIds);
  }
}
