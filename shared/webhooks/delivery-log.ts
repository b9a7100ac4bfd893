import type { AttemptResult, NewEvents } from '../domain/webhooks';
import { errorField, logger } from '../telemetry';

/** Logs what WebhookService.attempt reports of a refused target. */
export function logAttempt(eventId: string, result: AttemptResult): void {
  if (result.outcome !== 'retry' && result.outcome !== 'failed') return;
  const { webhookId, attempt, error: reason } = result;
  if (result.refused === 'url') logger.warn('Webhook target refused; event abandoned', { eventId, webhookId, reason });
  else if (result.refused === 'address') logger.warn('Webhook target refused', { eventId, webhookId, attempt, reason });
}

/** Logs the events a final status made that the queue did not take. */
export function logNewEvents(events: NewEvents): void {
  for (const { eventId, error } of events.notQueued) {
    logger.warn('Webhook event not queued; its scheduled try will send it', { eventId, error: errorField(error) });
  }
}
