import { ulid } from 'ulid';
import { LinkCache } from '../../shared/domain/link-cache';
import { LinkCodec } from '../../shared/domain/link-code';
import { LinkService } from '../../shared/domain/link-service';
import type { SendingPorts } from '../../shared/domain/message-ports';
import { MessageQueries } from '../../shared/domain/message-queries';
import type { Clock } from '../../shared/domain/time';
import { createMessaging } from '../../shared/messaging-runtime';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { IdAllocator } from '../../shared/store/id-allocator';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import { IndexedMessageLists } from '../../shared/store/message-lists';
import { MessagesRepository } from '../../shared/store/messages-repo';
import { ScheduleRepository } from '../../shared/store/schedule-repo';
import { SettingsRepository } from '../../shared/store/settings-repo';

/**
 * The message services as the runtime wires them, over a test store, with the send queue
 * an array of message ids; `wrap` may stand between the services and their ports.
 */
export function messagingOver(store: Store, options: { clock: Clock; queued: number[]; wrap?: (ports: SendingPorts) => SendingPorts }) {
  const { clock, queued } = options;
  const plain: SendingPorts = {
    campaigns: new CampaignsRepository(store),
    messages: new MessagesRepository(store),
    schedule: new ScheduleRepository(store, new SettingsRepository(store)),
    sendQueue: { enqueue: async (messageId) => void queued.push(messageId) },
  };
  const links = new LinkService({
    links: new IndexedLinksRepository(store),
    ids: new IdAllocator(store, 'link'),
    codec: async () => new LinkCodec('s'.repeat(40)),
    cache: new LinkCache(0),
    shortLinkBase: 'https://sho.rt',
    clock,
  });
  const messaging = createMessaging({
    ports: options.wrap ? options.wrap(plain) : plain,
    webhookQueue: { enqueue: async () => undefined },
    messageQueries: new MessageQueries({ lists: new IndexedMessageLists(store), campaigns: plain.campaigns, links }),
    links,
    campaignIds: new IdAllocator(store, 'campaign'),
    messageIds: new IdAllocator(store, 'message'),
    uuids: () => ulid(),
    clock,
    serviceSignature: 'SMSService',
    shortLinkHost: 'sho.rt',
  });
  return { ...messaging, ports: plain, links };
}
