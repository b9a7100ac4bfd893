import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { recordBatchHandler } from '../../shared/queue/record-batch';

describe('recordBatchHandler', () => {
  const context = {} as Context;
  const batch = (...ids: string[]) => ({ Records: ids.map((messageId) => ({ messageId, body: messageId }) as SQSRecord) }) as SQSEvent;

  it('reports the records whose handling threw, and only those', async () => {
    // Prepare
    const handler = recordBatchHandler(async (record) => {
      if (record.body.startsWith('bad')) throw new Error('store unavailable');
    });
    // Act and assess
    await expect(handler(batch('ok1', 'bad1', 'ok2', 'bad2'), context)).resolves.toEqual({
      batchItemFailures: [{ itemIdentifier: 'bad1' }, { itemIdentifier: 'bad2' }],
    });
    await expect(handler(batch('ok1'), context)).resolves.toEqual({ batchItemFailures: [] });
    await expect(handler(batch('bad1'), context)).resolves.toEqual({ batchItemFailures: [{ itemIdentifier: 'bad1' }] });
  });

  it('keeps batches handled side by side apart (the local queue runs two at once)', async () => {
    // Prepare: the first batch's records wait until the second batch is done
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const handler = recordBatchHandler(async (record) => {
      if (record.body.startsWith('first')) await released;
      if (record.body.endsWith('bad')) throw new Error('store unavailable');
    });
    // Act
    const first = handler(batch('first-ok', 'first-bad'), context);
    const second = await handler(batch('second-bad', 'second-ok', 'second-ok-too'), context);
    release();
    // Assess
    expect(second).toEqual({ batchItemFailures: [{ itemIdentifier: 'second-bad' }] });
    await expect(first).resolves.toEqual({ batchItemFailures: [{ itemIdentifier: 'first-bad' }] });
  });
});
