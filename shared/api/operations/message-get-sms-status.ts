import { apiRuntime } from '../../api-runtime';
import { AppError } from '../../domain/errors';
import { formatResponseTs } from '../../domain/time';
import { listOf } from '../params';
import type { Operation } from '../types';

export const MAX_STATUS_IDS = 100;

/**
 * Message/GetSMSStatus: `ids` as an array or a comma string, at most 100. Always an array
 * of delivery status records; unknown ids and other accounts' ids produce none.
 */
export const messageGetSmsStatus: Operation = async ({ params, account }) => {
  const ids = params.ids === undefined ? [] : listOf(params.ids);
  if (ids === undefined) throw new AppError('limit', 'ids must be a list of message ids');
  if (ids.length === 0) throw new AppError('notFound', 'No message ids given');
  if (ids.length > MAX_STATUS_IDS) throw new AppError('limit', `At most ${MAX_STATUS_IDS} message ids per request`);
  const wanted = [...new Set(ids.filter((id) => /^\d{1,15}$/.test(id)).map(Number))];
  const found = new Map((await apiRuntime().messageStore.getMany(wanted)).filter((m) => m.accountId === account.id).map((m) => [m.id, m]));
  const zone = account.timeZone;
  return wanted.flatMap((id) => {
    const message = found.get(id);
    if (!message) return [];
    const sent = message.status !== 'NEW' && message.status !== 'ENQUEUD';
    return [
      {
        id: message.id,
        status: message.status,
        segNum: message.segNum,
        startSendTs: message.startSendAt ? formatResponseTs(message.startSendAt, zone) : null,
        statusUpdateTs: sent && message.statusUpdatedAt ? formatResponseTs(message.statusUpdatedAt, zone) : null,
      },
    ];
  });
};
