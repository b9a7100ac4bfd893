import type { Account } from './accounts';
import { type Campaign, submissionStatus } from './campaigns';
import { invalidField } from './errors';
import { fullLinkProblem } from './full-link-rules';
import type { IdSource, LinkService } from './link-service';
import { campaignStateOf } from './message-listing';
import type { SendingPorts } from './message-ports';
import { isFinal } from './message-status';
import type { Message } from './messages';
import { checkRecipient } from './phone';
import type { TaskOf, TaskOutcome } from './scheduler';
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

export const MIN_DEFER_MS = 60 * 60_000;
export const MAX_DEFER_MS = 14 * 24 * 60 * 60_000;
/** When a handed-off message is checked: once any claim on it would count as abandoned. */
export const RECOVERY_CHECK_MS = ABANDONED_CLAIM_MS + 60_000;

/** URLs as people write them in texts; trailing punctuation is not part of them. */
const URL_IN_TEXT = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;

export interface MessageSendingDeps {
  ports: SendingPorts;
  links: Pick<LinkService, 'create' | 'shortLinkOf'>;
  campaignIds: IdSource;
  messageIds: IdSource;
  /** The message's uuid (its links' tracking code): unique, time-ordered. */
  uuids: () => string;
  clock: Clock;
  /** The shared service signature used when an account has no usable one. */
  serviceSignature: string;
  /** Hostname of `{short_link_base}`, whose links are not shortened again. */
  shortLinkHost: string;
}

/**
 * Sending: Message/SendSmsMessage, the hand-off to the send queue, the release of a
 * deferred campaign and the recovery check of every hand-off. Each step writes what
 * recovers it before the step itself, so a process stopped at any instant leaves every
 * stored message on its way to a final status (test/integration/send-crash.test.ts).
 */
export class MessageSending {
  constructor(private readonly deps: MessageSendingDeps) {}

