import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { Journal } from '../../shared/local/journal';
import { JournalBacklog } from '../../shared/local/journal-backlog';
import { LocalQueue } from '../../shared/local/queue';

// The same rules hold whether a queue keeps its messages in memory or in a journal on disk
// (with a small window, so backlogs are read back from disk).
describe.each(['in memory', 'journaled'])('LocalQueue (%s)', (mode) => {
  // Batching windows, visibility timeouts and delays run on jest's clock: the tests move
  // time instead of waiting for it. The journal's disk work completes on its own.
  let dir: string | undefined;
  let journal: Journal | undefined;
  beforeEach(async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    if (mode === 'journaled') {
      dir = mkdtempSync(join(tmpdir(), 'local-queue-'));
      journal = await Journal.open(dir, { commitMs: 20 });
    }
  });
  const queues: LocalQueue[] = [];
  const queue = async (options: Partial<ConstructorParameters<typeof LocalQueue>[0]> = {}) => {
    const name = options.name ?? 'test';
    const backlog = journal && (await JournalBacklog.open(journal, name, { window: 100 }));
    const created = new LocalQueue({ name, ...options, journal: backlog });
    queues.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(queues.splice(0).map((q) => q.stop()));
    await journal?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    journal = undefined;
    dir = undefined;
    jest.useRealTimers();
  });

  it('delivers SQS-shaped batches of at most batchSize and deletes what succeeded', async () => {
    // Prepare
    const q = await queue({ batchSize: 3 });
    const batches: SQSEvent[] = [];
    q.consume(async (event) => {
      batches.push(event);
    });

    // Act
    for (let i = 0; i < 7; i++) q.send(JSON.stringify({ i }));
    await q.drain();

    // Assess
    expect(batches.map((b) => b.Records.length)).toEqual([3, 3, 1]);
    expect(batches.flatMap((b) => b.Records.map((r) => JSON.parse(r.body).i))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(batches[0]!.Records[0]).toMatchObject({
      eventSource: 'aws:sqs',
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: expect.stringMatching(/^\d+$/) },
    });
    expect(q.depth).toBe(0);
  });

  it('redelivers only the reported batch item failures, after the visibility timeout', async () => {
    // Prepare
    const q = await queue({ visibilityTimeoutMs: 30 });
    const seen: { body: string; count: string }[] = [];
    q.consume(async (event) => {
      for (const r of event.Records) seen.push({ body: r.body, count: r.attributes.ApproximateReceiveCount });
      return {
        batchItemFailures: event.Records.filter((r) => r.body === 'b' && r.attributes.ApproximateReceiveCount === '1').map((r) => ({
          itemIdentifier: r.messageId,
        })),
      };
    });

    // Act
    q.send('a');
    q.send('b');
    await q.drain();
    expect(q.depth).toBe(1); // b is hidden, not yet visible again
    await jest.advanceTimersByTimeAsync(29);
    await q.drain();
    expect(seen).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    await q.drain();

    // Assess
    expect(seen).toEqual([
      { body: 'a', count: '1' },
      { body: 'b', count: '1' },
      { body: 'b', count: '2' },
    ]);
    expect(q.depth).toBe(0);
  });

  it('returns the whole batch when the handler throws, and dead-letters after maxReceiveCount receives', async () => {
    // Prepare
    const dlq = await queue({ name: 'dlq' });
    const q = await queue({ visibilityTimeoutMs: 5, maxReceiveCount: 3, deadLetter: dlq });
    let calls = 0;
    q.consume(async () => {
      calls++;
      throw new Error('worker down');
    });
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);

    // Act
    q.send('poison');
    for (let i = 0; i < 6; i++) {
      await q.drain();
      await jest.advanceTimersByTimeAsync(10);
    }
    errors.mockRestore();

    // Assess
    expect(calls).toBe(3);
    expect(q.depth).toBe(0);
    expect(dlq.bodies()).toEqual(['poison']);
  });

  it('consumes in the background without drain', async () => {
    const q = await queue();
    const done = new Promise<string>((resolve) => q.consume(async (event) => resolve(event.Records[0]!.body)));
    q.send('hello');
    await jest.advanceTimersByTimeAsync(0);
    await expect(done).resolves.toBe('hello');
  });

  it('waits up to batchWindowMs for a fuller batch', async () => {
    const q = await queue({ batchSize: 10, batchWindowMs: 40 });
    const sizes: number[] = [];
    q.consume(async (event) => {
      sizes.push(event.Records.length);
    });
    q.send('1');
    await jest.advanceTimersByTimeAsync(10);
    q.send('2');
    await jest.advanceTimersByTimeAsync(29);
    expect(sizes).toEqual([]); // still gathering
    await jest.advanceTimersByTimeAsync(1);
    expect(sizes).toEqual([2]);
  });

  it('handles up to `concurrency` batches at once, and no more', async () => {
    // Prepare: batches that wait until released
    const q = await queue({ batchSize: 2, concurrency: 3 });
    let active = 0;
    let most = 0;
    const release: (() => void)[] = [];
    q.consume(async () => {
      active++;
      most = Math.max(most, active);
      await new Promise<void>((resolve) => release.push(resolve));
      active--;
    });

    // Act: ten messages, five batches' worth
    for (let i = 0; i < 10; i++) q.send(String(i));
    await jest.advanceTimersByTimeAsync(0);
    const startedBeforeRelease = release.length;
    // Release batches as they start, until all are through.
    while (q.depth > 0) {
      for (const resolve of release.splice(0)) resolve();
      await jest.advanceTimersByTimeAsync(0);
    }

    // Assess
    expect(startedBeforeRelease).toBe(3);
    expect(most).toBe(3);
    expect(q.depth).toBe(0);
  });

  it('delivers a new message at once while another is hidden by its visibility timeout', async () => {
    // Prepare: the first message fails and hides for a long time
    const q = await queue({ visibilityTimeoutMs: 60_000 });
    const delivered: string[] = [];
    q.consume(async (event) => {
      delivered.push(...event.Records.map((r) => r.body));
      return { batchItemFailures: event.Records.filter((r) => r.body === 'fails').map((r) => ({ itemIdentifier: r.messageId })) };
    });
    q.send('fails');
    await jest.advanceTimersByTimeAsync(20); // delivered; the queue now waits for the hidden one
    expect(delivered).toEqual(['fails']);

    // Act
    q.send('next');
    await jest.advanceTimersByTimeAsync(0);

    // Assess: not held back until the hidden message's timeout
    expect(delivered).toEqual(['fails', 'next']);
  });

  it('holds a long backlog without a consumer and then delivers all of it once, in order, with distinct ids', async () => {
    // Prepare: 5,000 messages sent before anyone consumes (as with LOCAL_QUEUE_CONSUMERS=off)
    const q = await queue({ batchSize: 100 });
    for (let i = 0; i < 5000; i++) q.send(String(i));
    expect(q.depth).toBe(5000);
    expect(q.bodies().slice(0, 3)).toEqual(['0', '1', '2']);
    const seen: string[] = [];
    const ids = new Set<string>();
    let failOnce = true;

    // Act: one batch fails on its first message, which comes back after the visibility timeout
    q.consume(async (event) => {
      for (const record of event.Records) ids.add(record.messageId);
      if (failOnce && event.Records[0]!.body === '2500') {
        failOnce = false;
        seen.push(...event.Records.slice(1).map((record) => record.body));
        return { batchItemFailures: [{ itemIdentifier: event.Records[0]!.messageId }] };
      }
      seen.push(...event.Records.map((record) => record.body));
      return undefined;
    });
    await q.drain();
    await jest.advanceTimersByTimeAsync(10);

    // Assess
    expect(q.depth).toBe(1); // the failed one, hidden until its visibility timeout
    expect(seen).toHaveLength(4999);
    expect(seen.slice(0, 2500)).toEqual(Array.from({ length: 2500 }, (_, i) => String(i)));
    expect(ids.size).toBe(5000);
  });

  it('keeps a delayed message hidden until its delay has passed', async () => {
    const q = await queue();
    const received: string[] = [];
    q.consume(async (event) => {
      received.push(...event.Records.map((record) => record.body));
    });
    q.send('later', { delayMs: 80 });
    q.send('now');
    await q.drain();
    expect(received).toEqual(['now']);
    expect(q.depth).toBe(1);
    await jest.advanceTimersByTimeAsync(79);
    expect(received).toEqual(['now']);
    await jest.advanceTimersByTimeAsync(1);
    expect(received).toEqual(['now', 'later']);
    expect(q.depth).toBe(0);
  });
});
