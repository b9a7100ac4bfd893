/** The SMS gateway port: what the dispatcher needs from a gateway; shared/sms/* are its adapters. */
import type { MessageStatus } from './message-status';
import type { Encoding } from './segments';

/** One SMS handed to a gateway. */
export interface OutboundSms {
  messageId: number;
  from: string;
  /** International number, digits only. */
  to: string;
  text: string;
  encoding: Encoding;
  segments: number;
  /** Minutes the network may keep trying before the message expires. */
  validityMinutes: number;
}

/**
 * What a submit came to. `ambiguous` means the gateway may or may not have taken the
 * message (a timeout, a dropped connection): it is marked for reconciliation, never
 * submitted again blindly.
 */
export type SubmitResult =
  | {
      outcome: 'accepted';
      gatewayMessageId: string;
      /** Parts of a concatenated message, sent part by part, that the gateway refused (from 1). */
      refusedParts?: number[];
    }
  | { outcome: 'rejected'; reason: string }
  | { outcome: 'ambiguous'; reason: string };

/** A delivery report as a gateway tells it, already mapped to our statuses. */
export interface DeliveryReport {
  gateway: string;
  gatewayMessageId: string;
  status: MessageStatus;
  at: Date;
}

export interface SmsGateway {
  readonly name: string;
  submit(sms: OutboundSms): Promise<SubmitResult>;
}
