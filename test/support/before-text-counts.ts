import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { Message } from '../../shared/domain/messages';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { keys } from '../../shared/store/keys';
import { messageCreation } from '../../shared/store/message-changes';
import { messageCounters } from '../../shared/store/message-keys';

/**
 * A message and its campaign as the version before the per-text counters wrote them:
 * schema 2 with every index key, counted in MESSAGES and its day items, not in its text's
 * counter (`MESSAGES#TEXT#<hash>`) and without `textCounted`.
 */
export async function sendBeforeTextCounts(store: Store, message: Message): Promise<void> {
  await createCampaignOf(store, message);
  const { item, op } = messageCreation(message, { status: 'NEW', deferred: false });
  const { textCounted: _, ...before } = item;
  const text = messageCounters.text(message.accountId, message.text);
  const counted = new CountedWrites(store, () => ulid());
  const marked = counted.mark({ counters: op.counters.filter(({ key }) => key.sk !== text.sk) });
  await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...before, ...marked.set } }));
  await counted.finish(keys.message(message.id), marked);
}

/** The campaign SendSmsMessage creates for a message, before the message itself. */
export async function createCampaignOf(store: Store, message: Message): Promise<void> {
  await new CampaignsRepository(store).create({
    id: message.campaignId,
    accountId: message.accountId,
    messageId: message.id,
    name: null,
    status: 'NEW',
    linkIds: [],
    createdAt: message.createdAt,
    sentAt: null,
    deferredTo: null,
  });
}
