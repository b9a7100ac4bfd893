/**
 * One commit window's messages of one queue: what the journal writes as ONE entry, so a
 * message sent costs its sender two array appends and no call into LevelDB. The entry's
 * key is `<queue>!<position>:<count>` (the count in the key lets a start size a backlog
 * from its keys alone); what has happened to its messages since (finished, received more
 * than once) is a small state entry `<queue>#<position>`, rewritten when it changes, and
 * both are deleted once every message of the group is finished.
 */
export class JournalGroup {
  /** Bodies and send times, in the order sent, until the entry is written (a window's group keeps them for its messages). */
  bodies: string[] | undefined = [];
  sentAt: number[] | undefined = [];
  /** Delayed sends: when each may first be received, by index. */
  visibleAt: Map<number, number> | undefined;
  /** Receives recorded for a redrive (more than one), by index: [receive count, first receive]. */
  receives: Map<number, [number, number]> | undefined;
  /** Finished (deleted or dead-lettered) messages, one bit each. */
  #finished: Uint8Array | undefined;
  finishedCount = 0;
  /** Messages in the group: fixed once it is closed. */
  count = 0;
  open = true;
  /** Its entry is in a batch written or being written. */
  written = false;
  /** Its state entry exists on disk (or is in a batch). */
  stateWritten = false;
  /** Something to write at the next commit (listed in its backlog's changes). */
  changed = false;
  /** The key of a message journaled by the previous version, one entry per message: it keeps its key and its message id. */
  legacyKey: string | undefined;

  constructor(
    readonly queue: string,
    readonly position: string,
    /** Sent by an earlier run of the process: its messages may have been received unrecorded. */
    readonly earlierRun: boolean,
  ) {}

  get key(): string {
    return this.legacyKey ?? `${this.queue}!${this.position}:${this.count.toString(16)}`;
  }

  get stateKey(): string {
    return `${this.queue}#${this.position}`;
  }

  /** Every message is finished: the entries can go. */
  get done(): boolean {
    return !this.open && this.finishedCount === this.count;
  }

  /** Whether it has a state worth writing: something finished, or a receive recorded. */
  get hasState(): boolean {
    return this.finishedCount > 0 || (this.receives?.size ?? 0) > 0;
  }

  add(body: string, at: number, visibleAt: number | undefined): number {
    // biome-ignore-start lint/style/noNonNullAssertion: an open group holds its bodies until it is written, after it is closed.
    const index = this.bodies!.push(body) - 1;
    this.sentAt!.push(at);
    // biome-ignore-end lint/style/noNonNullAssertion: end of the range above
    if (visibleAt !== undefined) {
      this.visibleAt ??= new Map();
      this.visibleAt.set(index, visibleAt);
    }
    this.count = index + 1;
    return index;
  }

