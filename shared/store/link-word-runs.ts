import { type NativeAttributeValue, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { wordPartition } from './link-keys';

/**
 * A comment word's items (`<word>#<createdAt>#<id>`, docs/data-model.md 4.3) are in creation
 * order within the word: a prefix that few distinct words start is read newest first by
 * merging those words' runs, each read from its end, so a page costs about the page and a
 * Query per word, not the prefix's matches.
 */

export type WordEntry = Record<string, NativeAttributeValue>;

const FIRST_LIMIT_CAP = 1000;

/**
 * The distinct words of the account's comments that start with `prefix`, in key order, or
 * undefined when there are more than `max`: one Query of one item per word (0.5 RRU each).
 */
export async function wordsStarting(store: Store, accountId: number, prefix: string, max: number): Promise<string[] | undefined> {
  const pk = wordPartition(accountId, prefix);
  const words: string[] = [];
  for (let after: string | undefined; ; ) {
    const result = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        // Words hold no '#', and every character they hold sorts after '#': `<word>#~` is past
        // the word's items and before every longer word that starts with it.
        KeyConditionExpression: after === undefined ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk AND sk > :after',
        ExpressionAttributeValues: after === undefined ? { ':pk': pk, ':prefix': prefix } : { ':pk': pk, ':after': after },
        ProjectionExpression: 'sk',
        Limit: 1,
      }),
    );
    const sk = result.Items?.[0]?.sk as string | undefined;
    // The words a prefix starts are one run of keys.
    if (sk === undefined || !sk.startsWith(prefix)) return words;
    if (words.length === max) return undefined;
    const word = sk.slice(0, sk.indexOf('#'));
    words.push(word);
    after = `${word}#~`;
  }
}

/**
 * The word items of `words` as one sequence in creation order (forward: oldest first), a
 * link once however many of the words it has, those `keep` refuses left out: `skip` kept
 * entries, then `take`. Each word's run is read in pages that start at its share of the
 * `expect`ed entries and double.
 */
export async function readWordRuns(
  store: Store,
  accountId: number,
  words: string[],
  options: { forward: boolean; skip: number; take: number; expect: number; keep: (entry: WordEntry) => boolean },
): Promise<WordEntry[]> {
  const first = Math.max(2, Math.min(FIRST_LIMIT_CAP, Math.ceil(options.expect / Math.max(1, words.length)) + 1));
  const runs = words.map((word) => new WordRun(store, wordPartition(accountId, word), word, options.forward, first));
  const entries: WordEntry[] = [];
  let kept = 0;
  let last: string | undefined;
  while (kept < options.skip + options.take) {
    let best: WordRun | undefined;
    for (const run of runs) {
      const key = await run.peekKey();
      const bestKey = best && (await best.peekKey());
      if (key !== undefined && (bestKey === undefined || (options.forward ? key < bestKey : key > bestKey))) best = run;
    }
    if (!best) break;
    const key = await best.peekKey();
    const entry = best.take();
    if (key === last || !entry || !options.keep(entry)) continue;
    last = key;
    if (kept >= options.skip) entries.push(entry);
    kept++;
  }
  return entries;
}

class WordRun {
  #page: WordEntry[] = [];
  #position = 0;
  #startKey: Record<string, NativeAttributeValue> | undefined;
  #done = false;

  constructor(
    private readonly store: Store,
    private readonly pk: string,
    private readonly word: string,
    private readonly forward: boolean,
    private limit: number,
  ) {}

  /** The next entry's `<createdAt>#<id>`, read when needed; undefined at the run's end. */
  async peekKey(): Promise<string | undefined> {
    while (this.#position >= this.#page.length && !this.#done) await this.#fetch();
    const sk = this.#page[this.#position]?.sk as string | undefined;
    return sk?.slice(this.word.length + 1);
  }

  take(): WordEntry | undefined {
    return this.#page[this.#position++];
  }

  async #fetch(): Promise<void> {
    const result: QueryCommandOutput = await this.store.db.send(
      new QueryCommand({
        TableName: this.store.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :word)',
        ExpressionAttributeValues: { ':pk': this.pk, ':word': `${this.word}#` },
        ProjectionExpression: '#sk, #linkId, #flags',
        ExpressionAttributeNames: { '#sk': 'sk', '#linkId': 'linkId', '#flags': 'flags' },
        ScanIndexForward: this.forward,
        Limit: this.limit,
        ExclusiveStartKey: this.#startKey,
      }),
    );
    this.#page = result.Items ?? [];
    this.#position = 0;
    this.#startKey = result.LastEvaluatedKey;
    this.#done = !this.#startKey;
    this.limit = Math.min(10_000, this.limit * 2);
  }
}
