import { ulid } from 'ulid';
import type { Account } from './accounts';
import { type Campaign, type CampaignStatus, type ScheduledTask, submissionStatus } from './campaigns';
import { AppError, invalidField } from './errors';
import { fullLinkProblem } from './full-link-rules';
import type { IdSource, LinkService } from './link-service';
import type { Link } from './links';
import { isFinal, type MessageStatus } from './message-status';
import type { Message } from './messages';
import { type Pagination, page, type SortOrder, sortBy } from './paging';
import { checkRecipient } from './phone';
import { countSegments, MAX_SEGMENTS } from './segments';
import { resolveSender, segmentPrice } from './senders';
import { ABANDONED_CLAIM_MS, isAbandonedClaim } from './sms-dispatcher';
import { type Clock, utcMinuteOf } from './time';

export interface SendInput {
  recipient: string;
  text: string;
  from?: string;
  name?: string;
  /** Deferred sending time; must lie 1 hour to 14 days ahead. */
  deferredTo?: Date;
  shortenLinks: boolean;
  validityMinutes: number;
}

/** What sending needs from storage and the queue; the store and queue modules implement it. */
export interface SendingPorts {
  createMessage(message: Message): Promise<void>;
  createCampaign(campaign: Campaign): Promise<void>;
  getCampaign(id: number): Promise<Campaign | undefined>;
  /** With `sentAt`, the campaign's sending time is recorded in the same write, unless already there. */
  moveCampaign(id: number, from: CampaignStatus[], status: CampaignStatus, sentAt?: string): Promise<Campaign | undefined>;
  /** Records when the campaign's message went out, once. */
  noteCampaignSent(id: number, sentAt: string): Promise<void>;
  schedule(minute: string, task: ScheduledTask): Promise<void>;
  dueIn(minute: string): Promise<ScheduledTask[]>;
  unschedule(minute: string, task: ScheduledTask): Promise<void>;
  /** The last minute whose deferred campaigns were all released (`2026-11-22T10:05`). */
  sweptUntil(): Promise<string | undefined>;
  setSweptUntil(minute: string): Promise<void>;
  enqueue(messageId: number): Promise<void>;
  getMessage(id: number): Promise<Message | undefined>;
  /** Hands a webhook event whose try is due to the webhook queue. */
  enqueueWebhook(eventId: string): Promise<void>;
  /** Flags a claimed message whose submit never got an answer (see SmsDispatcher). */
  markAmbiguous(id: number, reason: string, at: Date): Promise<void>;
  listMessages(accountId: number): Promise<Message[]>;
  setMessageStatus(id: number, status: MessageStatus, at: Date): Promise<Message | undefined>;
  getCampaigns(ids: number[]): Promise<Campaign[]>;
}

export type MessageSortField = 'campaignId' | 'from' | 'to' | 'text' | 'status' | 'startSendTs' | 'statusUpdateTs' | 'segNum';

/** Message/List criteria; times are instants, already read in the account's zone. */
export interface MessageQuery {
  campaignIds?: number[];
  from?: string;
  /** Substring of the recipient number. */
  to?: string;
  /** The whole text. */
  text?: string;
  status?: MessageStatus;
  /** Contact groups: there is no contact book yet, so any group matches nothing. */
  groups?: string[];
  campaignStatus?: CampaignStatus | 'NOT_YET_SENT' | 'DEFERRED';
  campaignCreatedFrom?: Date;
  campaignCreatedTo?: Date;
  campaignSentFrom?: Date;
  campaignSentTo?: Date;
  startSendFrom?: Date;
  startSendTo?: Date;
  statusUpdateFrom?: Date;
  statusUpdateTo?: Date;
  sort: SortOrder<MessageSortField>;
  pagination: Pagination;
}

const NOT_YET_SENT: ReadonlySet<CampaignStatus> = new Set(['NEW', 'MODERATION', 'READY_FOR_SEND', 'AUTO_READY_FOR_SEND']);

export const MIN_DEFER_MS = 60 * 60_000;
/** How far back the deferred sweeper looks after downtime. */
export const SWEEP_LOOKBACK_MS = 24 * 60 * 60_000;
const FIRST_SWEEP_LOOKBACK_MS = 60 * 60_000;
/** When a handed-off message is checked: once any claim on it would count as abandoned. */
export const RECOVERY_CHECK_MS = ABANDONED_CLAIM_MS + 60_000;
export const MAX_DEFER_MS = 14 * 24 * 60 * 60_000;

