import type { SmsGateway } from '../../shared/domain/gateway';
import { MessageQueries } from '../../shared/domain/message-queries';
import type { Message } from '../../shared/domain/messages';
import { SmsDispatcher } from '../../shared/domain/sms-dispatcher';
import { StatusChanges, type StatusSubscriber } from '../../shared/domain/status-changes';
import { createMessaging } from '../../shared/messaging-runtime';
import { countingIds, memoryLinks, memoryPorts, storedCampaign, T0 } from '../support/memory-messaging';

/** A subscriber that notes what it is told in `log`. */
const noting = (name: string, log: string[]): StatusSubscriber => ({
  onMessageStatus: async (message: Message) => void log.push(`${name}:${message.status}`),
});

describe('StatusChanges', () => {
  it('tells its subscribers one after the other, in the order they subscribed', async () => {
    const log: string[] = [];
    const changes = new StatusChanges([noting('first', log), noting('second', log)]);
    changes.subscribe(noting('third', log));

    await changes.publish(storedCampaign(1, {}, { status: 'DELIVRD' }).message);

    expect(log).toEqual(['first:DELIVRD', 'second:DELIVRD', 'third:DELIVRD']);
  });

  it('stops at a subscriber that fails, so the change is not half told', async () => {
    const log: string[] = [];
    const failing: StatusSubscriber = {
      onMessageStatus: async () => {
        throw new Error('store unavailable');
      },
    };
    const changes = new StatusChanges([failing, noting('webhooks', log)]);

    await expect(changes.publish(storedCampaign(1).message)).rejects.toThrow('store unavailable');
    expect(log).toEqual([]);
  });
});

describe('the status fan-out as the runtime wires it', () => {
  /** The message services over memory, with webhooks subscribed after them as shared/runtime.ts does. */
  function build() {
    const memory = memoryPorts();
    const messaging = createMessaging({
      ports: memory.ports,
      webhookQueue: { enqueue: async (eventId) => void memory.writes.push(`enqueueWebhook:${eventId}`) },
      messageQueries: new MessageQueries({
        lists: memory.messageLists,
        campaigns: memory.ports.campaigns,
        links: { getMany: async () => [] },
      }),
      links: { ...memoryLinks(memory.writes), getMany: async () => [] },
      campaignIds: countingIds(1),
      messageIds: countingIds(1),
      uuids: () => 'U',
      clock: () => T0,
      serviceSignature: 'SMSService',
      shortLinkHost: 'sho.rt',
    });
    messaging.statusChanges.subscribe(noting('webhooks', memory.writes));
    return { ...memory, ...messaging };
  }

  it('moves the campaign before webhooks hear of a dispatched message', async () => {
    // Prepare
    const { messageStore, statusChanges, campaigns, messages, writes } = build();
    const { campaign, message } = storedCampaign(1);
    campaigns.set(1, campaign);
    messages.set(1, message);
    const gateway: SmsGateway = { name: 'fake', submit: async () => ({ outcome: 'accepted', gatewayMessageId: 'g1' }) };
    const dispatcher = new SmsDispatcher({ messages: messageStore, gateway, clock: () => T0, statusChanges });

    // Act
    await dispatcher.dispatch(1);
    await dispatcher.report({ gateway: 'fake', gatewayMessageId: 'g1', status: 'DELIVRD', at: T0 });

    // Assess
    expect(writes).toEqual([
      'claimForSend',
      'markAccepted',
      'moveCampaign:SENT',
      'webhooks:ACCEPTD',
      'setMessageStatus:DELIVRD',
      'moveCampaign:DONE',
      'webhooks:DELIVRD',
    ]);
  });

  it('moves the campaign before webhooks hear of an expiry', async () => {
    const { scheduler, ports, campaigns, messages, writes } = build();
    const { campaign, message } = storedCampaign(1, { status: 'SENT' }, { status: 'ACCEPTD', gateway: 'fake', gatewayMessageId: 'g1' });
    campaigns.set(1, campaign);
    messages.set(1, message);
    await ports.schedule.schedule('2026-11-22T09:59', { kind: 'expire', messageId: 1, at: '2026-11-22T09:59:00.000Z' });
    writes.length = 0;

    await scheduler.sweep();

    expect(writes).toEqual([
      'setMessageStatus:EXPIRED',
      'moveCampaign:DONE',
      'webhooks:EXPIRED',
      'unschedule:expire',
      'setSweptUntil:2026-11-22T09:59',
    ]);
  });

  it('tells webhooks of a declined message', async () => {
    const { moderation, campaigns, messages, writes } = build();
    const { campaign, message } = storedCampaign(1, { status: 'MODERATION' });
    campaigns.set(1, campaign);
    messages.set(1, message);

    await moderation.decline(1);

    expect(writes).toEqual(['setMessageStatus:REJECTD', 'webhooks:REJECTD', 'moveCampaign:DECLINED']);
  });

  it('hands a due webhook try to the webhook queue', async () => {
    const { scheduler, ports, writes } = build();
    await ports.schedule.schedule('2026-11-22T09:59', { kind: 'webhook', eventId: 'E1', at: '2026-11-22T09:59:00.000Z' });
    writes.length = 0;

    await scheduler.sweep();

    expect(writes).toEqual(['enqueueWebhook:E1', 'unschedule:webhook', 'setSweptUntil:2026-11-22T09:59']);
  });
});
