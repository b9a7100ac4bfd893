import type { MessageStatus } from '../domain/message-status';
import type { Store } from './client';
import type { CountedWrites } from './counted-writes';
import { countByHours } from './hour-counts';
import { countRanges, type IndexRange } from './index-reader';
import { messageCounters, senderDaySk } from './message-keys';
import { queryAll } from './query';

/**
 * The senders an account has sent from, named by their counter items (`MESSAGES#F#<from>`,
 * comboCells: every counted message is in its sender's), in one consistent Query of their
 * keys. Complete once the migration has counted every message under its sender.
 */
export async function accountSenders(store: Store, accountId: number): Promise<string[]> {
  const { pk, sk: prefix } = messageCounters.sender(accountId, '');
  const items = await queryAll(store, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
    // `$` follows `#`: every sk that starts with the prefix lies below it.
    ExpressionAttributeValues: { ':pk': pk, ':first': prefix, ':last': `${prefix.slice(0, -1)}$` },
    ProjectionExpression: 'sk',
    ConsistentRead: true,
  });
  return items.map((item) => String(item.sk).slice(prefix.length));
}

/**
 * A sender's messages created in [from, to] (with `status` now, when given): whole hours from
 * the sender's day items (`h<HH>`, or `h<HH>#st#<status>`), the edges from `edge`, the
 * caller's index range of that sender (and status) within a part of an hour (countByHours).
 */
export function senderCreatedCount(
  store: Store,
  counted: CountedWrites,
  accountId: number,
  sender: string,
  edge: (from: Date, to: Date) => IndexRange,
  { status, from, to }: { status?: MessageStatus | undefined; from?: Date | undefined; to?: Date | undefined },
): Promise<number> {
  return countByHours(counted, {
    pk: messageCounters.all(accountId).pk,
    daySk: (day) => senderDaySk(sender, day),
    cells: (hour) => [status === undefined ? messageCounters.hourCell(hour) : messageCounters.hourStatusCell(hour, status)],
    ...(from && { from }),
    ...(to && { to }),
    countEdge: (edgeFrom, edgeTo) => countRanges(store, [edge(edgeFrom, edgeTo)]),
  });
}
