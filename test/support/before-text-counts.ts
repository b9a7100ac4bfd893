import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { CampaignState } from '../../shared/domain/message-listing';
import type { Message } from '../../shared/domain/messages';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites, type CounterAdd } from '../../shared/store/counted-writes';
import { keys } from '../../shared/store/keys';
import { messageCreation } from '../../shared/store/message-changes';
import { messageCounters } from '../../shared/store/message-keys';

/**
 * A message and its campaign as the version before the per-text counters wrote them:
 * schema 2 with every index key, counted in MESSAGES and its day items, not in its text's
 * counter (`MESSAGES#TEXT#<hash>`) and without `textCounted`.
 */
export async function sendBeforeTextCounts(store: Store, message: Message): Promise<void> {
  const text = messageCounters.text(message.accountId, message.text);
  await sendWithout(store, message, { status: 'NEW', deferred: false }, 'textCounted', (counters) =>
    counters.filter(({ key }) => key.sk !== text.sk),
  );
}

/**
 * A message and its campaign as a version before one of its counters wrote them: its item
 * without that counter's `flag`, counted in what `before` leaves of its creation's counters.
 */
export async function sendWithout(
  store: Store,
  message: Message,
  campaign: CampaignState,
  flag: string,
  before: (counters: CounterAdd[]) => CounterAdd[],
): Promise<void> {
  await createCampaignOf(store, message);
  const { item, op } = messageCreation(message, campaign);
  const { [flag]: _, ...stored } = item;
  const counted = new CountedWrites(store, () => ulid());
  const marked = counted.mark({ counters: before(op.counters) });
  await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...stored, ...marked.set } }));
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
