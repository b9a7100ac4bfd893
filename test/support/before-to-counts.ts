import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { Message } from '../../shared/domain/messages';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { keys } from '../../shared/store/keys';
import { messageCreation } from '../../shared/store/message-changes';
import { createCampaignOf } from './before-text-counts';

/**
 * A message and its campaign as the version before criteria[to]'s counts wrote them: schema
 * 2 with every index key, counted in MESSAGES, its day items and its text's counter, not in
 * its number's counters (`MESSAGES#TO#…`, `MESSAGES#OT#…`) and without `toCounted`.
 */
export async function sendBeforeToCounts(store: Store, message: Message): Promise<void> {
  await createCampaignOf(store, message);
  const { item, op } = messageCreation(message, { status: 'NEW', deferred: false });
  const { toCounted: _, ...before } = item;
  const counted = new CountedWrites(store, () => ulid());
  const numberCounter = (sk: string) => sk.startsWith('MESSAGES#TO#') || sk.startsWith('MESSAGES#OT#');
  const marked = counted.mark({ counters: op.counters.filter(({ key }) => !numberCounter(key.sk)) });
  await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...before, ...marked.set } }));
  await counted.finish(keys.message(message.id), marked);
}
