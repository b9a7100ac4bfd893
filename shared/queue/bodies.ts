import * as v from 'valibot';
import type { ClickEvent } from '../domain/clicks';

/** The sms queue's message: a message to hand to the gateway. */
export const SmsBody = v.object({ messageId: v.pipe(v.number(), v.safeInteger()) });

/** The webhooks queue's message: a webhook event whose next attempt may be due. */
export const WebhookBody = v.object({ eventId: v.pipe(v.string(), v.nonEmpty()) });

/**
 * The clicks queue's message, as `clickEventBody` (shared/domain/clicks.ts) writes it on
 * the redirect's path.
 */
export const ClickBody = v.object({
  linkId: v.pipe(v.number(), v.safeInteger()),
  accountId: v.pipe(v.number(), v.safeInteger()),
  at: v.pipe(
    v.string(),
    v.check((at) => !Number.isNaN(Date.parse(at))),
  ),
  visitor: v.picklist(['human', 'bot']),
  redirected: v.boolean(),
}) satisfies v.GenericSchema<unknown, ClickEvent>;

export const smsBody = (messageId: number): string => JSON.stringify({ messageId } satisfies v.InferInput<typeof SmsBody>);

export const webhookBody = (eventId: string): string => JSON.stringify({ eventId } satisfies v.InferInput<typeof WebhookBody>);

/**
 * A queue message's body read against its schema; undefined when it is JSON of another
 * shape, which the workers skip with a log (retrying it could never succeed). A body that
 * is not JSON at all throws (JSON.parse's SyntaxError): whether that fails the record or
 * is skipped too is each worker's choice.
 */
export function readBody<TSchema extends v.GenericSchema>(schema: TSchema, body: string): v.InferOutput<TSchema> | undefined {
  const read = v.safeParse(schema, JSON.parse(body));
  return read.success ? read.output : undefined;
}
