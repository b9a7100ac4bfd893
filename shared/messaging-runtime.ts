import { CampaignFollowUp } from './domain/campaign-follow-up';
import type { LinkService } from './domain/link-service';
import { MessageExpiry } from './domain/message-expiry';
import type { WebhookQueue } from './domain/message-ports';
import type { MessageQueries } from './domain/message-queries';
import { MessageSending, type MessageSendingDeps } from './domain/message-sending';
import { Moderation } from './domain/moderation';
import { Scheduler } from './domain/scheduler';
import { StatusChanges } from './domain/status-changes';

/** The message services over their ports: built by shared/api-runtime.ts, and by tests over their own ports. */
export interface Messaging {
  sending: MessageSending;
  messageQueries: MessageQueries;
  moderation: Moderation;
  scheduler: Scheduler;
  /** Every status change: the campaign follow-up is its first subscriber; the full runtime adds webhooks after it. */
  statusChanges: StatusChanges;
}

export interface MessagingDeps extends MessageSendingDeps {
  webhookQueue: WebhookQueue;
  /** Built with the API core (shared/api-core.ts), which reads messages without sending. */
  messageQueries: MessageQueries;
  links: Pick<LinkService, 'create' | 'shortLinkOf' | 'getMany'>;
}

export function createMessaging(deps: MessagingDeps): Messaging {
  const { ports, clock } = deps;
  const statusChanges = new StatusChanges([new CampaignFollowUp(ports.campaigns)]);
  const sending = new MessageSending({
    ports,
    links: deps.links,
    campaignIds: deps.campaignIds,
    messageIds: deps.messageIds,
    uuids: deps.uuids,
    clock,
    serviceSignature: deps.serviceSignature,
    shortLinkHost: deps.shortLinkHost,
  });
  const expiry = new MessageExpiry({ messages: ports.messages, statusChanges });
  const scheduler = new Scheduler({
    schedule: ports.schedule,
    clock,
    handlers: {
      send: (task, now) => sending.release(task, now),
      recover: (task, now) => sending.recover(task, now),
      expire: (task) => expiry.expire(task),
      webhook: async (task) => {
        await deps.webhookQueue.enqueue(task.eventId);
        return 'done';
      },
    },
  });
  return {
    sending,
    messageQueries: deps.messageQueries,
    moderation: new Moderation({ ports, statusChanges, clock }),
    scheduler,
    statusChanges,
  };
}
