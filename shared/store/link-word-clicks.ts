import { commentHasStarts, isCountedPrefix, type LinkPage, searchShape } from '../domain/link-listing';
import type { LinkListQuery } from '../domain/link-service';
import type { Link } from '../domain/links';
import type { Store } from './client';
import { readCounters } from './counter-items';
import { EXPECT_MARGIN, type IndexRange } from './index-reader';
import { placedByClicks } from './link-comment-clicks';
import { flagsMatching, flagsOf, linkCounts, wordRankPartition } from './link-keys';
import type { LinkLists } from './link-lists';
import { type LinkWordCounts, MAX_RUNS } from './link-word-counts';
import { wordsStarting } from './link-word-runs';

/**
 * `criteria[query]` of one word with `sort[clickCnt]` by the comment words (docs/data-model.md,
 * 4.3), when its matches have too many distinct comments for gsi13: the word starts at most
 * MAX_RUNS distinct words, and each word's gsi14 partitions (a word and flags each, in
 * clickCnt order: the word items carry their link's gsi3sk) merged are the matches in the
 * order asked, read from the nearer end about the page. A link with two of the words
 * (`webinar`, `webinars`) is in two partitions with the same key: it is kept once, as its
 * word-start counter, the exact total, counts it once. A link found by its code or tracking
 * code whose comment does not match joins the merge by its own gsi3 key. Relied on only once
 * the migration has completed (every link's word items in gsi14); otherwise, with a createTs
 * range, several words, a word past MAX_COUNTED_PREFIX characters (no counter of its own),
 * a prefix of many words, or fewer links than the counter promises (a change being
 * counted), undefined: the caller reads the matches.
 */

export class LinkWordClicks {
  /** Pages answered from gsi14, for tests that check the path is taken. */
  pages = 0;

  constructor(
    private readonly store: Store,
    private readonly lists: LinkLists,
    private readonly counts: LinkWordCounts,
  ) {}

  /** The page and its total; `exact` are the links whose code or tracking code the query is. */
  async page(accountId: number, query: LinkListQuery, exact: Link[]): Promise<LinkPage | undefined> {
    const { words, from, to, order, first } = searchShape(query);
    const [word] = words;
    if (!word || words.length > 1 || !isCountedPrefix(word) || from || to || first.field !== 'clickCnt') return undefined;
    if (!(await this.counts.ready())) return undefined;
    const flags = flagsMatching(query.status, query.moderatorStatus);
    const besides = exact.filter((link) => flags.includes(flagsOf(link)) && !commentHasStarts(link.comment, words));
    // Later sort fields would read a placed link's whole run of ties in gsi3.
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
        return [{ index: 'gsi14', pk: wordRankPartition(accountId, each, f), expect }];
      }),
    );
    const placed = await placedByClicks(this.store, accountId, besides);
    if (!placed) return undefined;
    ranges.push(...placed);
    const items = await this.lists.ordered(ranges, order, { offset, take, total, distinct: true });
    // Fewer than the counter promises (a change being counted, a link deleted meanwhile): the word items say.
    if (items.length < take) return undefined;
    this.pages++;
    return { items, totalItemCount: total };
  }
}
