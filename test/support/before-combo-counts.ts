import type { CampaignState } from '../../shared/domain/message-listing';
import type { Message } from '../../shared/domain/messages';
import type { Store } from '../../shared/store/client';
import { messageCounters } from '../../shared/store/message-keys';
import { sendWithout } from './before-text-counts';

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
  const sender = messageCounters.sender(message.accountId, message.from).sk;
  const all = messageCounters.all(message.accountId).sk;
  await sendWithout(store, message, campaign, 'combosCounted', (counters) =>
    counters
      .filter(({ key }) => key.sk !== sender)
      .map(({ key, add }) => ({
        key,
        add: key.sk === all ? Object.fromEntries(Object.entries(add).filter(([cell]) => !cell.includes('#cs#'))) : add,
      })),
  );
}