/** URLs as people write them in texts; trailing punctuation is not part of them. */
const URL_IN_TEXT = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;

export class MessageService {
  constructor(
    private readonly deps: {
      ports: SendingPorts;
      links: LinkService;
      campaignIds: IdSource;
      messageIds: IdSource;
      clock: Clock;
      /** The shared service signature used when an account has no usable one. */
      serviceSignature: string;
      /** Hostname of `{short_link_base}`, whose links are not shortened again. */
      shortLinkHost: string;
      /** Told of every status change, whatever made it (a report, an expiry, a decline): webhooks. */
      statusListener?: (message: Message) => Promise<void>;
    },
  ) {}

  /** Message/SendSmsMessage: validates everything first, then writes; a refused send writes nothing. */
  async send(account: Account, input: SendInput): Promise<{ campaignId: number; messageId: number; status: 1 | 2 }> {
    const now = this.deps.clock();
    const recipient = checkRecipient(input.recipient);
    if (!recipient.ok) throw invalidField('recipient', recipient.problem);
    const from = resolveSender(account, input.from, this.deps.serviceSignature);
    const price = segmentPrice(account.sending, recipient.countryA2);
    if (price === undefined) throw invalidField('recipient', `Sending to ${recipient.countryA2} is not enabled for this account`);
    if (input.deferredTo) {
      const ahead = input.deferredTo.getTime() - now.getTime();
      if (ahead < MIN_DEFER_MS || ahead > MAX_DEFER_MS) throw invalidField('deferredToTs', 'Deferred sending must be 1 hour to 14 days ahead');
    }
    const urls = input.shortenLinks ? this.#shortenable(input.text) : [];
    // Short links are 4+ characters on the base; count segments with the longest they can be.
    this.#assertSegments(input.text, urls, this.deps.links.shortLinkOf('xxxxxxxxxx'));

    const campaignId = await this.deps.campaignIds.next();
    const messageId = await this.deps.messageIds.next();
    const moderated = account.sending.moderation === 'all';
    // What releases the message is written before anything else, so a send stopped at any
    // instant leaves nothing to recover without it: the recovery check of a hand-off, or the
    // deferred send. One for a message never written does nothing and is removed.
    // (A held message waits for an administrator; approving it writes its task then.)
    if (!moderated) {
      if (input.deferredTo) await this.deps.ports.schedule(utcMinuteOf(input.deferredTo), { kind: 'send', campaignId, messageId });
      else await this.#scheduleCheck(messageId);
    }
    const uuid = ulid();
    let text = input.text;
    const linkIds: number[] = [];
    for (const url of new Set(urls)) {
      const link = await this.deps.links.create(account, { fullLink: url, campaignId, trackingCode: uuid });
      linkIds.push(link.id);
      text = text.split(url).join(this.deps.links.shortLinkOf(link.code));
    }
    const { segments } = countSegments(text);
    const campaign: Campaign = {
      id: campaignId,
      accountId: account.id,
      messageId,
      name: input.name ?? null,
      status: moderated ? 'MODERATION' : input.deferredTo ? 'READY_FOR_SEND' : 'RUNNING',
      linkIds,
      createdAt: now.toISOString(),
      sentAt: null,
      deferredTo: input.deferredTo?.toISOString() ?? null,
    };
    const message: Message = {
      id: messageId,
      accountId: account.id,
      campaignId,
      from,
      to: recipient.number,
      text,
      segNum: segments,
      segUserBuy: price,
      status: 'NEW',
      uuid,
      countryA2: recipient.countryA2,
      validityMinutes: input.validityMinutes,
      createdAt: now.toISOString(),
      startSendAt: null,
      statusUpdatedAt: null,
      gateway: null,
      gatewayMessageId: null,
      submitState: null,
    };
    // The campaign first: a message is only ever found with its campaign in place.
    await this.deps.ports.createCampaign(campaign);
    await this.deps.ports.createMessage(message);
    if (!moderated && !input.deferredTo) await this.deps.ports.enqueue(messageId);
    return { campaignId, messageId, status: submissionStatus(campaign) };
  }

