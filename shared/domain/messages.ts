import type { MessageStatus } from './message-status';

/** One SMS to one recipient: the single message of its campaign. Times are UTC instants. */
export interface Message {
  id: number;
  accountId: number;
  campaignId: number;
  from: string;
  /** International number, digits only. */
  to: string;
  text: string;
  segNum: number;
  /** Price of one segment in the account's currency when it was sent. */
  segUserBuy: number;
  status: MessageStatus;
  /** ULID, the message's internal identifier. */
  uuid: string;
  countryA2: string;
  /** Minutes the network may keep trying (SendSmsMessage params[validity]). */
  validityMinutes: number;
  createdAt: string;
  /** When the gateway accepted the message; null until then. */
  startSendAt: string | null;
  /** The last status change; null until the message was sent. */
  statusUpdatedAt: string | null;
  gateway: string | null;
  gatewayMessageId: string | null;
  /**
   * `ambiguous` when a submit ended without a clear answer (timeout, crash after the
   * claim): the message may have gone out, so it is never submitted again automatically.
   */
  submitState: 'ambiguous' | null;
  /** Why it is ambiguous, in words. */
  submitProblem?: string | null;
  /**
   * Final reports on single parts of a concatenated message, by part number (from 1), for
   * gateways that report each part; the message's status follows from them (statusOfParts).
   */
  partStatuses?: Record<number, MessageStatus>;
  /** Ids the SMSC gave the message (one per part), normalized, for reconciling with its records. */
  smscMessageIds?: string[];
}

/** The longest a message may wait for delivery, and the default (SPEC §6). */
export const MIN_VALIDITY_MINUTES = 60;
export const MAX_VALIDITY_MINUTES = 1440;

/**
 * A gateway's or SMSC's message id in one canonical form: trimmed and lower case (SMSCs
 * differ in the case of hexadecimal ids), so the same id always reads the same.
 */
export function normalizeGatewayMessageId(id: string): string {
  return id.trim().toLowerCase();
}
