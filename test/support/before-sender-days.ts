import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { CampaignState } from '../../shared/domain/message-listing';
import type { Message } from '../../shared/domain/messages';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { keys } from '../../shared/store/keys';
import { messageCreation } from '../../shared/store/message-changes';
import { senderDaySk } from '../../shared/store/message-keys';
import { createCampaignOf } from './before-text-counts';

/**
 * A message and its campaign as the version before the sender's day items wrote them: counted
 * in everything else, not in its sender's day item (`MESSAGES#FD#…`), without `senderDated`.
 */
export async function sendBeforeSenderDays(
  store: Store,
  message: Message,
  campaign: CampaignState = { status: 'NEW', deferred: false },
): Promise<void> {
  await createCampaignOf(store, message);
  const { item, op } = messageCreation(message, campaign);
  const { senderDated: _, ...before } = item;
  const day = senderDaySk(message.from, message.createdAt.slice(0, 10));
  const counters = op.counters.filter(({ key }) => key.sk !== day);
  if (counters.length !== op.counters.length - 1) throw new Error('messageCreation no longer writes one sender day item');
  const counted = new CountedWrites(store, () => ulid());
  const marked = counted.mark({ counters });
  await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...before, ...marked.set } }));
  await counted.finish(keys.message(message.id), marked);
}
