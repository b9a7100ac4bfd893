import { createHash } from 'node:crypto';
import { gapAfterAttempt, signEvent, type WebhookEvent, webhookPayload } from '../../shared/domain/webhooks';

describe('webhook events (SPEC §7)', () => {
  const event: WebhookEvent = {
    eventId: '01JDQ8Z4D7K6W1Y2X3V4B5N6M7',
    webhookId: '01JDQ8Z4D7K6W1Y2X3V4B5N6M0',
    accountId: 3,
    url: 'https://hooks.example.com/sms',
    secret: 'a-secret-of-sixteen+',
    eventCreateTs: '2026-11-22 15:04:05',
    data: { campaignId: 41, messageId: 52, segNum: 1, statusUpdateTs: '2026-11-22 15:04:04', status: 'DELIVRD', to: '447400123450' },
    attempts: 0,
    state: 'pending',
    nextAttemptAt: '2026-11-22T10:04:05.000Z',
  };

  it('signs sha1(eventId|attempt|eventCreateTs|secret) in hex', () => {
    const expected = createHash('sha1').update('01JDQ8Z4D7K6W1Y2X3V4B5N6M7|3|2026-11-22 15:04:05|a-secret-of-sixteen+').digest('hex');
    expect(signEvent(event.eventId, 3, event.eventCreateTs, event.secret)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{40}$/);
  });

  it('posts exactly the documented fields, signed for its attempt, without the secret', () => {
    const body = JSON.parse(webhookPayload(event, 2));
    expect(body).toEqual({
      eventId: event.eventId,
      eventType: 'sms-delivery-report',
      eventCreateTs: '2026-11-22 15:04:05',
      webhookId: event.webhookId,
      attempt: 2,
      data: event.data,
      sign: signEvent(event.eventId, 2, event.eventCreateTs, event.secret),
    });
    expect(JSON.stringify(body)).not.toContain(event.secret);
  });

  it('waits one minute more after each attempt', () => {
    expect([1, 2, 3, 9].map(gapAfterAttempt)).toEqual([60_000, 120_000, 180_000, 540_000]);
  });
});
