import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { ClassicLevel } from 'classic-level';
import { commitWindowMs, Journal } from '../../shared/local/journal';
import { JournalBacklog } from '../../shared/local/journal-backlog';
import { JournalGroup } from '../../shared/local/journal-group';
import { LocalQueue, type LocalQueueOptions } from '../../shared/local/queue';

/**
 * The local queues' journal on a real LevelDB directory: what a run leaves is delivered
 * again by the next, as redeliveries with the message ids it had; what a handler finished
 * or dead-lettered is not; a backlog longer than the window is read back from disk in order.
 */
describe('local queue journal', () => {
  let dir: string;
  const journals: Journal[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'queue-journal-'));
  });
  afterEach(async () => {
    jest.useRealTimers();
    await Promise.all(journals.splice(0).map((journal) => journal.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** A run of the process: the journal opened on `dir`, and queues over it. */
  const run = async (commitMs = 5) => {
    const journal = await Journal.open(dir, { commitMs });
    journals.push(journal);
    const queue = async (options: LocalQueueOptions, window = 1000) =>
      new LocalQueue({ ...options, journal: await JournalBacklog.open(journal, options.name, { window }) });
    /** Ends the run as a stop would leave the disk: what was sent is written, the queue is left as it is. */
    const end = async () => {
      journals.splice(journals.indexOf(journal), 1);
      await journal.close();
    };
    return { journal, queue, end };
  };
  const records = (seen: SQSRecord[]) =>
    seen.map((record) => ({
      body: record.body,
      id: record.messageId,
      receiveCount: record.attributes.ApproximateReceiveCount,
      firstReceived: Number(record.attributes.ApproximateFirstReceiveTimestamp),
      sent: Number(record.attributes.SentTimestamp),
    }));

  it('delivers again after a restart what no handler finished, as redeliveries with the same ids, and not what was finished', async () => {
    // Prepare: a handler finishes a, reports b failed, and is stopped dead while it holds c and d.
    const first = await run();
    const q1 = await first.queue({ name: 'clicks', batchSize: 2 });
    const seenFirst: SQSRecord[] = [];
    q1.consume(async (event) => {
      seenFirst.push(...event.Records);
      if (event.Records[0]!.body === 'c') return new Promise<never>(() => undefined);
      return { batchItemFailures: event.Records.filter((r) => r.body === 'b').map((r) => ({ itemIdentifier: r.messageId })) };
    });
    for (const body of ['a', 'b', 'c', 'd']) q1.send(body);
    while (seenFirst.length < 4) await new Promise((resolve) => setTimeout(resolve, 5));
    await first.end();

    // Act
    const second = await run();
    const q2 = await second.queue({ name: 'clicks', batchSize: 10 });
    const seenSecond: SQSRecord[] = [];
    q2.consume(async (event) => {
      seenSecond.push(...event.Records);
    });
    await q2.drain();

    // Assess
    const before = new Map(records(seenFirst).map((record) => [record.body, record]));
    expect(records(seenSecond)).toEqual(
      ['b', 'c', 'd'].map((body) => ({
        body,
        id: before.get(body)!.id,
        receiveCount: '2',
        firstReceived: before.get(body)!.sent,
        sent: before.get(body)!.sent,
      })),
    );
    // What the new run sends is a first delivery, with an id of its own.
    q2.send('e');
    await q2.drain();
    expect(records(seenSecond).map((record) => [record.body, record.receiveCount])).toEqual([
      ['b', '2'],
      ['c', '2'],
      ['d', '2'],
      ['e', '1'],
    ]);
    expect(new Set(records(seenSecond).map((record) => record.id)).size).toBe(4);
    expect(q2.depth).toBe(0);
    await q2.stop();
  });

  it('leaves nothing to deliver after a restart once every message is finished, and nothing on disk', async () => {
    // Prepare: sends over several commit windows, a batch finished at a time.
    const first = await run();
    const q1 = await first.queue({ name: 'sms', batchSize: 3 });
    q1.consume(async () => undefined);
    for (let i = 0; i < 25; i++) {
      q1.send(String(i));
      if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await q1.drain();
    await q1.stop();
    await first.end();

    // Act
    const second = await run();
    const q2 = await second.queue({ name: 'sms' });

    // Assess
    expect(q2.depth).toBe(0);
    expect(await second.journal.read(Journal.range('sms'), undefined, 10)).toEqual([]);
    expect(await second.journal.read(Journal.stateRange('sms'), undefined, 10)).toEqual([]);
  });

  it('delivers after a restart only the unfinished messages of a window, from disk a window at a time, with their receives recorded', async () => {
    // Prepare: 300 messages in one commit window. A first run finishes the even ones; a
    // second finishes the odd multiples of 3 and fails the other odd ones (their second
    // receive, which the journal records for the redrive); failed ones stay hidden.
    const failing = (fails: (n: number) => boolean) => async (event: SQSEvent) => ({
      batchItemFailures: event.Records.filter((r) => fails(Number(r.body))).map((r) => ({ itemIdentifier: r.messageId })),
    });
    const first = await run();
    const q1 = await first.queue({ name: 'clicks', batchSize: 100 });
    q1.consume(failing((n) => n % 2 === 1));
    for (let i = 0; i < 300; i++) q1.send(String(i));
    await q1.drain();
    const idsBefore = new Map<string, string>();
    await q1.stop();
    await first.end();
    const second = await run();
    const q2 = await second.queue({ name: 'clicks', batchSize: 100 });
    q2.consume(async (event) => {
      for (const record of event.Records) idsBefore.set(record.body, record.messageId);
      return failing((n) => n % 3 !== 0)(event);
    });
    await q2.drain();
    await q2.stop();
    await second.end();

    // Act: the third run holds 40 messages in memory at most.
    const third = await run();
    const q3 = await third.queue({ name: 'clicks', batchSize: 25 }, 40);
    const depth = q3.depth;
    const seen: SQSRecord[] = [];
    q3.consume(async (event) => {
      seen.push(...event.Records);
    });
    await q3.drain();

    // Assess
    const left = Array.from({ length: 300 }, (_, n) => n).filter((n) => n % 2 === 1 && n % 3 !== 0);
    expect(depth).toBe(left.length);
    expect(seen.map((record) => record.body)).toEqual(left.map(String));
    expect(seen.filter((record) => record.attributes.ApproximateReceiveCount !== '3')).toEqual([]);
    expect(seen.filter((record) => record.messageId !== idsBefore.get(record.body))).toEqual([]);
    expect(q3.depth).toBe(0);
    await q3.stop();
  });

  it("delivers what the previous version's journal holds (one entry a message) with the message ids it gave, then deletes it", async () => {
    // Prepare: two messages as the previous version wrote them, one received twice already.
    const legacy = new ClassicLevel<string, string>(dir);
    await legacy.batch([
      { type: 'put', key: '~run', value: '1' },
      { type: 'put', key: 'clicks!00000001000000000000', value: '{"sentAt":1000}\nfirst' },
      { type: 'put', key: 'clicks!00000001000000000001', value: '{"sentAt":2000,"receiveCount":2,"firstReceivedAt":2500}\nsecond\nline' },
    ]);
    await legacy.close();

    // Act
    const { journal, queue } = await run();
    const q = await queue({ name: 'clicks' });
    const depth = q.depth;
    const seen: SQSRecord[] = [];
    q.consume(async (event) => {
      seen.push(...event.Records);
    });
    await q.drain();
    await journal.flush();

    // Assess
    expect(depth).toBe(2);
    expect(records(seen)).toEqual([
      { body: 'first', id: 'clicks-00000001000000000000', receiveCount: '2', firstReceived: 1000, sent: 1000 },
      { body: 'second\nline', id: 'clicks-00000001000000000001', receiveCount: '3', firstReceived: 2500, sent: 2000 },
    ]);
    expect(await journal.read(Journal.range('clicks'), undefined, 10)).toEqual([]);
    expect(await journal.read(Journal.stateRange('clicks'), undefined, 10)).toEqual([]);
    await q.stop();
  });

  it('keeps a dead-lettered message in the dead-letter queue across a restart, and only there', async () => {
    // Prepare
    const first = await run();
    const dlq1 = await first.queue({ name: 'sms-dlq' });
    const q1 = await first.queue({ name: 'sms', visibilityTimeoutMs: 0, maxReceiveCount: 2, deadLetter: dlq1 });
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    q1.consume(async () => {
      throw new Error('worker down');
    });
    q1.send('poison');
    q1.send('fine');
    while (dlq1.depth < 2) await q1.drain();
    await q1.stop();
    errors.mockRestore();
    await first.end();

    // Act
    const second = await run();
    const q2 = await second.queue({ name: 'sms' });
    const dlq2 = await second.queue({ name: 'sms-dlq' });

    // Assess
    expect(q2.depth).toBe(0);
    expect(dlq2.bodies()).toEqual(['poison', 'fine']);
  });

  it('holds at most its window in memory and delivers a longer backlog from disk, in order, once, with sends arriving meanwhile', async () => {
    // Prepare: 2,000 messages before a consumer, a window of 50.
    const { journal } = await run();
    const backlog = await JournalBacklog.open(journal, 'clicks', { window: 50 });
    const q = new LocalQueue({ name: 'clicks', batchSize: 25, journal: backlog });
    for (let i = 0; i < 2000; i++) q.send(String(i));
    expect(q.depth).toBe(2000);
    expect(q.bodies()).toHaveLength(50);
    const seen: string[] = [];
    const ids = new Set<string>();
    let mostInMemory = 0;

    // Act: each of the first batches sends one more message.
    q.consume(async (event) => {
      mostInMemory = Math.max(mostInMemory, backlog.ready);
      for (const record of event.Records) {
        seen.push(record.body);
        ids.add(record.messageId);
      }
      if (seen.length <= 500) q.send(`more ${seen.length}`);
    });
    await q.drain();

    // Assess
    expect(mostInMemory).toBeLessThanOrEqual(50);
    const more = seen.filter((body) => body.startsWith('more'));
    expect(seen.slice(0, 2000)).toEqual(Array.from({ length: 2000 }, (_, i) => String(i)));
    expect(more).toHaveLength(20);
    expect(seen).toHaveLength(2020);
    expect(ids.size).toBe(2020);
    expect(q.depth).toBe(0);
    await q.stop();
  });

  it('commits the sends of a commit window together, as one entry, once the window has passed', async () => {
    // Prepare
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const { journal, queue } = await run(20);
    const q = await queue({ name: 'webhooks' });

    // Act
    q.send('1');
    q.send('2');
    await jest.advanceTimersByTimeAsync(19);
    const gathered = journal.pending;
    await jest.advanceTimersByTimeAsync(1);

    // Assess
    expect(gathered).toBe(2);
    expect(journal.pending).toBe(0);
    await journal.flush(); // waits for the write under way
    const entries = await journal.read(Journal.range('webhooks'), undefined, 10);
    expect(entries).toHaveLength(1);
    const [key, value] = entries[0]!;
    expect(JournalGroup.decode('webhooks', key, value, undefined, false).bodies).toEqual(['1', '2']);
  });

  it('reads its commit window from LOCAL_QUEUE_COMMIT_MS, at most 50 ms', () => {
    expect(commitWindowMs({})).toBe(20);
    expect(commitWindowMs({ LOCAL_QUEUE_COMMIT_MS: '50' })).toBe(50);
    expect(() => commitWindowMs({ LOCAL_QUEUE_COMMIT_MS: '51' })).toThrow(/from 0 to 50/);
    expect(() => commitWindowMs({ LOCAL_QUEUE_COMMIT_MS: 'soon' })).toThrow(/LOCAL_QUEUE_COMMIT_MS/);
  });
});
