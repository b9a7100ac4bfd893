import { randomUUID } from 'node:crypto';
import { BodyLog } from './body-log';
import { sequentialIds } from './ids';
import type { JournalBacklog } from './journal-backlog';
import { type JournalEntry, type JournaledMessage, journaledMessageId } from './journal-group';
import { lambdaContext } from './lambda-context';
import { type QueueHandler, sqsEvent } from './sqs-event';

export { LocalQueues } from './local-queues';
export type { QueueHandler } from './sqs-event';

export interface LocalQueueOptions {
  name: string;
  /** Most messages per handler invocation (SQS: BatchSize). */
  batchSize?: number;
  /** How long to wait for a fuller batch (SQS: MaximumBatchingWindowInSeconds). */
  batchWindowMs?: number;
  /** Batches handled at once (Lambda: the event source mapping's maximum concurrency). */
  concurrency?: number;
  /** How long a received message stays hidden before it is delivered again. */
  visibilityTimeoutMs?: number;
  /** Receives after which a message goes to the dead-letter queue (redrive policy). */
  maxReceiveCount?: number;
  deadLetter?: LocalQueue;
  /** Where the messages are kept on disk; without, they live in memory only. */
  journal?: JournalBacklog;
}

interface StoredMessage {
  seq: number;
  /** Given when first received: an id per message costs the send path nothing. */
  messageId: string | undefined;
  /** Where the journal keeps a journaled message. */
  entry: JournalEntry | undefined;
  body: string;
  sentAt: number;
  firstReceivedAt: number | undefined;
  receiveCount: number;
  visibleAt: number;
}

/** A message in a batch: it has its id from the first receive on. */
type ReceivedMessage = StoredMessage & { messageId: string };

/** A message taken from the backlog, where only a journaled one has an entry and may have been received in an earlier run. */
type WaitingMessage = Omit<JournaledMessage, 'entry'> & { entry: JournalEntry | undefined };

/**
 * An in-process queue with the SQS semantics the workers rely on: batches, a visibility
 * timeout, redelivery of whatever a handler did not finish (the whole batch when it
 * throws, the `batchItemFailures` when it reports them), and a dead-letter queue after
 * `maxReceiveCount` receives. Handlers get SQS-shaped events, so the same code runs under
 * Lambda's SQS event source mapping.
 *
 * With a journal, every message is on disk from its send's group commit until it is
 * deleted (LocalQueue deletes what a handler finished, in the same commits), and after a
 * restart what was left is delivered again, as redeliveries with the same message ids;
 * memory holds the journal's window and the messages received. Without one (tests),
 * messages live in memory and what the process holds when it stops is lost.
 */
export class LocalQueue {
  readonly name: string;
  readonly #options: Required<Omit<LocalQueueOptions, 'deadLetter' | 'name' | 'journal'>> & { deadLetter?: LocalQueue };
  /**
   * Messages sent and not received yet, in the order sent: the journal (on disk, a window
   * in memory), or else a BodyLog (outside the JS heap). Sending, the redirect's path for
   * clicks, stays cheap however long the queue grows. Receiving takes them after `#messages`.
   */
  readonly #fresh: BodyLog | JournalBacklog;
  readonly #journal: JournalBacklog | undefined;
  /** Messages received at least once (in flight or waiting to be delivered again) and delayed sends. */
  readonly #messages = new Map<number, StoredMessage>();
  /** How many `#messages` may hold before receiving stops taking new ones (a journal's window: memory stays bounded). */
  readonly #holdLimit: number;
  readonly #messageIds = sequentialIds();
  #seq = 0;
  #handler: QueueHandler | undefined;
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Infinity;
  readonly #inFlight = new Set<Promise<void>>();

