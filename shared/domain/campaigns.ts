/** Campaign statuses (SPEC §6). */
export const CAMPAIGN_STATUSES = ['NEW', 'MODERATION', 'DECLINED', 'READY_FOR_SEND', 'AUTO_READY_FOR_SEND', 'RUNNING', 'SENT', 'DONE'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Each send makes a campaign that holds that one message. */
export interface Campaign {
  id: number;
  accountId: number;
  messageId: number;
  name: string | null;
  status: CampaignStatus;
  /** Links made by params[shortenLinks] for this campaign's text. */
  linkIds: number[];
  createdAt: string;
  /** When the message went to the gateway; null before. */
  sentAt: string | null;
  /** Deferred sending time (UTC instant), or null to send at once. */
  deferredTo: string | null;
}

/** SendSmsMessage's `status`: 1 when the campaign waits for moderation, 2 otherwise. */
export function submissionStatus(campaign: Campaign): 1 | 2 {
  return campaign.status === 'MODERATION' ? 1 : 2;
}
