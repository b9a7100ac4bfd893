import * as v from 'valibot';
import type { Account } from '../../domain/accounts';
import { MAX_CAMPAIGN_NAME_LENGTH } from '../../domain/campaigns';
import { AppError, invalidField } from '../../domain/errors';
import type { SendInput } from '../../domain/message-sending';
import { MAX_VALIDITY_MINUTES, MIN_VALIDITY_MINUTES } from '../../domain/messages';
import { MAX_SIGNATURE_LENGTH } from '../../domain/senders';
import { parseRequestTs } from '../../domain/time';
import { isGiven, isRecord, maxCharacters, parseWith, text } from '../params';
import type { Operation } from '../types';

export interface MessageSendDeps {
  sending: { send(account: Account, input: SendInput): Promise<{ campaignId: number; messageId: number; status: 1 | 2 }> };
}

export const sendSchema = v.object({
  recipient: v.string('Recipient must be a single value'),
  text: v.pipe(
    text('Text must be text'),
    v.check((value) => value.trim() !== '', 'Text is required'),
  ),
  // No signature is longer; a longer `from` is refused before it is looked up or echoed.
  from: v.optional(
    v.pipe(
      v.string('Sender must be a single value'),
      v.trim(),
      maxCharacters(MAX_SIGNATURE_LENGTH, `Sender must be at most ${MAX_SIGNATURE_LENGTH} characters`),
    ),
  ),
});

export const paramsSchema = v.object({
  name: v.optional(
    v.pipe(
      text('Campaign name must be text'),
      maxCharacters(MAX_CAMPAIGN_NAME_LENGTH, `Campaign name must be at most ${MAX_CAMPAIGN_NAME_LENGTH} characters`),
    ),
  ),
  deferredToTs: v.optional(v.string('Deferred sending time must be YYYY-MM-DD HH:MM:SS')),
  shortenLinks: v.optional(v.picklist(['0', '1'], 'shortenLinks must be 0 or 1')),
  validity: v.optional(
    v.pipe(
      v.string(`Validity must be ${MIN_VALIDITY_MINUTES} to ${MAX_VALIDITY_MINUTES} minutes`),
      v.regex(/^\d{1,5}$/, `Validity must be ${MIN_VALIDITY_MINUTES} to ${MAX_VALIDITY_MINUTES} minutes`),
      v.transform(Number),
      v.minValue(MIN_VALIDITY_MINUTES, `Validity must be ${MIN_VALIDITY_MINUTES} to ${MAX_VALIDITY_MINUTES} minutes`),
      v.maxValue(MAX_VALIDITY_MINUTES, `Validity must be ${MIN_VALIDITY_MINUTES} to ${MAX_VALIDITY_MINUTES} minutes`),
    ),
  ),
});

/**
 * Message/SendSmsMessage (POST or GET): `recipient`, `text`, `from`, `params[name]`,
 * `params[deferredToTs]`, `params[shortenLinks]`, `params[validity]`.
 */
export const messageSendSmsMessage: Operation<MessageSendDeps> = async ({ params, account, deps: { sending } }) => {
  for (const name of ['recipient', 'text'] as const) {
    if (!isGiven(params[name])) throw new AppError('missingParameter', `The ${name} parameter is required`);
  }
  const input = parseWith(sendSchema, params);
  const extra = isGiven(params.params) ? params.params : {};
  if (!isRecord(extra)) throw new AppError('invalid', 'params must carry fields such as params[name]', { params: ['Expected fields'] });
  const options = parseWith(paramsSchema, Object.fromEntries(Object.entries(extra).filter(([, value]) => value !== '')));
  let deferredTo: Date | undefined;
  if (options.deferredToTs !== undefined) {
    const read = parseRequestTs(options.deferredToTs.trim(), account.timeZone);
    if (typeof read === 'string') throw invalidField('deferredToTs', `Deferred sending time ${read}`);
    deferredTo = read;
  }
  return sending.send(account, {
    recipient: input.recipient,
    text: input.text,
    from: input.from,
    name: options.name,
    deferredTo,
    shortenLinks: options.shortenLinks === '1',
    validityMinutes: options.validity ?? MAX_VALIDITY_MINUTES,
  });
};
