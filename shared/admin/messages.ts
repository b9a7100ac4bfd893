import * as v from 'valibot';
import { AppError } from '../domain/errors';
import type { Message } from '../domain/messages';
import { adminOperation, entityIdField, NO_INPUT } from './operation';

export interface MessagesDeps {
  messageStore: { get(id: number): Promise<Message | undefined>; listAmbiguous(): Promise<Message[]> };
}

/** A message, or a not-found error (the CLI's `message show` too). */
export async function messageById(deps: MessagesDeps, id: number): Promise<Message> {
  const message = await deps.messageStore.get(id);
  if (!message) throw new AppError('notFound', 'No such message');
  return message;
}

/** Messages that may or may not have gone out, to reconcile with the gateway's records. */
export const messagesAmbiguous = adminOperation({
  path: 'messages/ambiguous',
  input: NO_INPUT,
  run: (_input, { messageStore }: MessagesDeps) => messageStore.listAmbiguous(),
});

export const messagesGet = adminOperation({
  path: 'messages/get',
  input: v.strictObject({ id: entityIdField('id') }),
  run: ({ id }, deps: MessagesDeps) => messageById(deps, id),
});
