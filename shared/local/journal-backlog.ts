import { Journal, type JournalPart, type JournalWrite } from './journal';
import { type JournalEntry, type JournaledMessage, JournalGroup, MAX_GROUP } from './journal-group';

/** Messages of one group in the window, in order: all of a group sent now, or what a read from disk brought of one. */
interface Segment {
  group: JournalGroup;
  bodies: string[];
  sentAt: number[];
  /** Each message's index in its group, when they are not 0, 1, 2, … (finished ones left out, or a later part). */
  indices: number[] | undefined;
  next: number;
}

/**
 * One queue's messages not received yet, on disk in the journal with a window of them in
 * memory. What is sent in one commit window is one group, written as one entry (see
 * JournalGroup); what becomes of its messages (finished, received again) is written as the
 * group's small state entry in the next commit, and both go once all of them are finished.
 * A backlog of any length (a consumer that is off or behind) holds at most `window`
 * messages in memory; the rest are read from disk, in the order sent, as the window
 * empties. A group sent while the window has room and nothing waits on disk goes straight
 * into the window, up to its room; what follows is kept only until it is written. The
 * window is always the oldest part: everything after it is on disk (or being gathered).
 * Messages of an earlier run (the process stopped or was killed) come back with at least
 * one receive recorded, so they are delivered as redeliveries: their first receive may
 * have happened, and a consumer looks them up in what it has recorded.
 */
export class JournalBacklog implements JournalPart {
  readonly #journal: Journal;
  readonly #queue: string;
  readonly #range: { gte: string; lt: string };
  readonly #capacity: number;
  readonly #maxGroup: number;
  #segments: Segment[] = [];
  #head = 0;
  #ready = 0;
  /** Messages journaled after the window, not in memory. */
  #onDisk: number;
  /** The group gathering what is sent, until the next commit. */
  #open: JournalGroup | undefined;
  #openInWindow = false;
  /** Groups with something to write at the next commit, and how many changes they gathered. */
  #changed: JournalGroup[] = [];
  #pending = 0;
  /** Reads resume after this key: the last group read into (or sent straight into) the window. */
  #after: string | undefined;
  /** A group read from disk that did not fit in the window: the rest of it, for the next read. */
  #partial: { group: JournalGroup; indices: number[]; next: number } | undefined;
  /** State entries found at the start, by position, until their group is read. */
  readonly #states: Map<string, string>;
  #refilling: Promise<void> | undefined;
  #onRefill: () => void = () => undefined;

  private constructor(journal: Journal, queue: string, capacity: number, onDisk: number, states: Map<string, string>) {
    this.#journal = journal;
    this.#queue = queue;
    this.#range = Journal.range(queue);
    this.#capacity = capacity;
    this.#maxGroup = Math.min(MAX_GROUP, capacity);
    this.#onDisk = onDisk;
    this.#states = states;
    journal.register(this);
  }

  /** The queue's backlog as the journal holds it (sized from its keys and state entries), its first window read. */
  static async open(journal: Journal, queue: string, options: { window: number }): Promise<JournalBacklog> {
    const states = new Map<string, string>();
    let onDisk = 0;
    for (const [key, value] of await journal.read(Journal.stateRange(queue), undefined, Infinity)) {
      states.set(key.slice(queue.length + 1), value);
      onDisk -= JournalGroup.finishedIn(value);
    }
    for await (const key of journal.scanKeys(Journal.range(queue))) onDisk += JournalGroup.countOf(key);
    const backlog = new JournalBacklog(journal, queue, options.window, onDisk, states);
    await backlog.refill();
    return backlog;
  }

  /** Messages not received yet, in memory or on disk. */
  get size(): number {
    return this.#ready + this.#onDisk;
  }

  /** Messages that can be taken now, without reading the disk. */
  get ready(): number {
    return this.#ready;
  }

  /** The most messages the window holds. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Messages that wait on disk for room in the window. */
  get onDisk(): number {
    return this.#onDisk;
  }

