import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ulid } from 'ulid';
import { utcMinuteOf } from '../../shared/domain/time';
import type { WebhookTargetPolicy } from '../../shared/domain/webhook-targets';
import { type WebhookEvent, WebhookService } from '../../shared/domain/webhooks';
import { cryptoToken, keyedUlid, ulidAt } from '../../shared/ids';
import type { Store } from '../../shared/store/client';
import { ScheduleRepository } from '../../shared/store/schedule-repo';
import { SettingsRepository } from '../../shared/store/settings-repo';
import { WebhooksRepository } from '../../shared/store/webhooks-repo';
import { webhookSender } from '../../shared/webhooks/http-sender';
import { startTestStore } from '../support/dynamo';

/**
 * What an attempt does with a refused target, over the real table and sender: a URL
 * refused by itself is abandoned at once, a name that resolves to a refused address is
 * a failed attempt like any other (DNS may answer differently at the next one).
 */
describe('webhook attempts to refused targets', () => {
  let store: Store;
  let close: () => Promise<void>;
  let receiver: Server;
  let port: number;
  const received: string[] = [];
  const now = new Date('2032-03-01T09:00:00Z');
  /** hooks.example.test is the receiver on loopback, whatever the machine's DNS says. */
  const resolve = async (hostname: string) => (hostname === 'hooks.example.test' ? ['127.0.0.1'] : []);

  beforeAll(async () => {
    ({ store, close } = await startTestStore());
    receiver = createServer((request, response) => {
      received.push(`${request.method} ${request.url}`);
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await close();
  });
  beforeEach(() => (received.length = 0));

  function service(targets: WebhookTargetPolicy): WebhookService {
    const schedule = new ScheduleRepository(store, new SettingsRepository(store));
    return new WebhookService({
      ports: {
        store: new WebhooksRepository(store),
        scheduleTry: (eventId, at) => schedule.schedule(utcMinuteOf(at), { kind: 'webhook', eventId, at: at.toISOString() }),
        unscheduleTry: (eventId, at) => schedule.unschedule(utcMinuteOf(at), { kind: 'webhook', eventId, at: at.toISOString() }),
        enqueue: async () => undefined,
        zoneOf: async () => 'UTC',
        post: webhookSender(targets, resolve),
      },
      targets,
      clock: () => now,
      ids: ulidAt,
      eventIds: keyedUlid,
      secrets: cryptoToken,
    });
  }
  const strict = () => service({ allowPrivate: false, ownBases: [] });
  const relaxed = () => service({ allowPrivate: true, ownBases: [] });

  async function storedEvent(url: string): Promise<string> {
    const event: WebhookEvent = {
      eventId: ulid(),
      webhookId: ulid(),
      accountId: 7,
      url,
      secret: 'a-secret-of-sixteen+',
      eventCreateTs: '2032-03-01 09:00:00',
      data: { campaignId: 1, messageId: 2, segNum: 1, statusUpdateTs: '2032-03-01 09:00:00', status: 'DELIVRD', to: '447400123450' },
      attempts: 0,
      state: 'pending',
      nextAttemptAt: now.toISOString(),
    };
    await new WebhooksRepository(store).createEvent(event);
    return event.eventId;
  }
  const eventOf = (eventId: string) => new WebhooksRepository(store).getEvent(eventId);

  it('counts a name that resolves to loopback as a failed attempt, to be tried again, and sends nothing', async () => {
    // Prepare
    const eventId = await storedEvent(`http://hooks.example.test:${port}/hook`);

    // Act
    const outcome = await strict().attempt(eventId);

    // Assess
    expect(outcome).toMatchObject({ outcome: 'retry', attempt: 1, refused: 'address', retryAt: new Date(now.getTime() + 60_000) });
    expect(await eventOf(eventId)).toMatchObject({
      state: 'pending',
      attempts: 1,
      nextAttemptAt: new Date(now.getTime() + 60_000).toISOString(),
      lastError: 'Webhook host hooks.example.test resolves to 127.0.0.1, a loopback address (WEBHOOK_ALLOW_PRIVATE_TARGETS=1 allows private targets)',
    });
    expect(received).toEqual([]);
  });

  it('abandons an event whose stored URL is refused by itself at its first attempt', async () => {
    // Prepare
    const eventId = await storedEvent(`http://127.0.0.1:${port}/hook`);

    // Act
    const outcome = await strict().attempt(eventId);

    // Assess
    expect(outcome).toMatchObject({ outcome: 'failed', attempt: 1, refused: 'url', error: expect.stringContaining('127.0.0.1, a loopback address') });
    expect(await eventOf(eventId)).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: expect.stringContaining('127.0.0.1, a loopback address'),
    });
    expect(received).toEqual([]);
  });

  it('delivers to the same targets when private targets are allowed', async () => {
    // Prepare
    const byName = await storedEvent(`http://hooks.example.test:${port}/by-name`);
    const byAddress = await storedEvent(`http://127.0.0.1:${port}/by-address`);

    // Act
    const outcomes = [await relaxed().attempt(byName), await relaxed().attempt(byAddress)];

    // Assess
    expect(outcomes.map((result) => result.outcome)).toEqual(['delivered', 'delivered']);
    expect(received).toEqual(['POST /by-name', 'POST /by-address']);
  });
});
