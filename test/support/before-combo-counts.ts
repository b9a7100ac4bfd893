import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { CampaignState } from '../../shared/domain/message-listing';
import type { Message } from '../../shared/domain/messages';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { keys } from '../../shared/store/keys';
import { messageCreation } from '../../shared/store/message-changes';
import { messageCounters } from '../../shared/store/message-keys';
import { createCampaignOf } from './before-text-counts';

/**
 * A message and its campaign as the version before the combination cells wrote them: schema
 * 2 with every index key, counted in MESSAGES (its cells of status, campaign status and
 * sender, not of status and campaign status together), its day items, its text's and its
 * number's counters, not in its sender's item (`MESSAGES#F#<from>`) and without
 * `combosCounted`. The message as given (any status); `campaign` copied onto it.
 */
export async function sendBeforeComboCounts(
  store: Store,
  message: Message,
  campaign: CampaignState = { status: 'NEW', deferred: false },
): Promise<void> {
  await createCampaignOf(store, message);
  const { item, op } = messageCreation(message, campaign);
  const { combosCounted: _, ...before } = item;
  const sender = messageCounters.sender(message.accountId, message.from).sk;
  const all = messageCounters.all(message.accountId).sk;
  const counters = op.counters
    .filter(({ key }) => key.sk !== sender)
    .map(({ key, add }) => ({ key, add: key.sk === all ? Object.fromEntries(Object.entries(add).filter(([cell]) => !cell.includes('#cs#'))) : add }));
  const counted = new CountedWrites(store, () => ulid());
  const marked = counted.mark({ counters });
  await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...before, ...marked.set } }));
  await counted.finish(keys.message(message.id), marked);
}
