import {
  commentHasStarts,
  compareLinks,
  createdBounds,
  DEFAULT_LINK_ORDER,
  isCountedPrefix,
  type LinkPage,
  MAX_COUNTED_PREFIX,
  matchesQuery,
  queryWords,
} from '../domain/link-listing';
import type { LinkListQuery } from '../domain/link-service';
import type { Link } from '../domain/links';
import type { Store } from './client';
import { readCounters } from './counter-items';
import { type Entry, EXPECT_MARGIN, readMerged } from './index-reader';
import { keys } from './keys';
import { withClickItems } from './link-clicks';
import { type CommentMatches, countCommentMatches } from './link-comment-counts';
import { linkCounts } from './link-counts';
import { ALL_FLAGS, type Flags, flagsMatching, flagsOf, LINK_SCHEMA } from './link-keys';
import type { LinkLists } from './link-lists';
import { readWordRuns, type WordEntry, wordsStarting } from './link-word-runs';
import { fromItem } from './link-writes';
import { migrationCompleted } from './migration-progress';

/**
 * `criteria[query]` by the counts of comment word starts (docs/data-model.md, 4.3 and 5.1):
 * how many links have a comment word starting with a query word is one counter item (a
 * cell per flag combination), so a query of one word (up to MAX_COUNTED_PREFIX characters)
 * gets its exact total without reading its matches. Its page in creation order is then
 * the cheapest of three reads, from the end nearer to it: the runs of the few words the
 * prefix starts, merged (link-word-runs.ts: about the page); gsi1 (whole links, comment
 * included), keeping the links the query matches, about `(offset + pageSize) × links /
 * matches` of them, stopped at what the last way costs; or the word items of the prefix,
 * all of them (∝ its matches). Several words, or a word past MAX_COUNTED_PREFIX characters:
 * the total from the distinct-comment counters (link-comment-counts.ts), read unless they
 * cost more than the rarest start's word items, and the page from the partitions of those
 * comments in creation order when they are few (gsi15, by the caller's fewCommentsPage:
 * link-comment-sorts.ts), else from gsi1 or the word items as above. The counters are relied on only once the migration has completed (every link's word
 * starts and comment counted); until then, and for every other query, undefined: the
 * caller finds the matches by reading them.
 */

/** Word items per read unit, as a share of the list indexes' entries per read unit (about 75 against 55). */
export const WORD_ITEM_SHARE = 1.4;
/** gsi1's whole links per read unit, as a share of the list indexes' entries (about 13 against 55). */
const WHOLE_LINK_SHARE = 0.24;
/** A prefix that starts at most this many distinct words is read by merging their runs. */
export const MAX_RUNS = 8;
/** More matching comments than this are read another way: each is a Query per flag partition. */
export const MAX_COMMENT_PARTITIONS = 8;
/**
 * One counted word has ways of its own, about its page whatever its comments (its words' items
 * and partitions): its distinct-comment counters are read only this far (two pages of them),
 * enough for a few comments, never in proportion to many.
 */
const ONE_WORD_BUDGET = 1;
/** How many (account, word) costs of the distinct-comment counters a process remembers. */
const KNOWN_COSTS = 4096;

/** The distinct comments the query words match, with their links per flags, and their total. */
export type FewComments = { total: number; comments: CommentMatches['comments'] };

export interface WordCount {
  word: string;
  /** The links with a comment word starting with it (with any flags); for a word past the counted length, those of its counted start. */
  count: number;
}

/** The counted start of a query word: the word itself, or its first MAX_COUNTED_PREFIX characters. */
const countedStart = (word: string) => [...word].slice(0, MAX_COUNTED_PREFIX).join('');

const sum = (cells: Record<string, number>, of: readonly Flags[]) => of.reduce((total, f) => total + (cells[f] ?? 0), 0);

export class LinkWordCounts {
  /** Whether every link's word starts are counted: the migration has completed (never reverts). */
  #counted = false;
  /** What reading an account's distinct-comment counters under a word costs at least, as last read: a dear one is not read again. */
  readonly #commentsCost = new Map<string, number>();
  /** Pages answered from creation order (gsi1) and from the merged runs of the prefix's words, for tests that check the paths are taken. */
  creationPages = 0;
  runPages = 0;
  /** Totals of several words (or a word past the counted length) from the distinct-comment counters. */
  commentTotals = 0;

