import type { CampaignStore } from './message-ports';
import { isFinal } from './message-status';
import type { Message } from './messages';
import type { StatusSubscriber } from './status-changes';

/** Keeps each campaign in step with its message: SENT once accepted, DONE once final. */
export class CampaignFollowUp implements StatusSubscriber {
  constructor(private readonly campaigns: Pick<CampaignStore, 'move' | 'noteSent'>) {}

  async onMessageStatus(message: Message): Promise<void> {
    const { campaigns } = this;
    const sentAt = message.startSendAt ?? undefined;
    let moved = false;
    if (message.status === 'ACCEPTD') {
      moved = Boolean(await campaigns.move(message.campaignId, ['RUNNING', 'READY_FOR_SEND', 'AUTO_READY_FOR_SEND'], 'SENT', sentAt));
    }
    if (isFinal(message.status)) {
      moved = Boolean(await campaigns.move(message.campaignId, ['RUNNING', 'READY_FOR_SEND', 'AUTO_READY_FOR_SEND', 'SENT'], 'DONE', sentAt));
    }
    // Reports may come in any order: the first sending time is kept even when the campaign had moved on.
    if (sentAt && !moved && (message.status === 'ACCEPTD' || isFinal(message.status))) await campaigns.noteSent(message.campaignId, sentAt);
  }
}
