import type { Account } from '../../shared/domain/accounts';
import { EMPTY_SENDING_SETTINGS } from '../../shared/domain/accounts';
import type { Campaign, ScheduledTask } from '../../shared/domain/campaigns';
import type { Link } from '../../shared/domain/links';
import { campaignStateOf, listMessages } from '../../shared/domain/message-listing';
import type { CampaignStore, MessageLists, MessageRecords, SendingPorts } from '../../shared/domain/message-ports';
import { canMoveTo, type MessageStatus } from '../../shared/domain/message-status';
import type { Message } from '../../shared/domain/messages';
import type { ScheduleStore } from '../../shared/domain/scheduler';
import type { MessageStore } from '../../shared/domain/sms-dispatcher';
import { aLink, anAccount } from './fixtures';

/**
 * The message ports in memory, for unit tests of the domain: campaigns, messages, the
 * schedule and the send queue, with `writes` naming every change in the order it was made
 * (as shared/local/crash-point.ts names the steps; a conditional write that did not hold
 * changes nothing and is not listed).
 */
export function memoryPorts(writes: string[] = []) {
  const campaigns = new Map<number, Campaign>();
  const messages = new Map<number, Message>();
  const tasks = new Map<string, Map<string, ScheduledTask>>();
  const queued: number[] = [];
  const state = { sweptUntil: undefined as string | undefined };

  const campaignStore: CampaignStore = {
    async create(campaign) {
      if (campaigns.has(campaign.id)) throw new Error(`Campaign ${campaign.id} exists`);
      campaigns.set(campaign.id, { ...campaign });
      writes.push('createCampaign');
    },
    get: async (id) => copy(campaigns.get(id)),
    getMany: async (ids) => ids.flatMap((id) => copy(campaigns.get(id)) ?? []),
    async move(id, from, status, sentAt) {
      const campaign = campaigns.get(id);
      if (!campaign || !from.includes(campaign.status)) return undefined;
      campaign.status = status;
      if (sentAt !== undefined) campaign.sentAt ??= sentAt;
      writes.push(`moveCampaign:${status}`);
      return { ...campaign };
    },
    async noteSent(id, sentAt) {
      const campaign = campaigns.get(id);
      if (!campaign) return;
      campaign.sentAt ??= sentAt;
      writes.push('noteCampaignSent');
    },
  };

  const move = (id: number, status: MessageStatus, at: Date, fields: Partial<Message> = {}): Message | undefined => {
    const message = messages.get(id);
    if (!message || !canMoveTo(message.status, status)) return undefined;
    Object.assign(message, fields, { status, statusUpdatedAt: at.toISOString() });
    return { ...message };
  };
  const messageStore: MessageRecords & MessageStore = {
    async create(message) {
      if (messages.has(message.id)) throw new Error(`Message ${message.id} exists`);
      messages.set(message.id, { ...message });
      writes.push('createMessage');
    },
    get: async (id) => copy(messages.get(id)),
    async markAmbiguous(id, reason) {
      const message = messages.get(id);
      if (message?.status !== 'ENQUEUD') return;
      Object.assign(message, { submitState: 'ambiguous', submitProblem: reason });
      writes.push('markAmbiguous');
    },
    async applyStatus(id, status, at) {
      const moved = move(id, status, at);
      if (moved) writes.push(`setMessageStatus:${status}`);
      return moved;
    },
    async claimForSend(id, at) {
      const claimed = move(id, 'ENQUEUD', at);
      if (claimed) writes.push('claimForSend');
      return claimed;
    },
    async markAccepted(id, gateway, gatewayMessageId, at) {
      const accepted = move(id, 'ACCEPTD', at, { gateway, gatewayMessageId, startSendAt: at.toISOString() });
      if (accepted) writes.push('markAccepted');
      return accepted;
    },
    findByGatewayId: async (gateway, gatewayMessageId) =>
      [...messages.values()].find((m) => m.gateway === gateway && m.gatewayMessageId === gatewayMessageId)?.id,
    recordPartStatus: async () => {
      throw new Error('Not kept in memory');
    },
    recordSmscMessageId: async () => {
      throw new Error('Not kept in memory');
    },
  };

  const schedule: ScheduleStore = {
    async schedule(minute, task) {
      if (!tasks.has(minute)) tasks.set(minute, new Map());
      tasks.get(minute)?.set(taskKey(task), { ...task });
      writes.push(`schedule:${task.kind}`);
    },
    dueIn: async (minute) => [...(tasks.get(minute)?.values() ?? [])].map((task) => ({ ...task })),
    async unschedule(minute, task) {
      if (tasks.get(minute)?.delete(taskKey(task))) writes.push(`unschedule:${task.kind}`);
    },
    sweptUntil: async () => state.sweptUntil,
    async setSweptUntil(minute) {
      state.sweptUntil = minute;
      writes.push(`setSweptUntil:${minute}`);
    },
  };

  const ports: SendingPorts = {
    campaigns: campaignStore,
    messages: messageStore,
    schedule,
    sendQueue: {
      async enqueue(messageId) {
        queued.push(messageId);
        writes.push('enqueue');
      },
    },
  };
  /** Every task in the schedule as `minute kind id`. */
  const scheduled = () => [...tasks].flatMap(([minute, due]) => [...due.keys()].map((key) => `${minute} ${key}`)).sort();
  /** Message/List by the pure rule, over the messages and their campaigns as they are now. */
  const messageLists: MessageLists = {
    list: async (accountId, query) =>
      listMessages(
        [...messages.values()].filter((message) => message.accountId === accountId),
        new Map([...campaigns.values()].map((campaign) => [campaign.id, campaignStateOf(campaign)])),
        query,
      ),
  };
  return { ports, writes, campaigns, messages, messageStore, messageLists, queued, scheduled, state };
}