  constructor(
    private readonly store: Store,
    private readonly lists: LinkLists,
  ) {}

  /**
   * The page and its total when the query is one counted word in creation order without a
   * createTs range; `exact` are the links whose code or tracking code the query is.
   */
  async page(
    accountId: number,
    query: LinkListQuery,
    exact: Link[],
    fewCommentsPage?: (matched: FewComments) => Promise<LinkPage | undefined>,
  ): Promise<LinkPage | undefined> {
    const text = query.query ?? '';
    const words = queryWords(text);
    const [word] = words;
    const { from, to } = createdBounds(query);
    const [first] = query.sort.length > 0 ? query.sort : DEFAULT_LINK_ORDER;
    if (!word || from || to || first?.field !== 'createTs') return undefined;
    if (!(await this.ready())) return undefined;
    const flags = flagsMatching(query.status, query.moderatorStatus);
    const single = words.length === 1 && isCountedPrefix(word);
    const cells = await this.#cells(words.map((each) => linkCounts.prefix(accountId, countedStart(each))));
    const perRru = this.lists.plan.entriesPerRru;
    // The word items today's read would take: every one of the (rarest) counted start, any flags.
    const counts = cells.map((starts) => sum(starts, ALL_FLAGS));
    const prefixed = Math.min(...counts);
    const byItems = prefixed / (perRru * WORD_ITEM_SHARE);
    // One counted word: its counter. Otherwise the distinct comments under the rarest word,
    // unless reading them costs more than its word items.
    const rarest = words[counts.indexOf(prefixed)] ?? word;
    const commented = single ? undefined : await this.commentMatches(accountId, words, rarest, flags, byItems);
    const matches = single ? sum(cells[0] ?? {}, flags) : commented?.total;
    if (matches === undefined) return undefined;
    if (!single) this.commentTotals++;
    // Few distinct comments (a campaign's): their own partitions in creation order hold the matches in order, about the page.
    if (commented && fewCommentsPage && commented.comments.length <= MAX_COMMENT_PARTITIONS) {
      const page = await fewCommentsPage(commented);
      if (page) return page;
    }
    // A link found by its code or tracking code whose comment does not match counts too.
    const besides = exact.filter((link) => flags.includes(flagsOf(link)) && !commentHasStarts(link.comment, words));
    const total = matches + besides.length;
    const { pageSize, currentPage } = query.pagination;
    const offset = pageSize * currentPage;
    if (offset >= total) return { items: [], totalItemCount: total };
    const take = Math.min(pageSize, total - offset);
    const fromEnd = Math.min(offset, total - offset - take);
    const nearStart = fromEnd === offset;
    const forward = (first.direction === 'ASC') === nearStart;
    const inOrder = (page: Link[]) => ({ items: nearStart ? page : page.reverse(), totalItemCount: total });
    if (matches === 0) {
      const sorted = besides.sort(compareLinks([{ field: 'createTs', direction: forward ? 'ASC' : 'DESC' }]));
      return inOrder(sorted.slice(fromEnd, fromEnd + take));
    }

    // The word items: every one of the prefix (any flags), then the page's links and click items (~1 RRU a link).
    const byWords = byItems + take;
    // The runs of the words the prefix starts, merged: a Query per word to find it and one to
    // read it, the page and those before it (in the share the flags keep), the page's links.
    const byRuns = (runs: number) => runs + (((fromEnd + take) * prefixed) / matches) * (EXPECT_MARGIN / (perRru * WORD_ITEM_SHARE)) + take;
    if (single && besides.length === 0 && byRuns(MAX_RUNS) < byWords) {
      const prefixWords = await wordsStarting(this.store, accountId, word, MAX_RUNS);
      if (prefixWords && byRuns(prefixWords.length) < byWords) {
        const expect = Math.ceil((((fromEnd + take) * prefixed) / matches) * EXPECT_MARGIN);
        const keep = (entry: WordEntry) => flags.includes(entry.flags);
        const entries = await readWordRuns(this.store, accountId, prefixWords, { forward, skip: fromEnd, take, expect, keep });
        const page = await this.lists.links(entries.map((entry) => Number(entry.linkId)));
        // Fewer than the counters promise (a change being counted): the word items say.
        if (page.length < take) return undefined;
        this.runPages++;
        return inOrder(page);
      }
    }

    // Creation order: the kept links' share of the account foretells the read; the page's click items 0.5 a link.
    const [links = {}] = await this.#cells([linkCounts.all(accountId)]);
    const all = sum(links, ALL_FLAGS);
    const expected = Math.min(all, Math.ceil(((fromEnd + take) * all * EXPECT_MARGIN) / total)) + 1;
    const byCreation = expected / (perRru * WHOLE_LINK_SHARE) + take / 2;
    if (byCreation >= byWords) return undefined;
    const keep = (entry: Entry) => {
      if (entry.schema !== LINK_SCHEMA || entry.deleted) return false;
      const link = fromItem(entry);
      return flags.includes(flagsOf(link)) && matchesQuery(link, text);
    };
    const budget = Math.ceil((byWords - take / 2) * perRru * WHOLE_LINK_SHARE);
    const range = { index: 'gsi1', pk: keys.accountLinks(accountId), expect: Math.min(budget, expected) };
    const { entries, stopped } = await readMerged(this.store, [range], { forward, skip: fromEnd, take, keep, budget });
    // Fewer than the counters promise (a count being written): the word items say.
    if (stopped || entries.length < take) return undefined;
    this.creationPages++;
    return inOrder(await withClickItems(this.store, entries));
  }

