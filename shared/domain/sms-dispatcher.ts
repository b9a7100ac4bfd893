import type { DeliveryReport, SmsGateway, SubmitResult } from './gateway';
import { isFinal, type MessageStatus, statusOfParts } from './message-status';
import { type Message, normalizeGatewayMessageId } from './messages';
import { countSegments } from './segments';
import type { StatusPublisher } from './status-changes';
import type { Clock } from './time';

/** What sending needs from storage; shared/store/messages-repo.ts implements it. */
export interface MessageStore {
  get(id: number): Promise<Message | undefined>;
  /** NEW → ENQUEUD; the claimed message, or undefined when the claim was lost. */
  claimForSend(id: number, at: Date): Promise<Message | undefined>;
  markAccepted(id: number, gateway: string, gatewayMessageId: string, at: Date): Promise<Message | undefined>;
  markAmbiguous(id: number, reason: string, at: Date): Promise<void>;
  applyStatus(id: number, status: MessageStatus, at: Date): Promise<Message | undefined>;
  findByGatewayId(gateway: string, gatewayMessageId: string): Promise<number | undefined>;
  /** Keeps the first final report of one part of a concatenated message; the message after it. */
  recordPartStatus(id: number, part: number, status: MessageStatus): Promise<Message | undefined>;
  /** Adds an id the SMSC gave the message (or one of its parts). */
  recordSmscMessageId(id: number, smscMessageId: string): Promise<void>;
}

/** A delivery report that names our message (see SmsDispatcher.reportForMessage). */
export interface MessageReport {
  messageId: number;
  gateway: string;
  /** Undefined for reports that move nothing (the SMSC took the message). */
  status: MessageStatus | undefined;
  at: Date;
  /** The part (from 1) of a concatenated message sent part by part. */
  part?: number;
  /** The SMSC's id for the message or part, as the gateway passes it on. */
  smscMessageId?: string;
}

/** A claim that never got a gateway answer and is older than ABANDONED_CLAIM_MS. */
export function isAbandonedClaim(message: Message, now: Date): boolean {
  const claimedAt = Date.parse(message.statusUpdatedAt ?? message.createdAt);
  return (
    message.status === 'ENQUEUD' &&
    message.gatewayMessageId === null &&
    message.submitState === null &&
    now.getTime() - claimedAt >= ABANDONED_CLAIM_MS
  );
}

export type DispatchOutcome = 'accepted' | 'rejected' | 'ambiguous' | 'already-claimed' | 'unknown';

/**
 * How long a claim may stand without a gateway answer before it counts as abandoned:
 * longer than any submit takes (the worker's timeout), shorter than the queue's
 * redelivery (its visibility timeout), so a redelivery finds it abandoned.
 */
export const ABANDONED_CLAIM_MS = 2 * 60_000;

/**
 * Hands queued messages to the gateway, at most once each. The worker claims a message
 * (NEW → ENQUEUD) before submitting; a queue redelivery or a second worker loses the
 * claim and submits nothing. A claimed message that never got an answer from the gateway
 * (the worker died between claim and submit, or the submit timed out) is flagged
 * `ambiguous` for an operator to reconcile: resubmitting blindly could send it twice.
 * A claim younger than ABANDONED_CLAIM_MS is taken to be still in flight.
 */
export class SmsDispatcher {
  constructor(
    private readonly deps: {
      messages: MessageStore;
      gateway: SmsGateway;
      clock: Clock;
      /** Where each status change goes: the campaign follow-up, then webhooks. */
      statusChanges?: StatusPublisher;
    },
  ) {}

  async dispatch(messageId: number): Promise<DispatchOutcome> {
    const { messages, gateway, clock } = this.deps;
    const message = await messages.claimForSend(messageId, clock());
    if (!message) {
      const current = await messages.get(messageId);
      if (!current) return 'unknown';
      if (isAbandonedClaim(current, clock())) {
        await messages.markAmbiguous(messageId, 'A send attempt stopped between its claim and the gateway answer', clock());
      }
      return 'already-claimed';
    }
    const { encoding } = countSegments(message.text);
    let result: SubmitResult;
    try {
      result = await gateway.submit({
        messageId,
        from: message.from,
        to: message.to,
        text: message.text,
        encoding,
        segments: message.segNum,
        validityMinutes: message.validityMinutes,
      });
    } catch (error) {
      result = { outcome: 'ambiguous', reason: `Gateway error: ${(error as Error).message}` };
    }
    if (result.outcome === 'ambiguous') {
      await messages.markAmbiguous(messageId, result.reason, clock());
      return 'ambiguous';
    }
    const updated =
      result.outcome === 'accepted'
        ? await messages.markAccepted(messageId, gateway.name, result.gatewayMessageId, clock())
        : await messages.applyStatus(messageId, 'REJECTD', clock());
    if (updated) await this.deps.statusChanges?.publish(updated);
    if (result.outcome === 'accepted') {
      for (const part of result.refusedParts ?? []) {
        await this.reportForMessage({ messageId, gateway: gateway.name, status: 'REJECTD', at: clock(), part });
      }
    }
    return result.outcome;
  }

  /**
   * A delivery report tied to our message id (gateways whose reports name it, as Kannel's
   * dlr-url does), on the whole message or, for a concatenated message sent part by part,
   * on one part (from 1): a part's final report is kept and the message's status follows
   * from all of them (statusOfParts). A report without a status (the SMSC took the
   * message) still records the SMSC's id for it. False for an unknown message or part, or
   * a message this gateway never took. Late, repeated and out-of-order reports change
   * nothing that is further along.
   */
  async reportForMessage(report: MessageReport): Promise<boolean> {
    const { messages } = this.deps;
    const { messageId, gateway, status, at, part } = report;
    const message = await messages.get(messageId);
    // A report may overtake the recording of the submit: the message is then still ENQUEUD.
    if (!message || !(message.gateway === gateway || (message.gateway === null && message.status === 'ENQUEUD'))) return false;
    if (part !== undefined && !(Number.isSafeInteger(part) && part >= 1 && part <= message.segNum)) return false;
    const smscMessageId = report.smscMessageId && normalizeGatewayMessageId(report.smscMessageId);
    if (smscMessageId && !message.smscMessageIds?.includes(smscMessageId)) await messages.recordSmscMessageId(messageId, smscMessageId);
    // A part is either delivered or not: nothing in between counts for it.
    if (status === undefined || (part !== undefined && !isFinal(status))) return true;
    let next: MessageStatus | undefined = status;
    if (part !== undefined) {
      const recorded = await messages.recordPartStatus(messageId, part, status);
      next = recorded && statusOfParts(recorded.segNum, recorded.partStatuses ?? {});
    }
    const updated = next && (await messages.applyStatus(messageId, next, at));
    if (updated) await this.deps.statusChanges?.publish(updated);
    return true;
  }

  /**
   * A delivery report from any gateway, found by the gateway's message id. Reports for
   * unknown ids are ignored (false); late, repeated and out-of-order ones change nothing
   * that is further along.
   */
  async report(report: DeliveryReport): Promise<boolean> {
    const id = await this.deps.messages.findByGatewayId(report.gateway, report.gatewayMessageId);
    if (id === undefined) return false;
    const updated = await this.deps.messages.applyStatus(id, report.status, report.at);
    if (updated) await this.deps.statusChanges?.publish(updated);
    return true;
  }
}