  /**
   * The durable check of a hand-off to the send queue, written before the hand-off and
   * before anything it recovers: a queue message lost with the process that held it (the
   * local in-memory queue) or never delivered is sent again, and a claim whose worker died
   * before submitting is flagged ambiguous, never resent.
   */
  async #scheduleCheck(messageId: number): Promise<void> {
    const at = new Date(this.deps.clock().getTime() + RECOVERY_CHECK_MS);
    await this.deps.ports.schedule(utcMinuteOf(at), { kind: 'recover', messageId, at: at.toISOString() });
  }

  /** Puts a message on the send queue, its check written first. */
  async #handOff(messageId: number): Promise<void> {
    await this.#scheduleCheck(messageId);
    await this.deps.ports.enqueue(messageId);
  }

  /**
   * The recovery check of a hand-off (#scheduleCheck); for a message never written, nothing.
   * A message the gateway took but has not settled by then gets its expiry check (SPEC §6:
   * undelivered past its validity, it expires); most are settled already, and cost nothing more.
   */
  async #recover(messageId: number, now: Date): Promise<void> {
    const message = await this.deps.ports.getMessage(messageId);
    if (message?.status === 'NEW') await this.#handOff(messageId);
    else if (message && message.gatewayMessageId !== null && !isFinal(message.status)) {
      const expiresAt = new Date(Date.parse(message.startSendAt ?? message.statusUpdatedAt ?? message.createdAt) + message.validityMinutes * 60_000);
      await this.deps.ports.schedule(utcMinuteOf(expiresAt), { kind: 'expire', messageId: message.id, at: expiresAt.toISOString() });
    } else if (message && isAbandonedClaim(message, now)) {
      await this.deps.ports.markAmbiguous(messageId, 'The send attempt stopped between its claim and the gateway answer', now);
    } else if (message?.status === 'ENQUEUD' && message.gatewayMessageId === null && message.submitState === null) {
      // Claimed recently (a redelivery after a slow start): look again once the claim is old enough.
      const at = new Date(Date.parse(message.statusUpdatedAt ?? message.createdAt) + RECOVERY_CHECK_MS);
      await this.deps.ports.schedule(utcMinuteOf(at), { kind: 'recover', messageId, at: at.toISOString() });
    }
  }

  /**
   * Releases deferred campaigns that are due: one Query per minute since the last sweep
   * (never a scan), so campaigns due while the service was down go out when it is back.
   * The campaign's move READY_FOR_SEND → RUNNING is the claim: each goes out once even
   * if two sweeps overlap. Runs every 20 s locally, every minute on AWS.
   */
  async releaseDue(): Promise<number> {
    const { ports } = this.deps;
    const now = this.deps.clock();
    const currentMinute = utcMinuteOf(now);
    const swept = await ports.sweptUntil();
    // Catch-up reaches back at most SWEEP_LOOKBACK_MS: a campaign due longer ago than that
    // (the service was down for weeks) is left alone rather than sent so late.
    // A table never swept (a fresh install) reaches back an hour: its tasks were all written
    // ahead of their time, minutes before the first sweep at the latest.
    const earliest = utcMinuteOf(new Date(now.getTime() - (swept ? SWEEP_LOOKBACK_MS : FIRST_SWEEP_LOOKBACK_MS)));
    let minute = swept && nextMinute(swept) > earliest ? nextMinute(swept) : earliest;
    let released = 0;
    for (; minute <= currentMinute; minute = nextMinute(minute)) {
      for (const task of await ports.dueIn(minute)) {
        if (task.kind === 'webhook') {
          if (Date.parse(task.at) > now.getTime()) continue; // later this minute
          await ports.enqueueWebhook(task.eventId);
          await ports.unschedule(minute, task);
          continue;
        }
        if (task.kind === 'recover') {
          if (Date.parse(task.at) > now.getTime()) continue; // later this minute
          await this.#recover(task.messageId, now);
          await ports.unschedule(minute, task);
          continue;
        }
        if (task.kind === 'expire') {
          if (Date.parse(task.at) > now.getTime()) continue; // later this minute
          // Only a message still waiting for its report expires; a final one keeps its status.
          const expired = await ports.setMessageStatus(task.messageId, 'EXPIRED', new Date(task.at));
          if (expired) await this.onMessageStatus(expired);
          await ports.unschedule(minute, task);
          continue;
        }
        const campaign = await ports.getCampaign(task.campaignId);
        if (campaign?.deferredTo && Date.parse(campaign.deferredTo) > now.getTime()) continue; // later this minute
        // Approval writes the task before it moves the campaign out of moderation: left for the next sweep.
        if (campaign?.status === 'MODERATION') continue;
        if (campaign?.status === 'READY_FOR_SEND') {
          // The check before the claim: once RUNNING, the campaign is no longer this task's to release.
          await this.#scheduleCheck(task.messageId);
          if (await ports.moveCampaign(task.campaignId, ['READY_FOR_SEND'], 'RUNNING')) {
            await ports.enqueue(task.messageId);
            released++;
          }
        }
        await ports.unschedule(minute, task);
      }
    }
    // The current minute may still hold campaigns due later in it: it is swept again next time.
    await ports.setSweptUntil(previousMinute(currentMinute));
    return released;
  }

  /**
   * Message/List. Reads the account's messages from its index partition (and their
   * campaigns, 100 per read), then filters, sorts and pages in memory: every criterion
   * and sort costs the same, in proportion to the account's messages.
   */
  async list(
    account: Account,
    query: MessageQuery,
  ): Promise<{ items: { message: Message; campaign: Campaign | undefined }[]; totalItemCount: number }> {
    const { ports } = this.deps;
    const all = await ports.listMessages(account.id);
    const needsCampaigns = query.campaignStatus !== undefined || query.campaignSentFrom !== undefined || query.campaignSentTo !== undefined;
    const campaigns = new Map(needsCampaigns ? (await ports.getCampaigns([...new Set(all.map((m) => m.campaignId))])).map((c) => [c.id, c]) : []);
    const within = (value: string | null | undefined, from?: Date, to?: Date) =>
      (from === undefined && to === undefined) ||
      (value != null && (from === undefined || Date.parse(value) >= from.getTime()) && (to === undefined || Date.parse(value) <= to.getTime()));
    const campaignIds = query.campaignIds ? new Set(query.campaignIds) : undefined;
    const matching = all.filter((message) => {
      const campaign = campaigns.get(message.campaignId);
      return (
        (campaignIds === undefined || campaignIds.has(message.campaignId)) &&
        (query.from === undefined || message.from === query.from) &&
        (query.to === undefined || message.to.includes(query.to)) &&
        (query.text === undefined || message.text === query.text) &&
        (query.status === undefined || message.status === query.status) &&
        (query.groups === undefined || query.groups.length === 0) &&
        matchesCampaignStatus(campaign, query.campaignStatus) &&
        within(message.createdAt, query.campaignCreatedFrom, query.campaignCreatedTo) &&
        within(campaign?.sentAt, query.campaignSentFrom, query.campaignSentTo) &&
        within(message.startSendAt, query.startSendFrom, query.startSendTo) &&
        within(message.statusUpdatedAt, query.statusUpdateFrom, query.statusUpdateTo)
      );
    });
    // Newest first by default, and as the last tie-break.
    const order: SortOrder<MessageSortField | 'id'> = [...query.sort, { field: 'id', direction: 'DESC' }];
    const sorted = sortBy(matching, order, messageSortValue);
    return {
      items: page(sorted, query.pagination).map((message) => ({ message, campaign: campaigns.get(message.campaignId) })),
      totalItemCount: matching.length,
    };
  }

  /**
   * An administrator approves a campaign held for moderation. It is scheduled, for its
   * deferred time or for now, and the sweeper sends it: approval works from any process,
   * the admin CLI included, without reaching the send queue itself. The task is written
   * before the campaign leaves moderation, so an approval stopped between the two leaves
   * it held (approve it again), never approved with nothing to send it.
   */
  async approveCampaign(campaignId: number): Promise<Campaign> {
    const held = await this.deps.ports.getCampaign(campaignId);
    if (!held) throw notFoundCampaign();
    if (held.status !== 'MODERATION') throw notHeld(held);
    await this.deps.ports.schedule(utcMinuteOf(held.deferredTo ? new Date(held.deferredTo) : this.deps.clock()), sendTask(held));
    const campaign = await this.deps.ports.moveCampaign(campaignId, ['MODERATION'], 'READY_FOR_SEND');
    // Decided meanwhile (declined, or approved by another call): the task stays, and the
    // sweeper releases the campaign once if it is READY_FOR_SEND, or removes the task.
    if (!campaign) throw notHeld((await this.deps.ports.getCampaign(campaignId)) ?? held);
    return campaign;
  }

  /**
   * An administrator declines a campaign held for moderation: its message REJECTD, then
   * the campaign DECLINED. The message first: a decline stopped between the two leaves a
   * final message and a campaign still held (decline it again), never a message left NEW.
   */
  async declineCampaign(campaignId: number): Promise<Campaign> {
    const held = await this.deps.ports.getCampaign(campaignId);
    if (!held) throw notFoundCampaign();
    if (held.status !== 'MODERATION') throw notHeld(held);
    const rejected = await this.deps.ports.setMessageStatus(held.messageId, 'REJECTD', this.deps.clock());
    if (rejected) await this.deps.statusListener?.(rejected);
    const campaign = await this.deps.ports.moveCampaign(campaignId, ['MODERATION'], 'DECLINED');
    if (!campaign) throw notHeld((await this.deps.ports.getCampaign(campaignId)) ?? held);
    return campaign;
  }

  /** Link/GetLinks: the links made for the account's campaign; not found for others' campaigns. */
  async campaignLinks(account: Account, campaignId: number): Promise<Link[]> {
    const campaign = await this.deps.ports.getCampaign(campaignId);
    if (!campaign || campaign.accountId !== account.id) throw notFoundCampaign();
    return this.deps.links.getMany(account, campaign.linkIds);
  }

  /** Keeps the campaign in step with its message: SENT once accepted, DONE once final. */
  async onMessageStatus(message: Message): Promise<void> {
    const { ports } = this.deps;
    const sentAt = message.startSendAt ?? undefined;
    let moved = false;
    if (message.status === 'ACCEPTD') {
      moved = Boolean(await ports.moveCampaign(message.campaignId, ['RUNNING', 'READY_FOR_SEND', 'AUTO_READY_FOR_SEND'], 'SENT', sentAt));
    }
    if (isFinal(message.status)) {
      moved = Boolean(await ports.moveCampaign(message.campaignId, ['RUNNING', 'READY_FOR_SEND', 'AUTO_READY_FOR_SEND', 'SENT'], 'DONE', sentAt));
    }
    // Reports may come in any order: the first sending time is kept even when the campaign had moved on.
    if (sentAt && !moved && (message.status === 'ACCEPTD' || isFinal(message.status))) await ports.noteCampaignSent(message.campaignId, sentAt);
    await this.deps.statusListener?.(message);
  }

  #shortenable(text: string): string[] {
    const urls: string[] = [];
    for (const match of text.matchAll(URL_IN_TEXT)) {
      const url = match[0].replace(/[.,;:!?)\]}]+$/, '');
      if (!fullLinkProblem(url, this.deps.shortLinkHost)) urls.push(url);
    }
    return urls;
  }

  #assertSegments(text: string, urls: string[], longestShortLink: string): void {
    if (text.trim() === '') throw invalidField('text', 'Text is required');
    let worst = text;
    for (const url of new Set(urls)) worst = worst.split(url).join(longestShortLink);
    const { segments } = countSegments(worst);
    if (segments > MAX_SEGMENTS) throw invalidField('text', `Text is longer than ${MAX_SEGMENTS} SMS segments (${segments})`);
  }
}