  /** Message/SendSmsMessage: validates everything first, then writes; a refused send writes nothing. */
  async send(account: Account, input: SendInput): Promise<{ campaignId: number; messageId: number; status: 1 | 2 }> {
    const { ports, links } = this.deps;
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
    assertSegments(input.text, urls, links.shortLinkOf('xxxxxxxxxx'));

    const campaignId = await this.deps.campaignIds.next();
    const messageId = await this.deps.messageIds.next();
    const moderated = account.sending.moderation === 'all';
    // What releases the message is written before anything else, so a send stopped at any
    // instant leaves nothing to recover without it: the recovery check of a hand-off, or the
    // deferred send. One for a message never written does nothing and is removed.
    // (A held message waits for an administrator; approving it writes its task then.)
    if (!moderated) {
      if (input.deferredTo) await ports.schedule.schedule(utcMinuteOf(input.deferredTo), { kind: 'send', campaignId, messageId });
      else await this.#scheduleCheck(messageId);
    }
    const uuid = this.deps.uuids();
    let text = input.text;
    const linkIds: number[] = [];
    for (const url of new Set(urls)) {
      const link = await links.create(account, { fullLink: url, campaignId, trackingCode: uuid });
      linkIds.push(link.id);
      text = text.split(url).join(links.shortLinkOf(link.code));
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
    await ports.campaigns.create(campaign);
    await ports.messages.create(message, campaignStateOf(campaign));
    if (!moderated && !input.deferredTo) await ports.sendQueue.enqueue(messageId);
    return { campaignId, messageId, status: submissionStatus(campaign) };
  }

  /**
   * The scheduler's `send` task: releases a deferred (or approved) campaign once its time
   * has come. The campaign's move READY_FOR_SEND → RUNNING is the claim: each goes out once
   * even if two sweeps overlap.
   */
  async release(task: TaskOf<'send'>, now: Date): Promise<TaskOutcome> {
    const { campaigns, sendQueue } = this.deps.ports;
    const campaign = await campaigns.get(task.campaignId);
    if (campaign?.deferredTo && Date.parse(campaign.deferredTo) > now.getTime()) return 'later'; // later this minute
    // Approval writes the task before it moves the campaign out of moderation: left for the next sweep.
    if (campaign?.status === 'MODERATION') return 'later';
    if (campaign?.status === 'READY_FOR_SEND') {
      // The check before the claim: once RUNNING, the campaign is no longer this task's to release.
      await this.#scheduleCheck(task.messageId);
      if (await campaigns.move(task.campaignId, ['READY_FOR_SEND'], 'RUNNING')) {
        await sendQueue.enqueue(task.messageId);
        return 'released';
      }
    }
    return 'done';
  }

  /**
   * The scheduler's `recover` task, the recovery check of a hand-off (#scheduleCheck); for a
   * message never written, nothing. A message the gateway took but has not settled by then
   * gets its expiry check (SPEC §6: undelivered past its validity, it expires); most are
   * settled already, and cost nothing more.
   */
  async recover(task: TaskOf<'recover'>, now: Date): Promise<TaskOutcome> {
    const { messages, schedule } = this.deps.ports;
    const { messageId } = task;
    const message = await messages.get(messageId);
    if (message?.status === 'NEW') await this.#handOff(messageId);
    else if (message && message.gatewayMessageId !== null && !isFinal(message.status)) {
      const expiresAt = new Date(Date.parse(message.startSendAt ?? message.statusUpdatedAt ?? message.createdAt) + message.validityMinutes * 60_000);
      await schedule.schedule(utcMinuteOf(expiresAt), { kind: 'expire', messageId: message.id, at: expiresAt.toISOString() });
    } else if (message && isAbandonedClaim(message, now)) {
      await messages.markAmbiguous(messageId, 'The send attempt stopped between its claim and the gateway answer', now);
    } else if (message?.status === 'ENQUEUD' && message.gatewayMessageId === null && message.submitState === null) {
      // Claimed recently (a redelivery after a slow start): look again once the claim is old enough.
      const at = new Date(Date.parse(message.statusUpdatedAt ?? message.createdAt) + RECOVERY_CHECK_MS);
      await schedule.schedule(utcMinuteOf(at), { kind: 'recover', messageId, at: at.toISOString() });
    }
    return 'done';
  }

  /**
   * The durable check of a hand-off to the send queue, written before the hand-off and
   * before anything it recovers: a queue message lost with the process that held it (the
   * local in-memory queue) or never delivered is sent again, and a claim whose worker died
   * before submitting is flagged ambiguous, never resent.
   */
  async #scheduleCheck(messageId: number): Promise<void> {
    const at = new Date(this.deps.clock().getTime() + RECOVERY_CHECK_MS);
    await this.deps.ports.schedule.schedule(utcMinuteOf(at), { kind: 'recover', messageId, at: at.toISOString() });
  }

  /** Puts a message on the send queue, its check written first. */
  async #handOff(messageId: number): Promise<void> {
    await this.#scheduleCheck(messageId);
    await this.deps.ports.sendQueue.enqueue(messageId);
  }

  #shortenable(text: string): string[] {
    const urls: string[] = [];
    for (const match of text.matchAll(URL_IN_TEXT)) {
      const url = match[0].replace(/[.,;:!?)\]}]+$/, '');
      if (!fullLinkProblem(url, this.deps.shortLinkHost)) urls.push(url);
    }
    return urls;
  }
}

function assertSegments(text: string, urls: string[], longestShortLink: string): void {
  if (text.trim() === '') throw invalidField('text', 'Text is required');
  let worst = text;
  for (const url of new Set(urls)) worst = worst.split(url).join(longestShortLink);
  const { segments } = countSegments(worst);
  if (segments > MAX_SEGMENTS) throw invalidField('text', `Text is longer than ${MAX_SEGMENTS} SMS segments (${segments})`);
}
