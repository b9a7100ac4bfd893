import { type NativeAttributeValue, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_WORD_LENGTH, wordsHaveStarts } from '../domain/link-listing';
import type { Store } from './client';
import { linkCounts } from './link-counts';
import type { Flags } from './link-keys';

/**
 * The distinct-comment counters (docs/data-model.md, 4.3 and 5.1): a counter item per
 * distinct comment of an account under each of its words (`LINKS#CW#<word> <its words,
 * sorted>`), a cell per flags. How many links have a comment with a word starting with
 * each of several query words is the sum of the cells of the comments whose words do,
 * found under one of the query words (the caller's rarest): one Query of the items under
 * the words it starts, in proportion to the distinct comments having such a word, not to
 * the links that share them (a campaign's comment on 100,000 links is one item a word)
 * nor to the account's other comments.
 */

/** A strongly consistent read unit holds 4 KB. */
const RRU_BYTES = 4096;
/** Items asked per page for each read unit left in the budget (a counter item is ~100–300 bytes). */
const ITEMS_PER_RRU = 16;
const MIN_PAGE = 16;
/** A counter item's bytes beside its sk: pk, entity, four flag cells and a few change ids. */
const ITEM_OVERHEAD = 160;

/** A distinct comment that matches, and its links with each of the flags asked (in their order). */
export interface MatchedComment {
  normalised: string;
  perFlag: number[];
}

export interface CommentMatches {
  /** The count, or undefined when the read was stopped at its budget with counters left. */
  total: number | undefined;
  /** The matching comments read, with at least one link among the flags (all of them when the read ended). */
  comments: MatchedComment[];
  /** The read units the counters cost at least (all of them when the read ended). */
  cost: number;
}

/**
 * The links of the account, with flags among `flags`, whose comment has a word starting
 * with each of `words`, read under `via` (one of them); the read is stopped once it passes
 * `budget` read units with counters left (the caller reads another way: it is never
 * answered in part).
 */
export async function countCommentMatches(
  store: Store,
  accountId: number,
  words: string[],
  via: string,
  flags: readonly Flags[],
  budget: number,
): Promise<CommentMatches> {
  // A comment is filed under each of its words that `via` starts: it is counted once.
  const seen = new Set<string>();
  const under = linkCounts.commentsUnder([...via].slice(0, MAX_WORD_LENGTH).join(''));
  const comments: MatchedComment[] = [];
  let total = 0;
  let used = 0;
  let startKey: Record<string, NativeAttributeValue> | undefined;
  do {
    if (used >= budget) return { total: undefined, comments, cost: used };
    const page = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :comments)',
        ExpressionAttributeValues: { ':pk': linkCounts.pk(accountId), ':comments': under },
        // Consistent, as every counter read: a change counted before this read is in it.
        ConsistentRead: true,
        Limit: Math.max(MIN_PAGE, Math.ceil((budget - used) * ITEMS_PER_RRU)),
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      used += (Buffer.byteLength(String(item.sk)) + ITEM_OVERHEAD) / RRU_BYTES;
      const sk = String(item.sk);
      const normalised = sk.slice(sk.indexOf(' ') + 1);
      if (seen.has(normalised)) continue;
      seen.add(normalised);
      if (!wordsHaveStarts(normalised.split(' '), words)) continue;
      const perFlag = flags.map((f) => Number(item[f] ?? 0));
      const links = perFlag.reduce((sum, n) => sum + n, 0);
      total += links;
      if (links > 0) comments.push({ normalised, perFlag });
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { total, comments, cost: used };
}