  isFinished(index: number): boolean {
    return ((this.#finished?.[index >> 3] ?? 0) & (1 << (index & 7))) !== 0;
  }

  /** Marks a message finished; false when it already was. */
  finish(index: number): boolean {
    if (this.isFinished(index)) return false;
    this.#finished ??= new Uint8Array((Math.max(this.count, MAX_GROUP) + 7) >> 3);
    this.#finished[index >> 3] = (this.#finished[index >> 3] ?? 0) | (1 << (index & 7));
    this.finishedCount++;
    return true;
  }

  /** The entry's value: a JSON header line (send times as differences, body lengths, delays), then the bodies end to end. */
  encode(): string {
    // biome-ignore-start lint/style/noNonNullAssertion: called once, before the group lets go of its bodies.
    const bodies = this.bodies!;
    const sentAt = this.sentAt!;
    // biome-ignore-end lint/style/noNonNullAssertion: end of the range above
    let previous = 0;
    const times = sentAt.map((at) => {
      const difference = at - previous;
      previous = at;
      return difference;
    });
    const header: GroupHeader = { t: times, l: bodies.map((body) => body.length) };
    if (this.visibleAt) header.v = Object.fromEntries(this.visibleAt);
    return `${JSON.stringify(header)}\n${bodies.join('')}`;
  }

  /** The state entry's value: finished messages as a bit set (base64) and recorded receives. */
  encodeState(): string {
    const state: GroupState = {};
    if (this.#finished) state.f = Buffer.from(this.#finished.buffer, 0, (this.count + 7) >> 3).toString('base64');
    if (this.receives?.size) state.r = [...this.receives].map(([index, [count, first]]) => [index, count, first]);
    return JSON.stringify(state);
  }

  /** A group as its entries hold it: its messages, with what its state entry says of them. */
  static decode(queue: string, key: string, value: string, state: string | undefined, earlierRun: boolean): JournalGroup {
    const at = key.indexOf('!');
    const colon = key.lastIndexOf(':');
    if (colon < at) {
      const legacy = JournalGroup.#decodeLegacy(queue, key, value, earlierRun);
      if (state !== undefined) legacy.applyState(state);
      return legacy;
    }
    const group = new JournalGroup(queue, key.slice(at + 1, colon), earlierRun);
    const newline = value.indexOf('\n');
    const header = JSON.parse(value.slice(0, newline)) as GroupHeader;
    let offset = newline + 1;
    let time = 0;
    for (const [i, length] of header.l.entries()) {
      time += header.t[i] ?? 0;
      group.add(value.slice(offset, offset + length), time, header.v?.[i]);
      offset += length;
    }
    group.open = false;
    group.written = true;
    if (state !== undefined) group.applyState(state);
    return group;
  }

  /** An entry of the previous version: one message, a JSON header line (its send time and recorded receives), then its body. */
  static #decodeLegacy(queue: string, key: string, value: string, earlierRun: boolean): JournalGroup {
    const group = new JournalGroup(queue, key.slice(key.indexOf('!') + 1), earlierRun);
    group.legacyKey = key;
    const newline = value.indexOf('\n');
    const header = JSON.parse(value.slice(0, newline)) as { sentAt: number; receiveCount?: number; firstReceivedAt?: number; visibleAt?: number };
    group.add(value.slice(newline + 1), header.sentAt, header.visibleAt);
    if (header.receiveCount) group.receives = new Map([[0, [header.receiveCount, header.firstReceivedAt ?? header.sentAt]]]);
    group.open = false;
    group.written = true;
    return group;
  }

  /** Reads a state entry (at a start, or with the group's entry). */
  applyState(value: string): void {
    const state = JSON.parse(value) as GroupState;
    this.stateWritten = true;
    if (state.f) {
      const bits = Buffer.from(state.f, 'base64');
      for (const [byte, set] of bits.entries()) for (let bit = 0; bit < 8; bit++) if (set & (1 << bit)) this.finish(byte * 8 + bit);
    }
    if (state.r) this.receives = new Map(state.r.map(([index, count, first]) => [index, [count, first]]));
  }

  /** How many messages a state entry marks finished (a start sizes the backlog without reading the groups). */
  static finishedIn(value: string): number {
    const state = JSON.parse(value) as GroupState;
    if (!state.f) return 0;
    let count = 0;
    for (const byte of Buffer.from(state.f, 'base64')) for (let bits = byte; bits; bits &= bits - 1) count++;
    return count;
  }

  /** The number of messages a group's key says it holds (an entry of the previous version holds one). */
  static countOf(key: string): number {
    const colon = key.lastIndexOf(':');
    return colon < key.indexOf('!') ? 1 : Number.parseInt(key.slice(colon + 1), 16);
  }
}

/** Messages one group holds at most: a backlog is read back from disk a group (or part of one) at a time. */
export const MAX_GROUP = 1000;

interface GroupHeader {
  /** Send times: the first in ms since the epoch, then each as the difference from the one before. */
  t: number[];
  /** Each body's length in UTF-16 code units. */
  l: number[];
  /** Delayed sends' visibility times, by index. */
  v?: Record<number, number>;
}

interface GroupState {
  f?: string;
  r?: [number, number, number][];
}

/** Where a message is kept in the journal: its group and its place there. */
export interface JournalEntry {
  readonly group: JournalGroup;
  readonly index: number;
}

/** A message of a queue as its journal keeps it. */
export interface JournaledMessage {
  entry: JournalEntry;
  body: string;
  sentAt: number;
  /** Receives recorded so far: 0 for a message never received, at least 1 for one of an earlier run. */
  receiveCount: number;
  firstReceivedAt: number | undefined;
  /** For a delayed send, when it may first be received. */
  visibleAt: number | undefined;
}

/** The message ids a queue gives journaled messages: stable across runs, from the queue's name, the group's position and the place in it. */
export function journaledMessageId(entry: JournalEntry): string {
  // A message of the previous version keeps its id, so a consumer that recorded it recognises it.
  if (entry.group.legacyKey !== undefined) return `${entry.group.queue}-${entry.group.position}`;
  return `${entry.group.queue}-${entry.group.position}-${entry.index}`;
}