export function notFoundCampaign(): AppError {
  return new AppError('notFound', 'Campaign not found');
}

function notHeld(campaign: Campaign): AppError {
  return new AppError('invalid', `Campaign ${campaign.id} is ${campaign.status}, not in moderation`);
}

function sendTask(campaign: Campaign): ScheduledTask {
  return { kind: 'send', campaignId: campaign.id, messageId: campaign.messageId };
}

function matchesCampaignStatus(campaign: Campaign | undefined, wanted: MessageQuery['campaignStatus']): boolean {
  if (wanted === undefined) return true;
  if (!campaign) return false;
  if (wanted === 'NOT_YET_SENT') return NOT_YET_SENT.has(campaign.status);
  if (wanted === 'DEFERRED') return campaign.deferredTo !== null && NOT_YET_SENT.has(campaign.status);
  return campaign.status === wanted;
}

function messageSortValue(message: Message, field: MessageSortField | 'id'): string | number | null {
  switch (field) {
    case 'id':
      return message.id;
    case 'campaignId':
      return message.campaignId;
    case 'from':
      return message.from;
    case 'to':
      return message.to;
    case 'text':
      return message.text;
    case 'status':
      return message.status;
    case 'startSendTs':
      return message.startSendAt;
    case 'statusUpdateTs':
      return message.statusUpdatedAt;
    case 'segNum':
      return message.segNum;
  }
}

function nextMinute(minute: string): string {
  return utcMinuteOf(new Date(Date.parse(`${minute}:00Z`) + 60_000));
}

function previousMinute(minute: string): string {
  return utcMinuteOf(new Date(Date.parse(`${minute}:00Z`) - 60_000));
}