  constructor(options: LocalQueueOptions) {
    this.name = options.name;
    this.#options = {
      batchSize: options.batchSize ?? 10,
      batchWindowMs: options.batchWindowMs ?? 0,
      concurrency: options.concurrency ?? 1,
      visibilityTimeoutMs: options.visibilityTimeoutMs ?? 30_000,
      maxReceiveCount: options.maxReceiveCount ?? 5,
      deadLetter: options.deadLetter,
    };
    this.#journal = options.journal;
    this.#fresh = options.journal ?? new BodyLog();
    this.#holdLimit = options.journal?.capacity ?? Infinity;
    options.journal?.onRefill(() => this.#schedule(0));
  }

  send(body: string, options: { delayMs?: number } = {}): void {
    const now = Date.now();
    const delayMs = options.delayMs ?? 0;
    if (this.#journal) {
      this.#journal.append(body, now, delayMs > 0 ? now + delayMs : undefined);
    } else if (delayMs > 0) {
      const seq = this.#seq++;
      this.#messages.set(seq, {
        seq,
        messageId: undefined,
        entry: undefined,
        body,
        sentAt: now,
        firstReceivedAt: undefined,
        receiveCount: 0,
        visibleAt: now + delayMs,
      });
    } else {
      this.#fresh.append(body, now);
    }
    this.#schedule(delayMs);
  }

  /** Messages waiting or in flight. */
  get depth(): number {
    return this.#messages.size + this.#fresh.size;
  }

  /** Bodies of the messages currently held (dead-letter inspection). */
  bodies(): string[] {
    return [...[...this.#messages.values()].map((message) => message.body), ...this.#fresh.peekAll()];
  }

  /** Starts delivering batches to `handler` in the background. */
  consume(handler: QueueHandler): void {
    this.#handler = handler;
    this.#schedule(0);
  }

  stop(): Promise<void> {
    this.#handler = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
    return Promise.all(this.#inFlight).then(() => undefined);
  }

  /**
   * Delivers until no message is visible, without waiting for batching windows: what
   * tests, benchmarks and shutdown use. Messages hidden by a visibility timeout stay.
   */
  async drain(): Promise<void> {
    while (true) {
      if (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
      else if (this.#handler && this.#hasVisible(Date.now())) await this.#start(true);
      else if (this.#handler && this.#journal && this.#journal.ready === 0 && this.#journal.onDisk > 0) {
        await this.#journal.refill();
        if (this.#journal.ready === 0) return;
      } else return;
    }
  }

  #schedule(delayMs: number): void {
    if (!this.#handler) return;
    // One timer, for the soonest thing to do: a later wake-up never delays a sooner one.
    const at = Date.now() + delayMs;
    if (this.#timer && this.#timerAt <= at) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Infinity;
      this.#pump();
      // Nothing started (a later wake-up was folded into this one): wake up for the next.
      if (this.#inFlight.size === 0) {
        const wait = this.#nextVisibleIn(Date.now());
        if (wait !== undefined) this.#schedule(wait);
      }
    }, delayMs);
    this.#timer.unref();
  }

  /** Starts batches while there is room and something to deliver. */
  #pump(): void {
    while (this.#handler && this.#inFlight.size < this.#options.concurrency && this.#hasVisible(Date.now())) {
      void this.#start(false);
      // A batching window receives later: one batch gathers at a time.
      if (this.#options.batchWindowMs > 0) break;
    }
  }

  #start(withoutWindow: boolean): Promise<void> {
    const delivery: Promise<void> = this.#deliver(withoutWindow).finally(() => {
      this.#inFlight.delete(delivery);
      const wait = this.#nextVisibleIn(Date.now());
      if (wait !== undefined) this.#schedule(wait);
    });
    this.#inFlight.add(delivery);
    return delivery;
  }

  async #deliver(withoutWindow: boolean): Promise<void> {
    const handler = this.#handler;
    if (!handler) return;
    const { batchSize, batchWindowMs } = this.#options;
    if (!withoutWindow && batchWindowMs > 0 && this.#countVisible(Date.now(), batchSize) < batchSize) {
      await new Promise((resolve) => setTimeout(resolve, batchWindowMs));
    }
    const now = Date.now();
    const batch = this.#receive(now);
    if (batch.length === 0) return;
    let failed: Set<string>;
    try {
      const response = await handler(sqsEvent(this.name, batch), lambdaContext(this.name, randomUUID()));
      failed = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      console.error(
        JSON.stringify({ level: 'ERROR', message: 'Queue handler failed; the batch returns to the queue', queue: this.name, error: String(error) }),
      );
      failed = new Set(batch.map((message) => message.messageId));
    }
    for (const message of batch) {
      if (failed.has(message.messageId)) continue;
      this.#messages.delete(message.seq);
      if (message.entry !== undefined) this.#journal?.remove(message.entry);
    }
  }

  /** Takes up to batchSize visible messages, hiding them; overdue ones go to the dead-letter queue. */
  #receive(now: number): ReceivedMessage[] {
    const batch: ReceivedMessage[] = [];
    for (const message of this.#messages.values()) {
      if (message.visibleAt > now) continue;
      const received = this.#receiveOne(message, now);
      if (received) batch.push(received);
      if (batch.length === this.#options.batchSize) return batch;
    }
    // Then messages never received here, in the order sent; from here on they are held by seq.
    while (batch.length < this.#options.batchSize && this.#messages.size < this.#holdLimit) {
      const waiting = this.#takeWaiting();
      if (!waiting) break;
      const seq = this.#seq++;
      const message: StoredMessage = { seq, messageId: undefined, ...waiting, visibleAt: waiting.visibleAt ?? now };
      this.#messages.set(seq, message);
      // A delayed send of the journal waits here for its time.
      if (message.visibleAt > now) continue;
      const received = this.#receiveOne(message, now);
      if (received) batch.push(received);
    }
    return batch;
  }

  /** One receive of a visible message; undefined when it has had its receives and goes to the dead-letter queue. */
  #receiveOne(message: StoredMessage, now: number): ReceivedMessage | undefined {
    if (message.receiveCount >= this.#options.maxReceiveCount) {
      this.#messages.delete(message.seq);
      if (message.entry !== undefined) this.#journal?.remove(message.entry);
      this.#options.deadLetter?.send(message.body);
      return undefined;
    }
    message.messageId ??= message.entry === undefined ? this.#messageIds() : journaledMessageId(message.entry);
    message.receiveCount++;
    message.firstReceivedAt ??= now;
    message.visibleAt = now + this.#options.visibilityTimeoutMs;
    // A first receive is not written (a restart delivers every message again anyway); later ones are, for the redrive.
    if (message.entry !== undefined && message.receiveCount > 1) this.#journal?.update(message.entry, message.receiveCount, message.firstReceivedAt);
    return message as ReceivedMessage;
  }

  #takeWaiting(): WaitingMessage | undefined {
    if (!(this.#fresh instanceof BodyLog)) return this.#fresh.take();
    const entry = this.#fresh.take();
    return entry && { entry: undefined, body: entry.body, sentAt: entry.at, receiveCount: 0, firstReceivedAt: undefined, visibleAt: undefined };
  }

  /** Messages never received here that can be taken now (without reading the disk). */
  #waiting(): number {
    if (this.#messages.size >= this.#holdLimit) return 0;
    return this.#fresh instanceof BodyLog ? this.#fresh.size : this.#fresh.ready;
  }

  /** Visible messages, counting no further than `enough`. */
  #countVisible(now: number, enough: number): number {
    let count = Math.min(this.#waiting(), enough);
    if (count === enough) return count;
    for (const message of this.#messages.values()) if (message.visibleAt <= now && ++count === enough) break;
    return count;
  }

  #hasVisible(now: number): boolean {
    if (this.#waiting() > 0) return true;
    for (const message of this.#messages.values()) if (message.visibleAt <= now) return true;
    return false;
  }

  /** Milliseconds until the next message becomes visible, or undefined when the queue is empty. */
  #nextVisibleIn(now: number): number | undefined {
    if (this.#waiting() > 0) return 0;
    let soonest: number | undefined;
    for (const message of this.#messages.values()) soonest = Math.min(soonest ?? Infinity, message.visibleAt);
    return soonest === undefined ? undefined : Math.max(0, soonest - now);
  }
}
