import { type Account, EMPTY_SENDING_SETTINGS } from '../../shared/domain/accounts';
import { SmsDispatcher } from '../../shared/domain/sms-dispatcher';
import { SimulatorGateway } from '../../shared/sms/simulator';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { MessagesRepository } from '../../shared/store/messages-repo';
import { startTestStore } from '../support/dynamo';
import { eventually } from '../support/eventually';
import { messagingOver } from '../support/messaging';

let store: Store;
let close: () => Promise<void>;
const NOW = new Date('2026-11-22T10:00:00Z');

beforeAll(async () => {
  ({ store, close } = await startTestStore());
});
afterAll(() => close());

function build(enqueued: number[]) {
  const messaging = messagingOver(store, { clock: () => NOW, queued: enqueued });
  return { ...messaging, service: messaging.sending, messages: new MessagesRepository(store), campaigns: new CampaignsRepository(store) };
}

const account = (sending: Partial<Account['sending']> = {}): Account => ({
  id: 7,
  name: 'Shop',
  timeZone: 'UTC',
  currency: 'USD',
  status: 'active',
  createdAt: NOW.toISOString(),
  sending: { ...EMPTY_SENDING_SETTINGS, tariff: { '*': 0.05 }, ...sending },
  rateLimit: null,
});

describe('MessageSending.send', () => {
  it('creates a campaign with one NEW message, shortens its links and queues it', async () => {
    // Prepare
    const enqueued: number[] = [];
    const { service, messages, campaigns } = build(enqueued);

    // Act
    const sent = await service.send(account(), {
      recipient: '+447400123450',
      text: 'Sale! https://example.com/offer?id=1. And www.example.org',
      shortenLinks: true,
      validityMinutes: 1440,
      name: 'November',
    });

    // Assess
    expect(sent).toEqual({ campaignId: expect.any(Number), messageId: expect.any(Number), status: 2 });
    expect(enqueued).toEqual([sent.messageId]);
    const message = await messages.get(sent.messageId);
    expect(message).toMatchObject({ status: 'NEW', from: 'SMSService', to: '447400123450', countryA2: 'GB', segUserBuy: 0.05, segNum: 1 });
    expect(message!.text).toMatch(/^Sale! https:\/\/sho\.rt\/[0-9a-z]{4}\. And https:\/\/sho\.rt\/[0-9a-z]{4}$/);
    const campaign = await campaigns.get(sent.campaignId);
    expect(campaign).toMatchObject({ status: 'RUNNING', messageId: sent.messageId, name: 'November' });
    expect(campaign!.linkIds).toHaveLength(2);
  });

  it('holds a campaign for moderation (status 1) and queues nothing', async () => {
    const enqueued: number[] = [];
    const { service, campaigns } = build(enqueued);
    const sent = await service.send(account({ moderation: 'all' }), {
      recipient: '447400123450',
      text: 'Hi',
      shortenLinks: false,
      validityMinutes: 60,
    });
    expect(sent.status).toBe(1);
    expect(enqueued).toEqual([]);
    expect((await campaigns.get(sent.campaignId))?.status).toBe('MODERATION');
  });

  it('schedules a deferred campaign under its minute instead of queueing it', async () => {
    const enqueued: number[] = [];
    const { service, ports } = build(enqueued);
    const deferredTo = new Date(NOW.getTime() + 2 * 3600_000 + 30_000);
    const sent = await service.send(account(), { recipient: '447400123450', text: 'Later', shortenLinks: false, validityMinutes: 60, deferredTo });
    expect(sent.status).toBe(2);
    expect(enqueued).toEqual([]);
    expect(await ports.schedule.dueIn('2026-11-22T12:00')).toEqual([{ kind: 'send', campaignId: sent.campaignId, messageId: sent.messageId }]);
  });

  it.each([
    [{ recipient: '4477' }, 'recipient', 'Recipient is not a valid phone number'],
    [{ text: '   ' }, 'text', 'Text is required'],
    [{ text: 'x'.repeat(1531) }, 'text', 'Text is longer than 10 SMS segments (11)'],
    [{ from: 'Unknown' }, 'from', 'Sender Unknown is not an approved signature of this account'],
    [{ deferredTo: new Date(NOW.getTime() + 3000_000) }, 'deferredToTs', 'Deferred sending must be 1 hour to 14 days ahead'],
    [{ deferredTo: new Date(NOW.getTime() + 15 * 86400_000) }, 'deferredToTs', 'Deferred sending must be 1 hour to 14 days ahead'],
  ])('refuses %j with a validation error and writes nothing', async (change, field, message) => {
    const enqueued: number[] = [];
    const { service } = build(enqueued);
    const attempt = service.send(account(), { recipient: '447400123450', text: 'Hi', shortenLinks: false, validityMinutes: 60, ...change });
    await expect(attempt).rejects.toMatchObject({ kind: 'invalid', fields: { [field]: [message] } });
    expect(enqueued).toEqual([]);
  });

  it('refuses a destination without a price', async () => {
    const { service } = build([]);
    const attempt = service.send(account({ tariff: { KZ: 0.02 } }), {
      recipient: '447400123450',
      text: 'Hi',
      shortenLinks: false,
      validityMinutes: 60,
    });
    await expect(attempt).rejects.toMatchObject({ kind: 'invalid', fields: { recipient: ['Sending to GB is not enabled for this account'] } });
  });

  it('moves the campaign to SENT and DONE as the simulator reports', async () => {
    // Prepare
    const enqueued: number[] = [];
    const { service, messages, campaigns, statusChanges } = build(enqueued);
    let dispatcher: SmsDispatcher;
    const gateway = new SimulatorGateway({ report: (report) => dispatcher.report(report) });
    dispatcher = new SmsDispatcher({ messages, gateway, clock: () => new Date(), statusChanges });
    const sent = await service.send(account(), { recipient: '447400123450', text: 'Hi', shortenLinks: false, validityMinutes: 60 });

    // Act
    await dispatcher.dispatch(enqueued[0]!);
    await eventually(async () => (await campaigns.get(sent.campaignId))?.status === 'DONE');

    // Assess
    expect((await messages.get(sent.messageId))?.status).toBe('DELIVRD');
    expect(await campaigns.get(sent.campaignId)).toMatchObject({ status: 'DONE', sentAt: expect.any(String) });
  });
});