  /**
   * The query's words, rarest first by their counters (a word past the counted length by
   * its counted start's), or undefined until the counters can be relied on.
   */
  async rarestFirst(accountId: number, words: string[]): Promise<WordCount[] | undefined> {
    if (words.length < 2 || !(await this.ready())) return undefined;
    return this.startCounts(accountId, words);
  }

  /** The query's words, rarest first by their counters (a word past the counted length by its counted start's). */
  async startCounts(accountId: number, words: string[]): Promise<WordCount[]> {
    const cells = await this.#cells(words.map((word) => linkCounts.prefix(accountId, countedStart(word))));
    return words
      .map((word, i) => ({ word, count: sum(cells[i] ?? {}, ALL_FLAGS) }))
      .sort((a, b) => a.count - b.count || b.word.length - a.word.length);
  }

  /**
   * The distinct-comment counters' total and matching comments under `via`, unless they
   * cost more than `budget` read units: known from an earlier read by this process (their
   * items are never deleted, so what they cost only grows), or found by reading them with
   * that budget.
   */
  async commentMatches(accountId: number, words: string[], via: string, flags: readonly Flags[], budget: number): Promise<FewComments | undefined> {
    const known = `${accountId} ${via}`;
    if ((this.#commentsCost.get(known) ?? 0) > budget) return undefined;
    const { total, comments, cost } = await countCommentMatches(this.store, accountId, words, via, flags, budget);
    // The most recent few thousand: a query word seen again soon finds its cost here.
    const last = Math.max(cost, this.#commentsCost.get(known) ?? 0);
    this.#commentsCost.delete(known);
    this.#commentsCost.set(known, last);
    for (const oldest of this.#commentsCost.keys()) {
      if (this.#commentsCost.size <= KNOWN_COSTS) break;
      this.#commentsCost.delete(oldest);
    }
    return total === undefined ? undefined : { total, comments };
  }

  /**
   * The distinct comments the query words match (at most MAX_COMMENT_PARTITIONS), with their
   * links per flags and their total, for the readers of the comments' own partitions; read
   * unless the counters cost more than the rarest start's word items, which the other ways
   * read at least (one counted word: ONE_WORD_BUDGET). Undefined when they are more, or dearer.
   */
  async fewComments(accountId: number, words: string[], flags: readonly Flags[]): Promise<FewComments | undefined> {
    const [rarest] = await this.startCounts(accountId, words);
    if (!rarest) return undefined;
    const byItems = rarest.count / (this.lists.plan.entriesPerRru * WORD_ITEM_SHARE);
    const budget = words.length === 1 && isCountedPrefix(rarest.word) ? Math.min(ONE_WORD_BUDGET, byItems) : byItems;
    const matched = await this.commentMatches(accountId, words, rarest.word, flags, budget);
    return matched && matched.comments.length <= MAX_COMMENT_PARTITIONS ? matched : undefined;
  }

  async ready(): Promise<boolean> {
    this.#counted ||= await migrationCompleted(this.store);
    return this.#counted;
  }

  async #cells(counterKeys: { pk: string; sk: string }[]): Promise<Record<string, number>[]> {
    return (await readCounters(this.store, counterKeys, true)).map((state) => state.cells);
  }
}
