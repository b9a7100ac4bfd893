/** Campaign statuses (SPEC §6). */
export const CAMPAIGN_STATUSES = ['NEW', 'MODERATION', 'DECLINED', 'READY_FOR_SEND', 'AUTO_READY_FOR_SEND', 'RUNNING', 'SENT', 'DONE'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const MAX_CAMPAIGN_NAME_LENGTH = 255;

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

/** Work due at a given minute: sending a deferred campaign, or expiring an undelivered message. */
export type ScheduledTask =
  | { kind: 'send'; campaignId: number; messageId: number }
  | { kind: 'expire'; messageId: number /** when its validity runs out */; at: string }
  /** A check that a message handed to the send queue got to the gateway (or is flagged). */
  | { kind: 'recover'; messageId: number /** when to look */; at: string }
  /** A delivery-report webhook event's next try (domain/webhooks.ts). */
  | { kind: 'webhook'; eventId: string; at: string };

/** SendSmsMessage's `status`: 1 when the campaign waits for moderation, 2 otherwise. */
export function submissionStatus(campaign: Campaign): 1 | 2 {
  return campaign.status === 'MODERATION' ? 1 : 2;
}
