import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_ATTEMPTS, signEvent } from '../../shared/domain/webhooks';
import { eventually } from '../support/eventually';
import { startService, type TestService } from '../support/local-service';

/**
 * Delivery-report webhooks (SPEC §7) over the local server: a receiver on 127.0.0.1 that
 * fails and then succeeds, the clock moved by hand between the sweeps that schedule the
 * retries.
 */
describe('delivery-report webhooks', () => {
  let service: TestService;
  let receiver: Server;
  let receiverUrl: string;
  const received: { body: any; at: Date }[] = [];
  /** What the receiver answers, by the number of requests seen so far. */
  let answer: (count: number) => number = () => 200;
  let now = new Date('2032-03-01T09:00:00Z');

  beforeAll(async () => {
    // The receiver is on loopback, which only this setting allows (webhook-targets.test.ts covers the refusals).
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = '1';
    service = await startService();
    service.runtime.clock = () => now;
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ body: JSON.parse(body), at: now });
        res.writeHead(answer(received.length)).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/sms`;
  });

  afterAll(async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
    await service.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  async function accountWithWebhook(timeZone: string) {
    const account = await service.account({ timeZone });
    await service.runtime.accounts.setPrice(account.id, '*', 0.05);
    const webhook = await service.runtime.webhooks.register(account.id, receiverUrl);
    return { ...account, webhook };
  }
  /** Moves the clock and runs the sweep, which queues the retries now due; resolves once they have been attempted. */
  const advance = async (ms: number) => {
    now = new Date(now.getTime() + ms);
    await service.runtime.scheduler.sweep();
    await service.settled();
  };
  /**
   * Waits for a first attempt: it follows a delivery report, which comes on the simulator's
   * timer; resolves once the attempt's outcome (and its next try) has been recorded.
   */
  const requestsReach = async (count: number) => {
    await eventually(() => received.length >= count, {
      timeoutMs: 15_000,
      failure: () => `Expected ${count} webhook requests, got ${received.length}`,
    });
    await service.settled();
  };

  it('posts a signed event for a final status, retrying after 1 and then 2 minutes until a 2xx', async () => {
    // Prepare: the receiver fails twice, then answers 204
    received.length = 0;
    answer = (count) => (count <= 2 ? 500 : 204);
    const { key, webhook } = await accountWithWebhook('Asia/Almaty');

    // Act: a message the simulator delivers
    const sent = await service.api('Message/SendSmsMessage', key, { recipient: '447400123450', text: 'Webhook test' });
    await requestsReach(1);
    expect(await service.runtime.webhooks.attempt(received[0]!.body.eventId)).toEqual({ outcome: 'skipped' }); // too early for a second try
    await advance(59_000);
    expect(received).toHaveLength(1); // the first gap is a minute
    await advance(2_000);
    expect(received).toHaveLength(2);
    await advance(119_000);
    expect(received).toHaveLength(2); // the second gap is two minutes
    await advance(2_000);
    expect(received).toHaveLength(3);
    await advance(10 * 60_000);

    // Assess: three attempts of one event, each signed for its number, then no more
    expect(received).toHaveLength(3);
    const [first, second, third] = received.map((request) => request.body);
    expect(first).toEqual({
      eventId: expect.stringMatching(/^[0-9A-Z]{26}$/),
      eventType: 'sms-delivery-report',
      eventCreateTs: '2032-03-01 14:00:00', // Almaty, UTC+05:00, as YYYY-MM-DD HH:MM:SS
      webhookId: webhook.id,
      attempt: 1,
      data: {
        campaignId: sent.data.campaignId,
        messageId: sent.data.messageId,
        segNum: 1,
        statusUpdateTs: '2032-03-01 14:00:00',
        status: 'DELIVRD',
        to: '447400123450',
      },
      sign: signEvent(first.eventId, 1, '2032-03-01 14:00:00', webhook.secret),
    });
    expect([second.eventId, third.eventId]).toEqual([first.eventId, first.eventId]);
    expect([second.attempt, third.attempt]).toEqual([2, 3]);
    expect(third.sign).toBe(signEvent(first.eventId, 3, first.eventCreateTs, webhook.secret));
    expect(received.map((request) => request.at.getTime() - received[0]!.at.getTime())).toEqual([0, 61_000, 61_000 + 121_000]);
  });

  it(`gives up after ${MAX_ATTEMPTS} failed attempts`, async () => {
    // Prepare: a receiver that always fails
    received.length = 0;
    answer = () => 503;
    const { key } = await accountWithWebhook('UTC');

    // Act
    await service.api('Message/SendSmsMessage', key, { recipient: '447400123456', text: 'Undelivered' });
    await requestsReach(1);
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      await advance(attempt * 60_000 + 1_000);
      expect(received).toHaveLength(attempt + 1);
    }
    await advance(60 * 60_000);

    // Assess
    expect(received.map((request) => request.body.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(received.every((request) => request.body.data.status === 'UNDELIV')).toBe(true);
  });

  it('reports final statuses that no gateway made: a declined campaign and an expired message', async () => {
    // Prepare
    received.length = 0;
    answer = () => 200;
    const { id, key } = await accountWithWebhook('UTC');
    await service.runtime.accounts.setModeration(id, 'all');
    const held = await service.api('Message/SendSmsMessage', key, { recipient: '447400123450', text: 'Held for moderation' });
    await service.runtime.accounts.setModeration(id, 'none');
    const silent = await service.api('Message/SendSmsMessage', key, { recipient: '447400123458', text: 'No report', 'params[validity]': '60' });
    await eventually(
      async () => (await service.api('Message/GetSMSStatus', key, { ids: String(silent.data.messageId) })).data[0]?.status === 'ACCEPTD',
    );

    // Act: decline the first; let the second's validity run out
    await service.runtime.moderation.decline(held.data.campaignId);
    await requestsReach(1);
    await advance(4 * 60_000); // the hand-off check schedules the expiry
    await advance(60 * 60_000);
    await requestsReach(2);

    // Assess
    expect(received.map((request) => [request.body.data.messageId, request.body.data.status])).toEqual([
      [held.data.messageId, 'REJECTD'],
      [silent.data.messageId, 'EXPIRED'],
    ]);
  });
});
