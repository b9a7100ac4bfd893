import { PinpointSMSVoiceV2Client, SendTextMessageCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import type { DeliveryReport, OutboundSms, SmsGateway, SubmitResult } from '../domain/gateway';
import type { MessageStatus } from '../domain/message-status';

export interface AwsSmsSettings {
  region: string;
  /** The configuration set whose event destination (an SNS topic) carries delivery events back. */
  configurationSetName: string;
  /** Sender ID, phone number or pool; unset lets AWS choose (the message's `from` is used when it is a sender ID the account may use). */
  originationIdentity: string | undefined;
  /** TRANSACTIONAL (default) or PROMOTIONAL. */
  messageType: 'TRANSACTIONAL' | 'PROMOTIONAL';
}

/** AWS errors that mean the message was not taken and never will be as it is. */
const REFUSALS = new Set(['ValidationException', 'AccessDeniedException', 'ConflictException', 'ResourceNotFoundException']);

/**
 * AWS End User Messaging SMS (pinpoint-sms-voice-v2 SendTextMessage), with a configuration
 * set whose event destination publishes delivery events to SNS; `awsSmsEvents` reads them.
 * The message's id goes along in `Context`, and AWS's MessageId is the gateway id.
 */
export class AwsSmsGateway implements SmsGateway {
  readonly name = 'aws';

  constructor(
    private readonly settings: AwsSmsSettings,
    private readonly client = new PinpointSMSVoiceV2Client({ region: settings.region, maxAttempts: 1 }),
  ) {}

  async submit(sms: OutboundSms): Promise<SubmitResult> {
    try {
      const result = await this.client.send(
        new SendTextMessageCommand({
          DestinationPhoneNumber: `+${sms.to}`,
          OriginationIdentity: this.settings.originationIdentity,
          MessageBody: sms.text,
          MessageType: this.settings.messageType,
          ConfigurationSetName: this.settings.configurationSetName,
          // Seconds; AWS takes 5 to 259,200 (72 hours), our validity is 60 to 1,440 minutes.
          TimeToLive: sms.validityMinutes * 60,
          Context: { messageId: String(sms.messageId) },
        }),
      );
      if (!result.MessageId) return { outcome: 'ambiguous', reason: 'AWS answered without a MessageId' };
      return { outcome: 'accepted', gatewayMessageId: result.MessageId };
    } catch (error) {
      const name = (error as { name?: string }).name ?? 'Error';
      if (REFUSALS.has(name)) return { outcome: 'rejected', reason: `AWS refused the message: ${name}: ${(error as Error).message}` };
      // Throttling, service errors, timeouts: whether AWS took it is not known.
      return { outcome: 'ambiguous', reason: `AWS did not confirm the message: ${name}: ${(error as Error).message}` };
    }
  }
}

/** An SMS event as AWS End User Messaging publishes it (the fields used here). */
export interface AwsSmsEvent {
  eventType: string;
  eventTimestamp: number;
  isFinal?: boolean;
  messageId: string;
  messageStatus?: string;
  context?: Record<string, string>;
}

const FAILED: Record<string, MessageStatus> = {
  TEXT_BLOCKED: 'REJECTD',
  TEXT_CARRIER_BLOCKED: 'REJECTD',
  TEXT_SPAM: 'REJECTD',
  TEXT_PROTECT_BLOCKED: 'REJECTD',
  TEXT_INVALID: 'REJECTD',
  TEXT_INVALID_MESSAGE: 'REJECTD',
  TEXT_TTL_EXPIRED: 'EXPIRED',
  TEXT_CARRIER_UNREACHABLE: 'UNDELIV',
  TEXT_UNREACHABLE: 'UNDELIV',
  TEXT_UNKNOWN: 'UNDELIV',
};

/**
 * An AWS SMS event as a delivery report, or undefined when it changes nothing (queued,
 * pending, or a failure AWS does not call final yet). TEXT_SUCCESSFUL (the carrier took
 * it) counts as delivered only when AWS marks it final: in some countries it is the last
 * event there is.
 */
export function awsDeliveryReport(event: AwsSmsEvent): DeliveryReport | undefined {
  const at = new Date(event.eventTimestamp);
  const report = (status: MessageStatus): DeliveryReport => ({ gateway: 'aws', gatewayMessageId: event.messageId, status, at });
  if (event.eventType === 'TEXT_DELIVERED') return report('DELIVRD');
  if (event.eventType === 'TEXT_SUCCESSFUL') return event.isFinal ? report('DELIVRD') : undefined;
  const failed = FAILED[event.eventType];
  if (failed && event.isFinal !== false) return report(failed);
  return undefined;
}
