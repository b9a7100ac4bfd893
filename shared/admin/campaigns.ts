import * as v from 'valibot';
import type { Campaign } from '../domain/campaigns';
import { AppError } from '../domain/errors';
import type { Message } from '../domain/messages';
import type { Moderation } from '../domain/moderation';
import { adminOperation, entityIdField, PAGING } from './operation';

export interface CampaignsDeps {
  campaigns: { get(id: number): Promise<Campaign | undefined> };
  moderation: Pick<Moderation, 'approve' | 'decline'>;
}

export interface HeldCampaignsDeps {
  held: { list(page: number, pageSize: number): Promise<{ items: Campaign[]; totalItemCount: number }> };
  messageStore: { getMany(ids: number[]): Promise<Message[]> };
}

/** A campaign, or a not-found error (the CLI's `campaign show` too). */
export async function campaignById(deps: Pick<CampaignsDeps, 'campaigns'>, id: number): Promise<Campaign> {
  const campaign = await deps.campaigns.get(id);
  if (!campaign) throw new AppError('notFound', 'No such campaign');
  return campaign;
}

/** Campaigns held in MODERATION across accounts, oldest first, each with what its message would send. */
export const campaignsHeld = adminOperation({
  path: 'campaigns/held',
  input: v.strictObject(PAGING),
  run: async ({ page, pageSize }, deps: HeldCampaignsDeps) => {
    const held = await deps.held.list(page, pageSize);
    const messages = new Map((await deps.messageStore.getMany(held.items.map((c) => c.messageId))).map((m) => [m.id, m]));
    return {
      items: held.items.map((campaign) => {
        const message = messages.get(campaign.messageId);
        return { ...campaign, message: message ? { to: message.to, text: message.text, from: message.from } : null };
      }),
      totalItemCount: held.totalItemCount,
    };
  },
});

const CAMPAIGN_ID = v.strictObject({ id: entityIdField('id') });

export const campaignsGet = adminOperation({
  path: 'campaigns/get',
  input: CAMPAIGN_ID,
  run: ({ id }, deps: Pick<CampaignsDeps, 'campaigns'>) => campaignById(deps, id),
});

/** Sends a held campaign (409 when it is not held). */
export const campaignsApprove = adminOperation({
  path: 'campaigns/approve',
  input: CAMPAIGN_ID,
  run: ({ id }, { moderation }: CampaignsDeps) => moderation.approve(id),
});

/** Declines a held campaign: its message becomes REJECTD (409 when it is not held). */
export const campaignsDecline = adminOperation({
  path: 'campaigns/decline',
  input: CAMPAIGN_ID,
  run: ({ id }, { moderation }: CampaignsDeps) => moderation.decline(id),
});
