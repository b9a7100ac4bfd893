import { ClassicLevel } from 'classic-level';

/** The group-commit window when LOCAL_QUEUE_COMMIT_MS is not set. */
export const DEFAULT_COMMIT_MS = 20;

/** Where the run number is kept, apart from every queue's range (see Journal.range). */
const RUN_KEY = '~run';

/** A write of one commit. */
export type JournalWrite = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

/** Something that keeps its messages in the journal (a queue's backlog): asked at each commit for what it has gathered. */
export interface JournalPart {
  /** Changes gathered for the next commit. */
  readonly pending: number;
  /** Hands over the gathered changes as writes; from then on they are the commit's. */
  collect(writes: JournalWrite[]): void;
}

/**
 * The local queues' messages on disk: one LevelDB database (classic-level, the LevelDB
 * dynalite uses too) for every queue, so moving a message to a dead-letter queue is one
 * atomic write. Writes are gathered and committed together (group commit): the first
 * change after a commit starts a timer of `commitMs`, and when it fires every part hands
 * over what it gathered since, which is written in one batch, synced to disk. Sending
 * costs its caller no call into LevelDB and no await (a queue writes a window's messages
 * as one entry), which keeps the redirect's path synchronous and cheap; what a `kill -9`
 * can lose is what was gathered in the last window and not written yet. One batch is
 * written at a time, in order, so a delete never overtakes the put it follows.
 *
 * Each start of the process is a new run, numbered on disk: positions (run, then a
 * sequence within the run) order every group of messages ever written and never repeat,
 * even where the last window of the previous run was lost.
 */
export class Journal {
  readonly #db: ClassicLevel<string, string>;
  readonly #commitMs: number;
  readonly #parts: JournalPart[] = [];
  #timer: NodeJS.Timeout | undefined;
  /** The batch being written, if any; the next waits for it. */
  #writing: Promise<void> = Promise.resolve();
  #failure: unknown;
  #sequence = 0;
  /** The run's part of every position, made once. */
  readonly #runPrefix: string;

  private constructor(
    db: ClassicLevel<string, string>,
    readonly run: number,
    commitMs: number,
  ) {
    this.#db = db;
    this.#commitMs = commitMs;
    this.#runPrefix = run.toString(16).padStart(8, '0');
  }

  /** Opens (or creates) the journal in `dir` and starts a new run. */
  static async open(dir: string, options: { commitMs: number }): Promise<Journal> {
    const db = new ClassicLevel<string, string>(dir);
    await db.open();
    const run = Number((await db.get(RUN_KEY)) ?? 0) + 1;
    await db.put(RUN_KEY, String(run), { sync: true });
    return new Journal(db, run, options.commitMs);
  }

  /** A fresh position: the run and a sequence number, fixed-width hex so keys sort in sending order. */
  nextPosition(): string {
    return this.#runPrefix + (this.#sequence++).toString(16).padStart(12, '0');
  }

  /** Whether a position was given out by an earlier run of the process. */
  isEarlierRun(position: string): boolean {
    return Number.parseInt(position.slice(0, 8), 16) < this.run;
  }

  /** Changes gathered for the next commit. */
  get pending(): number {
    let pending = 0;
    for (const part of this.#parts) pending += part.pending;
    return pending;
  }

  /** Adds a part whose changes each commit writes. */
  register(part: JournalPart): void {
    this.#parts.push(part);
  }

  /** A part has gathered a change: the commit comes at most `commitMs` later. Throws once the journal cannot write. */
  changed(): void {
    if (this.#failure !== undefined) throw new Error('The queue journal cannot write', { cause: this.#failure });
    if (this.#timer) return;
    this.#timer = setTimeout(() => void this.flush(), this.#commitMs);
    this.#timer.unref();
  }

  /** Writes what has been gathered so far; resolves once it is on disk. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const writes: JournalWrite[] = [];
    for (const part of this.#parts) if (part.pending > 0) part.collect(writes);
    if (writes.length === 0) return this.#writing;
    this.#writing = this.#writing.then(() =>
      this.#db.batch(writes, { sync: true }).catch((error: unknown) => {
        // A journal that cannot write loses what follows too: sends fail from now on.
        this.#failure = error;
        console.error(JSON.stringify({ level: 'ERROR', message: 'Queue journal write failed', error: String(error) }));
      }),
    );
    return this.#writing;
  }

  /** Up to `limit` entries of the range, after `after`, in key order. */
  read(range: { gte: string; lt: string }, after: string | undefined, limit: number): Promise<[string, string][]> {
    return this.#db.iterator({ ...(after === undefined ? { gte: range.gte } : { gt: after }), lt: range.lt, limit }).all();
  }

  /** Up to `limit` keys of the range, after `after`, in key order (no values). */
  keys(range: { gte: string; lt: string }, after: string | undefined, limit: number): Promise<string[]> {
    return this.#db.keys({ ...(after === undefined ? { gte: range.gte } : { gt: after }), lt: range.lt, limit }).all();
  }

  /** Every key of the range, in key order, read as they are iterated (no values). */
  scanKeys(range: { gte: string; lt: string }): AsyncIterable<string> {
    return this.#db.keys(range);
  }

  /** The key range of one queue's groups of messages: `<queue>!<position>:<count>`; '"' is the character after '!'. */
  static range(queue: string): { gte: string; lt: string } {
    return { gte: `${queue}!`, lt: `${queue}"` };
  }

  /** The key range of one queue's group states: `<queue>#<position>`; '$' is the character after '#'. */
  static stateRange(queue: string): { gte: string; lt: string } {
    return { gte: `${queue}#`, lt: `${queue}$` };
  }

  async close(): Promise<void> {
    await this.flush();
    await this.#db.close();
  }
}

/** LOCAL_QUEUE_COMMIT_MS: the group-commit window, at most 50 ms so a crash loses no more than that. */
export function commitWindowMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.LOCAL_QUEUE_COMMIT_MS;
  if (value === undefined || value === '') return DEFAULT_COMMIT_MS;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 50) {
    throw new Error(`LOCAL_QUEUE_COMMIT_MS must be an integer from 0 to 50: ${value}`);
  }
  return parsed;
}
