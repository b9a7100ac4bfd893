import { ClickRanks } from './click-ranks';
import type { Store } from './client';
import type { CountedWrites } from './counted-writes';
import { keys } from './keys';
import { COMMENT_COUNTED, COMMENT_DATED, COMMENT_RANKED, LINK_SCHEMA, MONTH_RANKED, WORDS_COUNTED, WORDS_RANKED } from './link-keys';
import { fromItem, LinkWrites } from './link-writes';
import type { ItemUpgrade } from './migration';

/**
 * A Link written before schema 2 gets what a new link gets: every index attribute, its
 * comment words and its counts, in one conditional UpdateItem counted through
 * CountedWrites (shared/store/link-writes.ts). The condition holds the fields those follow
 * and the link item's click count as read, so a link changed meanwhile is reported
 * 'changed' and nothing is written. The clickCnt key, set only where the item has none, is
 * brought to the link's total clicks (its click item's included) right after (ClickRanks.refresh).
 * A link at schema 2 written before the prefix counters were kept (no `wordsCounted`) gets
 * only its comment's word starts counted and `wordsCounted = 1`, the same way: a link is
 * decided done by that attribute, never by the pass, so it is counted once however often
 * and however concurrently the migration runs. A link with a comment and without
 * `commentCounted` at COMMENT_COUNTED (none, or 1 from the single counter per comment)
 * gets its comment counted under each of its words, and that mark, the same way, and one
 * without `commentDated` its comment's day counted (`LINKS#CD#…`) and that mark; a link
 * without a comment has nothing there to count and is passed over. A link with a comment
 * and without `commentRanked` at COMMENT_RANKED (none, or 1 from before its gsi14pk) gets its
 * comment's partitions (gsi13pk and gsi14pk, the same value) and that mark, the same way,
 * and one without `wordsRanked` at WORDS_RANKED (none, or 1 from before gsi16–18) its word
 * items put again with their gsi14 place (gsi14pk, its gsi3sk), their copies of its gsi2sk,
 * gsi4sk and gsi5sk (gsi16–18) and that mark. Any link without `monthRanked` (a comment or
 * not) gets its gsi19 partition (gsi19pk, its flags and month of creation) and that mark.
 */
export function linkUpgrade(store: Store, counted: CountedWrites): ItemUpgrade {
  const writes = new LinkWrites(store, counted, new ClickRanks(store));
  return {
    entity: 'Link',
    // Every link not current by the check below (a deleted one too: it is skipped there).
    candidates: {
      expression:
        'NOT (#schema = :schema AND wordsCounted = :counted AND monthRanked = :month AND ((commentCounted = :comment AND commentDated = :dated AND commentRanked = :ranked AND wordsRanked = :words) OR attribute_not_exists(#comment)))',
      names: { '#schema': 'schema', '#comment': 'comment' },
      values: {
        ':schema': LINK_SCHEMA,
        ':counted': WORDS_COUNTED,
        ':month': MONTH_RANKED,
        ':comment': COMMENT_COUNTED,
        ':dated': COMMENT_DATED,
        ':ranked': COMMENT_RANKED,
        ':words': WORDS_RANKED,
      },
    },
    async upgrade(item) {
      // A link without a comment has none to count: its next change marks it.
      const commented = item.comment !== undefined && item.comment !== null;
      const current =
        item.schema === LINK_SCHEMA &&
        item.wordsCounted === WORDS_COUNTED &&
        item.monthRanked === MONTH_RANKED &&
        ((item.commentCounted === COMMENT_COUNTED &&
          item.commentDated === COMMENT_DATED &&
          item.commentRanked === COMMENT_RANKED &&
          item.wordsRanked === WORDS_RANKED) ||
          !commented);
      if (current || item.deleted) return 'skipped';
      if ((await writes.write(item, { to: fromItem(item) })) === 'conflict') return 'changed';
      // A migration that says it is done has finished every change it started, even one
      // whose writer lost its lease on a slow store (the sweep would finish it a minute later).
      await counted.settle(keys.link(Number(item.id)));
      return 'upgraded';
    },
  };
}