  get pending(): number {
    return this.#pending;
  }

  /** Called when a read from disk has put messages in the window. */
  onRefill(listener: () => void): void {
    this.#onRefill = listener;
  }

  /** A message sent now; with `visibleAt`, a delayed send, which the queue holds back when it takes it. The redirect's path: no IO. */
  append(body: string, at: number, visibleAt?: number): void {
    if (!body.isWellFormed()) throw new Error('A message body must be well-formed Unicode text');
    this.#journal.changed();
    const group = this.#open ?? this.#openGroup();
    group.add(body, at, visibleAt);
    this.#pending++;
    if (this.#openInWindow) this.#ready++;
    else this.#onDisk++;
    if (group.count === this.#maxGroup || (this.#openInWindow && this.#ready === this.#capacity)) this.#close();
  }

  /** Records a message's receives again (a redelivery), so a restart counts them. */
  update(entry: JournalEntry, receiveCount: number, firstReceivedAt: number): void {
    entry.group.receives ??= new Map();
    entry.group.receives.set(entry.index, [receiveCount, firstReceivedAt]);
    this.#change(entry.group);
  }

  /** A message finished (or dead-lettered): the next commit records it, and deletes its group once all of it is. */
  remove(entry: JournalEntry): void {
    if (entry.group.finish(entry.index)) this.#change(entry.group);
  }

  /** The oldest message in the window, removed from it; undefined when the window is empty. */
  take(): JournaledMessage | undefined {
    if (this.#ready === 0) return undefined;
    // biome-ignore-start lint/style/noNonNullAssertion: ready > 0, so a segment from #head on has a message left.
    let segment = this.#segments[this.#head]!;
    while (segment.next === segment.bodies.length) segment = this.#segments[++this.#head]!;
    const at = segment.next++;
    const { group } = segment;
    const index = segment.indices === undefined ? at : segment.indices[at]!;
    const sentAt = segment.sentAt[at]!;
    const recorded = group.receives?.get(index);
    const message: JournaledMessage = {
      entry: { group, index },
      body: segment.bodies[at]!,
      sentAt,
      // Its first receive may have happened before the stop, unrecorded, no later than its send.
      receiveCount: group.earlierRun ? Math.max(1, recorded?.[0] ?? 0) : (recorded?.[0] ?? 0),
      firstReceivedAt: recorded?.[1] ?? (group.earlierRun ? sentAt : undefined),
      visibleAt: group.visibleAt?.get(index),
    };
    // biome-ignore-end lint/style/noNonNullAssertion: end of the range above
    this.#ready--;
    if (this.#head > 64 && this.#head * 2 > this.#segments.length) {
      this.#segments = this.#segments.slice(this.#head);
      this.#head = 0;
    }
    if (this.#onDisk > 0 && this.#ready * 2 <= this.#capacity) {
      // Read in the background; a failed read is tried again by the next take.
      this.refill().catch((error: unknown) =>
        console.error(JSON.stringify({ level: 'ERROR', message: 'Queue journal read failed', queue: this.#queue, error: String(error) })),
      );
    }
    return message;
  }

  /** Bodies in the window, oldest first (what is on disk is not read for this). */
  peekAll(): string[] {
    return this.#segments.slice(this.#head).flatMap((segment) => segment.bodies.slice(segment.next));
  }

  /** Hands the journal this window's writes: each group sent (one entry), the states that changed, the groups all finished. */
  collect(writes: JournalWrite[]): void {
    this.#close();
    for (const group of this.#changed) {
      group.changed = false;
      if (group.done) {
        if (group.written) writes.push({ type: 'del', key: group.key });
        if (group.stateWritten) writes.push({ type: 'del', key: group.stateKey });
        continue;
      }
      if (!group.written) {
        writes.push({ type: 'put', key: group.key, value: group.encode() });
        group.written = true;
        // The window's segment keeps what it needs; a group beyond the window is on disk only from now on.
        group.bodies = undefined;
        group.sentAt = undefined;
      }
      if (group.hasState) {
        writes.push({ type: 'put', key: group.stateKey, value: group.encodeState() });
        group.stateWritten = true;
      }
    }
    this.#changed = [];
    this.#pending = 0;
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
    while (this.#onDisk > 0 && this.#ready < this.#capacity) {
      if (this.#partial) {
        this.#fill(this.#partial);
        continue;
      }
      await this.#journal.flush();
      // Whole groups as far as they fit in the window's room (their counts are in their keys), at least one.
      const room = this.#capacity - this.#ready;
      const keys = await this.#journal.keys(this.#range, this.#after, 256);
      let fits = 0;
      let groups = 0;
      for (const key of keys) {
        const count = JournalGroup.countOf(key);
        if (groups > 0 && fits + count > room) break;
        fits += count;
        groups++;
      }
      // Nothing yet: what is missing was sent after that commit, and comes with the next.
      if (groups === 0) {
        if (this.#journal.pending === 0) return;
        continue;
      }
      for (const [key, value] of await this.#journal.read(this.#range, this.#after, groups)) {
        const colon = key.lastIndexOf(':');
        const position = key.slice(this.#queue.length + 1, colon > this.#queue.length ? colon : undefined);
        const state = this.#states.get(position);
        this.#states.delete(position);
        const group = JournalGroup.decode(this.#queue, key, value, state, this.#journal.isEarlierRun(position));
        this.#after = group.legacyKey ?? `${this.#queue}!${position};`;
        const indices: number[] = [];
        for (let index = 0; index < group.count; index++) if (!group.isFinished(index)) indices.push(index);
        this.#partial = { group, indices, next: 0 };
        this.#fill(this.#partial);
      }
    }
  }

  /** Moves what fits of a group read from disk into the window. */
  #fill(part: { group: JournalGroup; indices: number[]; next: number }): void {
    const { group, indices } = part;
    const taken = indices.slice(part.next, part.next + Math.max(0, this.#capacity - this.#ready));
    part.next += taken.length;
    if (taken.length > 0) {
      // biome-ignore-start lint/style/noNonNullAssertion: a group read from disk has its bodies until its last part is in the window.
      const bodies = taken.map((index) => group.bodies![index]!);
      const sentAt = taken.map((index) => group.sentAt![index]!);
      // biome-ignore-end lint/style/noNonNullAssertion: end of the range above
      this.#segments.push({ group, bodies, sentAt, indices: taken, next: 0 });
      this.#ready += taken.length;
      this.#onDisk -= taken.length;
    }
    if (part.next === indices.length) {
      this.#partial = undefined;
      group.bodies = undefined;
      group.sentAt = undefined;
      // Every message finished already (a crash between the last finish and the delete cannot leave this, but nothing breaks if it does).
      if (indices.length === 0) this.#change(group);
    }
    if (taken.length > 0) this.#onRefill();
  }

  #openGroup(): JournalGroup {
    const group = new JournalGroup(this.#queue, this.#journal.nextPosition(), false);
    this.#open = group;
    this.#openInWindow = this.#onDisk === 0 && this.#ready < this.#capacity;
    group.changed = true;
    this.#changed.push(group);
    if (this.#openInWindow) {
      // biome-ignore-start lint/style/noNonNullAssertion: an open group has its bodies; the segment shares the arrays it grows.
      this.#segments.push({ group, bodies: group.bodies!, sentAt: group.sentAt!, indices: undefined, next: 0 });
      // biome-ignore-end lint/style/noNonNullAssertion: end of the range above
      this.#after = `${this.#queue}!${group.position};`;
    }
    return group;
  }

  /** The open group takes no more: the next send starts another. */
  #close(): void {
    if (this.#open) this.#open.open = false;
    this.#open = undefined;
  }

  #change(group: JournalGroup): void {
    this.#journal.changed();
    this.#pending++;
    if (group.changed) return;
    group.changed = true;
    this.#changed.push(group);
  }
}
