import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../shared/telemetry';
import { startService, type TestService } from '../support/local-service';

/**
 * The queue workers as the queues call them, on the local runtime: which records of a
 * batch come back (batch item failures), and what happens to bodies no producer writes.
 */
describe('queue workers', () => {
  let service: TestService;
  let workers: {
    sms: typeof import('../../functions/sms-worker').handler;
    webhooks: typeof import('../../functions/webhook-worker').handler;
    clicks: typeof import('../../functions/click-aggregator').handler;
  };
  const context = {} as Context;

  beforeAll(async () => {
    service = await startService();
    // Loaded by the local runtime already: the same modules, on the runtime it installed.
    workers = {
      sms: (await import('../../functions/sms-worker')).handler,
      webhooks: (await import('../../functions/webhook-worker')).handler,
      clicks: (await import('../../functions/click-aggregator')).handler,
    };
  });
  afterAll(() => service.close());
  afterEach(() => jest.restoreAllMocks());

  const batch = (...bodies: [string, string][]): SQSEvent => ({
    Records: bodies.map(
      ([messageId, body]): SQSRecord => ({
        messageId,
        receiptHandle: messageId,
        body,
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: String(Date.now()),
          SenderId: 'test',
          ApproximateFirstReceiveTimestamp: String(Date.now()),
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:local:000000000000:test',
        awsRegion: 'local',
      }),
    ),
  });

  describe('sms worker', () => {
    it('dispatches each message, skips JSON without a message id with a log, and returns a body that is not JSON', async () => {
      // Prepare
      const dispatch = jest.spyOn(service.runtime.dispatcher, 'dispatch').mockResolvedValue('unknown');
      const errors = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
      // Act
      const response = await workers.sms(
        batch(['a', '{"messageId":41}'], ['b', '{"messageId":"42"}'], ['c', '{"id":43}'], ['d', 'messageId=44'], ['e', '{"messageId":45}']),
        context,
      );
      // Assess
      expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'd' }] });
      expect(dispatch.mock.calls).toEqual([[41], [45]]);
      expect(errors.mock.calls).toEqual([
        ['Skipping a malformed SMS queue message', { sqsMessageId: 'b' }],
        ['Skipping a malformed SMS queue message', { sqsMessageId: 'c' }],
      ]);
    });

    it('returns only the messages whose dispatch failed', async () => {
      // Prepare: storage is unavailable for message 2
      jest.spyOn(service.runtime.dispatcher, 'dispatch').mockImplementation(async (messageId) => {
        if (messageId === 2) throw new Error('store unavailable');
        return 'accepted';
      });
      const errors = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
      // Act
      const response = await workers.sms(batch(['a', '{"messageId":1}'], ['b', '{"messageId":2}'], ['c', '{"messageId":3}']), context);
      // Assess
      expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'b' }] });
      expect(errors).toHaveBeenCalledWith('SMS dispatch failed', { messageId: 2, error: expect.stringContaining('store unavailable') });
    });

    it('reports a batch in which every dispatch failed record by record, without throwing', async () => {
      // Prepare
      jest.spyOn(service.runtime.dispatcher, 'dispatch').mockRejectedValue(new Error('store unavailable'));
      jest.spyOn(logger, 'error').mockImplementation(() => undefined);
      // Act
      const response = await workers.sms(batch(['a', '{"messageId":1}'], ['b', '{"messageId":2}']), context);
      // Assess
      expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'a' }, { itemIdentifier: 'b' }] });
    });
  });

  describe('webhook worker', () => {
    it('attempts each event, skips JSON without an event id with a log, and returns a body that is not JSON', async () => {
      // Prepare
      const attempt = jest.spyOn(service.runtime.webhooks, 'attempt').mockResolvedValue({ outcome: 'skipped' });
      const errors = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
      // Act
      const response = await workers.webhooks(
        batch(
          ['a', '{"eventId":"01JEVENT"}'],
          ['b', '{"eventId":""}'],
          ['c', '{"eventId":7}'],
          ['d', '{"eventId":'],
          ['e', '{"eventId":"01JOTHER"}'],
        ),
        context,
      );
      // Assess
      expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'd' }] });
      expect(attempt.mock.calls).toEqual([['01JEVENT'], ['01JOTHER']]);
      expect(errors.mock.calls).toEqual([
        ['Skipping a malformed webhook queue message', { sqsMessageId: 'b' }],
        ['Skipping a malformed webhook queue message', { sqsMessageId: 'c' }],
      ]);
    });

    it('returns only the events whose attempt met storage trouble, also when that is all of them', async () => {
      // Prepare
      jest.spyOn(service.runtime.webhooks, 'attempt').mockImplementation(async (eventId) => {
        if (eventId !== 'ok') throw new Error('store unavailable');
        return { outcome: 'retry', webhookId: 'w', attempt: 1, retryAt: new Date(), error: 'HTTP 500' };
      });
      jest.spyOn(logger, 'error').mockImplementation(() => undefined);
      // Act
      const some = await workers.webhooks(batch(['a', '{"eventId":"ok"}'], ['b', '{"eventId":"down"}']), context);
      const all = await workers.webhooks(batch(['c', '{"eventId":"down"}']), context);
      // Assess
      expect(some).toEqual({ batchItemFailures: [{ itemIdentifier: 'b' }] });
      expect(all).toEqual({ batchItemFailures: [{ itemIdentifier: 'c' }] });
    });
  });

  describe('click aggregator', () => {
    const click = '{"linkId":5,"accountId":6,"at":"2026-11-23T10:00:00.000Z","visitor":"human","redirected":true}';

    it('aggregates the clicks of a batch and skips any other body with a log, JSON or not', async () => {
      // Prepare
      const aggregate = jest.spyOn(service.runtime.clicks, 'aggregate').mockResolvedValue();
      const errors = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
      // Act
      await workers.clicks(batch(['a', click], ['b', '{"linkId":5}'], ['c', 'not json'], ['d', click.replace('human', 'robot')]));
      // Assess
      expect(aggregate.mock.calls).toEqual([[[{ messageId: 'a', receiveCount: 1, firstReceivedAt: expect.any(Date), event: JSON.parse(click) }]]]);
      expect(errors.mock.calls.map(([message, fields]) => [message, fields])).toEqual(
        ['b', 'c', 'd'].map((id) => ['Skipping a malformed click message', { sqsMessageId: id }]),
      );
    });

    it('fails the whole batch when the aggregation fails: it is counted as one set of messages', async () => {
      // Prepare
      jest.spyOn(service.runtime.clicks, 'aggregate').mockRejectedValue(new Error('store unavailable'));
      // Act and assess
      await expect(workers.clicks(batch(['a', click], ['b', click]))).rejects.toThrow('store unavailable');
    });
  });
});
