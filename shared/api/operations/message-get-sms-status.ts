import * as v from 'valibot';
import { AppError } from '../../domain/errors';
import { accountMessages, type MessagesById } from '../../domain/message-statuses';
import { formatResponseTs } from '../../domain/time';
import { idList, readParams } from '../params';
import type { Operation } from '../types';

export interface MessageGetSmsStatusDeps {
  messages: MessagesById;
}

export const MAX_STATUS_IDS = 100;

export const idsSchema = v.optional(
  v.pipe(idList('ids must be a list of message ids'), v.maxLength(MAX_STATUS_IDS, `At most ${MAX_STATUS_IDS} message ids per request`)),
  '',
);

/**
 * Message/GetSMSStatus: `ids` as an array or a comma string, at most 100. Always an array
 * of delivery status records; unknown ids and other accounts' ids produce none.
 */
export const messageGetSmsStatus: Operation<MessageGetSmsStatusDeps> = async ({ params, account, deps }) => {
  const ids = readParams(idsSchema, params.ids);
  if (ids.length === 0) throw new AppError('notFound', 'No message ids given');
  // An id that is no positive integer is no message's: it finds nothing.
  const wanted = ids.filter((id) => /^\d{1,15}$/.test(id)).map(Number);
  const zone = account.timeZone;
  return (await accountMessages(deps.messages, account, wanted)).map((message) => {
    const sent = message.status !== 'NEW' && message.status !== 'ENQUEUD';
    return {
      id: message.id,
      status: message.status,
      segNum: message.segNum,
      startSendTs: message.startSendAt ? formatResponseTs(message.startSendAt, zone) : null,
      statusUpdateTs: sent && message.statusUpdatedAt ? formatResponseTs(message.statusUpdatedAt, zone) : null,
    };
  });
};
