import type { Campaign, CampaignStatus } from './campaigns';
import type { CampaignState, MessageListing, MessageQuery } from './message-listing';
import type { MessageStatus } from './message-status';
import type { Message } from './messages';
import type { ScheduleStore } from './scheduler';

/** Campaigns as the message services read and move them; shared/store/campaigns-repo.ts implements it. */
export interface CampaignStore {
  create(campaign: Campaign): Promise<void>;
  get(id: number): Promise<Campaign | undefined>;
  getMany(ids: number[]): Promise<Campaign[]>;
  /** Moves the campaign to `status` from one of `from`; with `sentAt`, also records it unless already there. */
  move(id: number, from: CampaignStatus[], status: CampaignStatus, sentAt?: string): Promise<Campaign | undefined>;
  /** Records when the campaign's message went out, once. */
  noteSent(id: number, sentAt: string): Promise<void>;
}

/** Messages as sending and recovery see them; shared/store/messages-repo.ts implements it. */
export interface MessageRecords {
  /** A new message, with its campaign's state copied onto it (what the list criteria on the campaign read). */
  create(message: Message, campaign: CampaignState): Promise<void>;
  get(id: number): Promise<Message | undefined>;
  /** Flags a claimed message whose submit never got an answer (see SmsDispatcher). */
  markAmbiguous(id: number, reason: string, at: Date): Promise<void>;
  /** Moves the message to `status` unless it is further along; the message after, or undefined. */
  applyStatus(id: number, status: MessageStatus, at: Date): Promise<Message | undefined>;
}

/** Message/List over the account's messages; shared/store/message-lists.ts answers it from the indexes. */
export interface MessageLists {
  list(accountId: number, query: MessageQuery): Promise<MessageListing>;
}

/** The send queue the SMS worker reads. */
export interface SendQueue {
  enqueue(messageId: number): Promise<void>;
}

/** The webhook queue the webhook worker reads. */
export interface WebhookQueue {
  enqueue(eventId: string): Promise<void>;
}

/** Everything the message services write through: wrapped as one for fault tests (shared/local/crash-point.ts). */
export interface SendingPorts {
  campaigns: CampaignStore;
  messages: MessageRecords;
  schedule: ScheduleStore;
  sendQueue: SendQueue;
}
