import { type NativeAttributeValue, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { type IndexRange, readMerged, TABLE } from './index-reader';
import { wordPartition } from './link-keys';
import { queryAll } from './query';

/**
 * A comment word's items (`<word>#<createdAt>#<id>`, docs/data-model.md 4.3) are in creation
 * order within the word: a prefix that few distinct words start is read newest first by
 * merging those words' runs, each read from its end, so a page costs about the page and a
 * Query per word, not the prefix's matches.
 */

export type WordEntry = Record<string, NativeAttributeValue>;

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
 * entries, then `take`. Each word's run is a range of readMerged, ordered by the
 * `<createdAt>#<id>` after its word and read from its share of the `expect`ed entries.
 */
export async function readWordRuns(
  store: Store,
  accountId: number,
  words: string[],
  options: { forward: boolean; skip: number; take: number; expect: number; keep: (entry: WordEntry) => boolean },
): Promise<WordEntry[]> {
  const expect = Math.ceil(options.expect / Math.max(1, words.length)) + 1;
  const ranges: IndexRange[] = words.map((word) => ({
    index: TABLE,
    pk: wordPartition(accountId, word),
    sk: { beginsWith: `${word}#` },
    order: (entry) => String(entry.sk).slice(word.length + 1),
    expect,
  }));
  // The same link under two of the words comes twice in a row: its key is the same.
  let last: string | undefined;
  const keep = (entry: WordEntry) => {
    const key = String(entry.sk).slice(String(entry.sk).indexOf('#') + 1);
    if (key === last || !options.keep(entry)) return false;
    last = key;
    return true;
  };
  const { entries } = await readMerged(store, ranges, { forward: options.forward, skip: options.skip, take: options.take, keep });
  return entries;
}

/**
 * The word items of `words` created within `from`–`to` (inclusive ISO instants; either
 * open): each word's run is one key range, `<word>#<from>` to `<word>#<to>#~` (instants
 * are of one width, and `~` sorts after the id's digits), so the read is in proportion
 * to the matches in the range, not to every match of the words.
 */
export async function readWordRange(store: Store, accountId: number, words: string[], from?: string, to?: string): Promise<WordEntry[]> {
  // A range that ends before it starts holds nothing (and DynamoDB refuses such a BETWEEN).
  if (from !== undefined && to !== undefined && from > to) return [];
  const runs = await Promise.all(
    words.map((word) =>
      queryAll(store, {
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        ExpressionAttributeValues: { ':pk': wordPartition(accountId, word), ':low': `${word}#${from ?? ''}`, ':high': `${word}#${to ?? '~'}#~` },
        ProjectionExpression: '#sk, #linkId, #flags',
        ExpressionAttributeNames: { '#sk': 'sk', '#linkId': 'linkId', '#flags': 'flags' },
      }),
    ),
  );
  return runs.flat();
}
