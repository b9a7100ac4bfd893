import { Journal } from './journal';

/** A message of a queue as its journal entry keeps it. */
export interface JournaledMessage {
  /** The journal key: `<queue>!<position>`. */
  key: string;
  body: string;
  sentAt: number;
  /** Receives recorded so far: 0 for a message never received, at least 1 for one of an earlier run. */
  receiveCount: number;
  firstReceivedAt: number | undefined;
  /** For a delayed send, when it may first be received. */
  visibleAt: number | undefined;
}

/**
 * One queue's messages not received yet, on disk in the journal with a window of them in
 * memory: a backlog of any length (a consumer that is off or behind) holds at most
 * `window` messages in memory, and the rest are read from disk, in the order sent, as
 * the window empties. A message sent while the window has room and nothing waits on disk
 * goes straight into the window; otherwise only to disk. The window is always the oldest
 * part: everything after its last key is on disk (or in the commit being gathered).
 *
 * Messages of an earlier run (the process stopped or was killed) come back with at least
 * one receive recorded, so they are delivered as redeliveries: their first receive may
 * have happened, and a consumer looks them up in what it has recorded.
 */
export class JournalBacklog {
  readonly #journal: Journal;
  readonly #queue: string;
  readonly #range: { gte: string; lt: string };
  readonly #capacity: number;
  #window: JournaledMessage[] = [];
  #head = 0;
  /** Messages journaled after the window's last key, not in memory. */
  #onDisk: number;
  /** The last key read into (or put straight into) the window; reads resume after it. */
  #lastKey: string | undefined;
  #refilling: Promise<void> | undefined;
  #onRefill: () => void = () => undefined;

  private constructor(journal: Journal, queue: string, capacity: number, onDisk: number) {
    this.#journal = journal;
    this.#queue = queue;
    this.#range = Journal.range(queue);
    this.#capacity = capacity;
    this.#onDisk = onDisk;
  }

  /** The queue's backlog as the journal holds it, its first window read. */
  static async open(journal: Journal, queue: string, options: { window: number }): Promise<JournalBacklog> {
    const backlog = new JournalBacklog(journal, queue, options.window, await journal.count(Journal.range(queue)));
    await backlog.refill();
    return backlog;
  }

  /** Messages not received yet, in memory or on disk. */
  get size(): number {
    return this.#window.length - this.#head + this.#onDisk;
  }

  /** Messages that can be taken now, without reading the disk. */
  get ready(): number {
    return this.#window.length - this.#head;
  }

  /** The most messages the window holds. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Messages that wait on disk for room in the window. */
  get onDisk(): number {
    return this.#onDisk;
  }

  /** Called when a read from disk has put messages in the window. */
  onRefill(listener: () => void): void {
    this.#onRefill = listener;
  }

  /** A message sent now; with `visibleAt`, a delayed send, which the queue holds back when it takes it. */
  append(body: string, at: number, visibleAt?: number): void {
    if (!body.isWellFormed()) throw new Error('A message body must be well-formed Unicode text');
    const message = { body, sentAt: at, receiveCount: 0, firstReceivedAt: undefined, visibleAt };
    const key = `${this.#queue}!${this.#journal.nextPosition()}`;
    this.#journal.put(key, encode(message));
    if (this.#onDisk === 0 && this.ready < this.#capacity) {
      this.#window.push({ key, ...message });
      this.#lastKey = key;
    } else {
      this.#onDisk++;
    }
  }

  /** Records a message's receives again (a redelivery), so a restart counts them. */
  update(message: JournaledMessage): void {
    this.#journal.put(message.key, encode(message));
  }

  remove(key: string): void {
    this.#journal.del(key);
  }

  /** The oldest message in the window, removed from it; undefined when the window is empty. */
  take(): JournaledMessage | undefined {
    if (this.ready === 0) return undefined;
    // biome-ignore lint/style/noNonNullAssertion: ready > 0, so #head indexes a message.
    const message = this.#window[this.#head++]!;
    if (this.#head === this.#window.length) {
      this.#window = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#window.length) {
      this.#window = this.#window.slice(this.#head);
      this.#head = 0;
    }
    if (this.#onDisk > 0 && this.ready * 2 <= this.#capacity) {
      // Read in the background; a failed read is tried again by the next take.
      this.refill().catch((error: unknown) =>
        console.error(JSON.stringify({ level: 'ERROR', message: 'Queue journal read failed', queue: this.#queue, error: String(error) })),
      );
    }
    return message;
  }

  /** Bodies in the window, oldest first (what is on disk is not read for this). */
  peekAll(): string[] {
    return this.#window.slice(this.#head).map((message) => message.body);
  }

  /**
   * Reads messages from disk into the window while it has room and some wait there. What
   * was sent before the read is committed first, so the read finds it.
   */
  refill(): Promise<void> {
    this.#refilling ??= this.#read().finally(() => {
      this.#refilling = undefined;
    });
    return this.#refilling;
  }

  async #read(): Promise<void> {
    while (this.#onDisk > 0 && this.ready < this.#capacity) {
      await this.#journal.flush();
      const entries = await this.#journal.read(this.#range, this.#lastKey, Math.min(this.#capacity - this.ready, this.#onDisk));
      // Nothing yet: what is missing was sent after that commit, and comes with the next.
      if (entries.length === 0) {
        if (this.#journal.pending === 0) return;
        continue;
      }
      for (const [key, value] of entries) this.#window.push(this.#decode(key, value));
      this.#lastKey = entries.at(-1)?.[0];
      this.#onDisk -= entries.length;
      this.#onRefill();
    }
  }

  #decode(key: string, value: string): JournaledMessage {
    const newline = value.indexOf('\n');
    const header = JSON.parse(value.slice(0, newline)) as Header;
    const earlierRun = this.#journal.isEarlierRun(key.slice(this.#range.gte.length));
    return {
      key,
      body: value.slice(newline + 1),
      sentAt: header.sentAt,
      // Its first receive may have happened before the stop, unrecorded, no later than its send.
      receiveCount: earlierRun ? Math.max(1, header.receiveCount ?? 0) : (header.receiveCount ?? 0),
      firstReceivedAt: header.firstReceivedAt ?? (earlierRun ? header.sentAt : undefined),
      visibleAt: header.visibleAt,
    };
  }
}

/** The message ids a queue gives journaled messages: stable across runs, from the queue's name and the position. */
export function journaledMessageId(key: string): string {
  return key.replace('!', '-');
}

interface Header {
  sentAt: number;
  receiveCount?: number;
  firstReceivedAt?: number;
  visibleAt?: number;
}

/** An entry's value: a JSON header line, then the body as sent (a body may hold newlines, the header never does). */
function encode(message: Omit<JournaledMessage, 'key'>): string {
  // A message sent now (every click) has only its send time: written out, as on the redirect's path.
  if (message.receiveCount === 0 && message.firstReceivedAt === undefined && message.visibleAt === undefined) {
    return `{"sentAt":${message.sentAt}}\n${message.body}`;
  }
  const header: Header = { sentAt: message.sentAt };
  if (message.receiveCount > 0) header.receiveCount = message.receiveCount;
  if (message.firstReceivedAt !== undefined) header.firstReceivedAt = message.firstReceivedAt;
  if (message.visibleAt !== undefined) header.visibleAt = message.visibleAt;
  return `${JSON.stringify(header)}\n${message.body}`;
}
