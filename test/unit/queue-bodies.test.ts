import type { SQSEvent } from 'aws-lambda';
import fc from 'fast-check';
import { clickBatch } from '../../shared/api/click-batch';
import { type ClickEvent, clickEventBody } from '../../shared/domain/clicks';
import { isoInstant } from '../../shared/domain/time';
import { ClickBody, readBody, SmsBody, smsBody, WebhookBody, webhookBody } from '../../shared/queue/bodies';
import { logger } from '../../shared/telemetry';

describe('queue message bodies', () => {
  it('reads back what the producers write', () => {
    expect(readBody(SmsBody, smsBody(42))).toEqual({ messageId: 42 });
    expect(smsBody(42)).toBe('{"messageId":42}');
    expect(readBody(WebhookBody, webhookBody('01JD4X0R5E8W6S9Y2T3V4B7N1M'))).toEqual({ eventId: '01JD4X0R5E8W6S9Y2T3V4B7N1M' });
    expect(webhookBody('e1')).toBe('{"eventId":"e1"}');
  });

  it('reads every click event the redirect writes as that event', () => {
    const click = fc.record<ClickEvent>({
      linkId: fc.maxSafeNat(),
      accountId: fc.maxSafeNat(),
      at: fc.date({ min: new Date(0), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }).map(isoInstant),
      visitor: fc.constantFrom('human', 'bot'),
      redirected: fc.boolean(),
    });
    fc.assert(fc.property(click, (event) => expect(readBody(ClickBody, clickEventBody(event))).toEqual(event)));
  });

  it.each([
    ['a message id that is a string', SmsBody, '{"messageId":"42"}'],
    ['a message id that is not an integer', SmsBody, '{"messageId":4.5}'],
    ['a message id beyond safe integers', SmsBody, '{"messageId":9007199254740993}'],
    ['no message id', SmsBody, '{"id":42}'],
    ['a null body', SmsBody, 'null'],
    ['an empty event id', WebhookBody, '{"eventId":""}'],
    ['an event id that is a number', WebhookBody, '{"eventId":7}'],
    ['a click without a time', ClickBody, '{"linkId":1,"accountId":2,"visitor":"human","redirected":true}'],
    ['a click at no time', ClickBody, '{"linkId":1,"accountId":2,"at":"yesterday","visitor":"human","redirected":true}'],
    ['a click by an unknown visitor', ClickBody, '{"linkId":1,"accountId":2,"at":"2026-11-23T10:00:00Z","visitor":"robot","redirected":true}'],
    ['a click redirected as a string', ClickBody, '{"linkId":1,"accountId":2,"at":"2026-11-23T10:00:00Z","visitor":"bot","redirected":"false"}'],
    ['a click on a fractional link', ClickBody, '{"linkId":1.5,"accountId":2,"at":"2026-11-23T10:00:00Z","visitor":"bot","redirected":false}'],
  ])('reads JSON with %s as no body', (_, schema, body) => {
    expect(readBody(schema, body)).toBeUndefined();
  });

  it('throws on a body that is not JSON, for the worker to decide', () => {
    expect(() => readBody(SmsBody, 'messageId=42')).toThrow(SyntaxError);
  });
});

describe('clickBatch', () => {
  afterEach(() => jest.restoreAllMocks());

  it('reads the clicks with their receive count and first receive, and skips any other body with a log', () => {
    // Prepare
    const click = clickEventBody({ linkId: 5, accountId: 6, at: '2026-11-23T10:00:00.000Z', visitor: 'human', redirected: true });
    const errors = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const record = (messageId: string, body: string, attributes: Record<string, string>) => ({ messageId, body, attributes });
    const event = {
      Records: [
        record('a', click, { ApproximateReceiveCount: '2', ApproximateFirstReceiveTimestamp: '1764000000000', SentTimestamp: '1763999999000' }),
        record('b', 'not json', { ApproximateReceiveCount: '1' }),
        record('c', '{"linkId":5}', { ApproximateReceiveCount: '1' }),
        record('d', click, { ApproximateReceiveCount: '1', SentTimestamp: '1763999999000' }),
      ],
    } as unknown as SQSEvent;
    // Act
    const clicks = clickBatch(event);
    // Assess
    expect(clicks).toEqual([
      { messageId: 'a', receiveCount: 2, firstReceivedAt: new Date(1764000000000), event: JSON.parse(click) },
      { messageId: 'd', receiveCount: 1, firstReceivedAt: new Date(1763999999000), event: JSON.parse(click) },
    ]);
    expect(errors.mock.calls).toEqual([
      ['Skipping a malformed click message', { sqsMessageId: 'b' }],
      ['Skipping a malformed click message', { sqsMessageId: 'c' }],
    ]);
  });
});
