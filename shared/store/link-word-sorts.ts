import { isCountedPrefix, type LinkPage, type LinkSortField, searchShape } from '../domain/link-listing';
import type { LinkListQuery } from '../domain/link-service';
import type { Link } from '../domain/links';
import { readCounters } from './counter-items';
import { EXPECT_MARGIN, type IndexRange } from './index-reader';
import { CommentReader, foundApart } from './link-comment-reader';
import { placedBy } from './link-comment-sorts';
import { linkCounts } from './link-counts';
import { flagsMatching, wordRankPartition } from './link-keys';
import { MAX_RUNS } from './link-word-counts';
import { wordsStarting } from './link-word-runs';

/**
 * The word-level index of each sort field: the comment word items in gsi14's partitions (a
 * word and flags each), ordered by a copy of their link's key in that field's own index.
 */
export const WORD_SORT_INDEX: Partial<Record<LinkSortField, string>> = {
  clickCnt: 'gsi14',
  expirationDate: 'gsi16',
  code: 'gsi17',
  fullLink: 'gsi18',
};

/**
 * `criteria[query]` of one word sorted by clickCnt, expirationDate, code or fullLink, by
 * the comment words (docs/data-model.md, 4.3), when the matches have too many distinct
 * comments for their partitions (link-comment-sorts.ts): the word starts at most MAX_RUNS
 * distinct words, and each word's partitions of the sort's word-level index (a word and flags
 * each, in the field's order: the word items carry their link's key) merged are the matches
 * in the order asked, read from the nearer end about the page. A link with two of the words
 * (`webinar`, `webinars`) is in two partitions with the same key: it is kept once, as its
 * word-start counter, the exact total, counts it once. A link found by its code or tracking
 * code whose comment does not match joins the merge by its own key in the field's link index.
 * Relied on only once the migration has completed (every link's word items carry the keys);
 * otherwise, with a createTs range, several words, a word past MAX_COUNTED_PREFIX characters
 * (no counter of its own), a prefix of many words, or fewer links than the counter promises
 * (a change being counted), undefined: the caller reads the matches.
 */
export class LinkWordSorts extends CommentReader {
  async page(accountId: number, query: LinkListQuery, exact: Link[]): Promise<LinkPage | undefined> {
    const { words, from, to, order, first } = searchShape(query);
    const [word] = words;
    const index = WORD_SORT_INDEX[first.field];
    if (!word || words.length > 1 || !isCountedPrefix(word) || from || to || !index) return undefined;
    if (!(await this.counts.ready())) return undefined;
    const flags = flagsMatching(query.status, query.moderatorStatus);
    const besides = foundApart(exact, flags, words);
    // Later sort fields would read a placed link's whole run of ties in its link index.
    if (besides.length > 0 && order.length > 1) return undefined;
    const prefixWords = await wordsStarting(this.store, accountId, word, MAX_RUNS);
    if (!prefixWords) return undefined;
    const [state] = await readCounters(this.store, [linkCounts.prefix(accountId, word)], true);
    const perFlag = flags.map((f) => state?.cells[f] ?? 0);
    const total = perFlag.reduce((sum, n) => sum + n, 0) + besides.length;
    const { pageSize, currentPage } = query.pagination;
    const offset = pageSize * currentPage;
    const take = Math.max(0, Math.min(pageSize, total - offset));
    if (take === 0) {
      this.pages++;
      return { items: [], totalItemCount: total };
    }
    const needed = Math.max(0, Math.min(offset, total - offset - take)) + take;
    // Each word's partition of a flag is expected to supply an even share of that flag's entries read.
    const ranges: IndexRange[] = prefixWords.flatMap((each) =>
      flags.flatMap((f, i) => {
        const links = perFlag[i] ?? 0;
        if (links === 0) return [];
        const expect = Math.ceil(((needed * links) / total / prefixWords.length) * EXPECT_MARGIN) + 1;
        return [{ index, pk: wordRankPartition(accountId, each, f), expect }];
      }),
    );
    const placed = await placedBy(this.store, accountId, first.field, besides);
    if (!placed) return undefined;
    ranges.push(...placed);
    const items = await this.lists.ordered(ranges, order, { offset, take, total, distinct: true });
    // Fewer than the counter promises (a change being counted, a link deleted meanwhile): the word items say.
    if (items.length < take) return undefined;
    this.pages++;
    return { items, totalItemCount: total };
  }
}
