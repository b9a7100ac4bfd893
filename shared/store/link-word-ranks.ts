import { type NativeAttributeValue, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mapLimited } from '../domain/concurrency';
import { commentWords } from '../domain/link-listing';
import type { Store } from './client';
import { conditionally } from './conditional';
import type { Key } from './keys';
import { wordKey } from './link-keys';

/**
 * A comment word item's place in gsi14 (docs/data-model.md, 4.3) is a copy of its link's
 * gsi3sk, which only ever moves forward (click-ranks.ts). Two writers set it:
 *
 * - a counted change of the link (creation, flags, comment, migration) puts its word items
 *   (P) with the link's gsi3sk as it read it (R), its mark (M) conditioned on that key as
 *   read, the items put before the mark is cleared (C);
 * - the rank pass moves the link's gsi3sk (L), conditioned on no mark on the link, then
 *   each word item's (W), the words taken from the link item L returned.
 *
 * So L is never between M and C: L before R, and R reads its key; L between R and M, and M
 * fails (the change reads again); L after C, and the items are there for W, which moves them
 * (a link found marked waits for the next pass). W is `attribute_exists(pk) AND gsi3sk <
 * :key`: forward only, and never onto a word item deleted meanwhile.
 */

/** Word-item moves in flight at once. */
const MOVES_IN_FLIGHT = 16;

/** The keys of the word items of a link item (its comment's words). */
export function wordKeysOfItem(item: Record<string, NativeAttributeValue>): Key[] {
  const comment = typeof item.comment === 'string' ? item.comment : null;
  return commentWords(comment).map((word) => wordKey(Number(item.accountId), word, String(item.createdAt), Number(item.id)));
}

/** Moves the gsi3sk copy of each word item to its link's `key`, where it is behind: the word items moved. */
export async function moveWordRanks(store: Store, moves: { words: Key[]; key: NativeAttributeValue }[]): Promise<number> {
  const each = moves.flatMap(({ words, key }) => words.map((word) => ({ word, key })));
  const done = await mapLimited(each, MOVES_IN_FLIGHT, ({ word, key }) =>
    conditionally(() =>
      store.db.send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: word,
          UpdateExpression: 'SET gsi3sk = :key',
          // A word item of a link before gsi14 has no gsi3sk: `<` fails, the migration gives it one.
          ConditionExpression: 'attribute_exists(pk) AND gsi3sk < :key',
          ExpressionAttributeValues: { ':key': key },
        }),
      ),
    ),
  );
  return done.filter(Boolean).length;
}
