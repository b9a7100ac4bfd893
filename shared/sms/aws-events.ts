import type { SNSEvent } from 'aws-lambda';
import type { SmsDispatcher } from '../domain/sms-dispatcher';
import { logger } from '../telemetry';
import { type AwsSmsEvent, awsDeliveryReport } from './aws';

/**
 * AWS End User Messaging delivery events, from the configuration set's SNS topic. Each
 * record is one event; the message is found by AWS's MessageId, and statuses only move
 * forward, so SNS's at-least-once delivery and any order of events are harmless. A record
 * that is not an SMS event is logged and skipped; storage errors throw, and SNS retries.
 */
export async function awsSmsEvents(event: SNSEvent, deps: { dispatcher: SmsDispatcher }): Promise<{ applied: number; ignored: number }> {
  let applied = 0;
  let ignored = 0;
  for (const record of event.Records) {
    let parsed: AwsSmsEvent;
    try {
      parsed = JSON.parse(record.Sns.Message) as AwsSmsEvent;
    } catch {
      logger.error('Skipping an SNS message that is not JSON', { snsMessageId: record.Sns.MessageId });
      ignored++;
      continue;
    }
    const report = typeof parsed?.messageId === 'string' && typeof parsed.eventType === 'string' ? awsDeliveryReport(parsed) : undefined;
    if (!report) {
      ignored++;
      continue;
    }
    if (await deps.dispatcher.report(report)) applied++;
    else ignored++;
  }
  return { applied, ignored };
}
