import type { Store } from './client';
import { messageCounters } from './message-keys';
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