function taskKey(task: ScheduledTask): string {
  if (task.kind === 'send') return `send ${task.campaignId}`;
  if (task.kind === 'webhook') return `webhook ${task.eventId}`;
  return `${task.kind} ${task.messageId}`;
}

function copy<T extends object>(value: T | undefined): T | undefined {
  return value && { ...value };
}

/** Ids counting up from `first`, as the id allocator hands them out. */
export function countingIds(first: number) {
  let next = first;
  const source = {
    drawn: 0,
    next: async () => {
      source.drawn++;
      return next++;
    },
  };
  return source;
}

/** A link service that only makes links, in memory, naming each in `writes`. */
export function memoryLinks(writes: string[]) {
  const made: Link[] = [];
  return {
    made,
    shortLinkOf: (code: string) => `https://sho.rt/${code}`,
    async create(account: Account, input: { fullLink: string; campaignId?: number | null; trackingCode?: string | null }): Promise<Link> {
      const link = aLink({
        id: made.length + 1,
        accountId: account.id,
        code: `c${made.length + 1}`,
        fullLink: input.fullLink,
        createdAt: '2026-11-22T10:00:00.000Z',
        campaignId: input.campaignId ?? null,
        trackingCode: input.trackingCode ?? null,
      });
      made.push(link);
      writes.push('createLink');
      return link;
    },
  };
}

export const T0 = new Date('2026-11-22T10:00:00Z');

export const ACCOUNT: Account = anAccount({ id: 7, createdAt: T0.toISOString(), sending: { ...EMPTY_SENDING_SETTINGS, tariff: { '*': 0.05 } } });

/** A campaign and its message as SendSmsMessage stores them. */
export function storedCampaign(
  id: number,
  campaign: Partial<Campaign> = {},
  message: Partial<Message> = {},
): { campaign: Campaign; message: Message } {
  return {
    campaign: {
      id,
      accountId: ACCOUNT.id,
      messageId: id,
      name: null,
      status: 'RUNNING',
      linkIds: [],
      createdAt: T0.toISOString(),
      sentAt: null,
      deferredTo: null,
      ...campaign,
    },
    message: {
      id,
      accountId: ACCOUNT.id,
      campaignId: id,
      from: 'SMSService',
      to: '447400123450',
      text: 'Hi',
      segNum: 1,
      segUserBuy: 0.05,
      status: 'NEW',
      uuid: `u${id}`,
      countryA2: 'GB',
      validityMinutes: 60,
      createdAt: T0.toISOString(),
      startSendAt: null,
      statusUpdatedAt: null,
      gateway: null,
      gatewayMessageId: null,
      submitState: null,
      ...message,
    },
  };
}
