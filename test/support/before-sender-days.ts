import type { CampaignState } from '../../shared/domain/message-listing';
import type { Message } from '../../shared/domain/messages';
import type { Store } from '../../shared/store/client';
import { senderDaySk } from '../../shared/store/message-keys';
import { sendWithout } from './before-text-counts';

/**
 * A message and its campaign as the version before the sender's day items wrote them: counted
 * in everything else, not in its sender's day item (`MESSAGES#FD#…`), without `senderDated`.
 */
export async function sendBeforeSenderDays(
  store: Store,
  message: Message,
  campaign: CampaignState = { status: 'NEW', deferred: false },
): Promise<void> {
  const day = senderDaySk(message.from, message.createdAt.slice(0, 10));
  await sendWithout(store, message, campaign, 'senderDated', (counters) => {
    const kept = counters.filter(({ key }) => key.sk !== day);
    if (kept.length !== counters.length - 1) throw new Error('messageCreation no longer writes one sender day item');
    return kept;
  });
}
