import {
  commentHasStarts,
  compareLinks,
  createdBounds,
  DEFAULT_LINK_ORDER,
  type LinkPage,
  type LinkSortField,
  queryWords,
} from '../domain/link-listing';
import type { LinkListQuery } from '../domain/link-service';
import type { Link } from '../domain/links';
import type { SortOrder } from '../domain/paging';
import { batchGetAll } from './batch';
import type { Store } from './client';
import { keys } from './keys';
import { LinkCommentSorts } from './link-comment-sorts';
import { LinkCommentTimes } from './link-comment-times';
import { flagsMatching, flagsOf, pad, trackingPartition, trackingSortKey, wordPartition } from './link-keys';
import { createdWithin, type LinkLists } from './link-lists';
import { LinkWordCounts, MAX_RUNS, WORD_ITEM_SHARE } from './link-word-counts';
import { readWordRange, wordsStarting } from './link-word-runs';
import { LinkWordSorts } from './link-word-sorts';
import { queryAll } from './query';

const MAX_TRACKING_BYTES = 1000;

/** A createTs range as ISO instants, either end open. */
interface Created {
  from?: string;
  to?: string;
}

interface Found {
  flags: string;
  createdAt: string;
}

/**
 * `criteria[query]` (docs/data-model.md, 4.3): the link whose code the query is (decoded by
 * the domain: one read), the links whose tracking code it is (gsi6), and the links with a
 * comment word starting with each word of the query. One word (up to MAX_COUNTED_PREFIX
 * characters) in creation order takes its total from its counter and its page from the
 * cheaper read (link-word-counts.ts). Otherwise the word items are read: they carry the
 * flags and the creation time, so the other criteria and the createTs order need no link;
 * another order reads the matches' links, or the sort's index kept to the matches,
 * whichever reads less. Several words: the rarest (by its counter) is read first, and the
 * others are read and intersected, or checked on the candidates' comments when that reads
 * less. A clickCnt, expirationDate, code or fullLink order whose matches have few distinct
 * comments is read from their partitions of gsi13 or gsi16–18 (link-comment-sorts.ts); one
 * word's, whatever its comments, from its words' gsi14 partitions, and in the other orders from
 * the same partitions in
 * gsi16, gsi17 or gsi18 (link-word-sorts.ts); several words' creation order within a createTs range
 * from their comments' gsi15 partitions (link-comment-times.ts). With a createTs range, each word's items are read within the range by key where
 * it starts few distinct words. Cost: in proportion to the matches (of the rarest word;
 * in the range, when there is one).
 */
export class LinkSearch {
  readonly #counts: LinkWordCounts;
  readonly commentSorts: LinkCommentSorts;
  readonly wordSorts: LinkWordSorts;
  readonly commentTimes: LinkCommentTimes;
  /** Word reads kept to a createTs range by key, for tests that check the path is taken. */
  rangeReads = 0;

  constructor(
    private readonly store: Store,
    private readonly lists: LinkLists,
  ) {
    this.#counts = new LinkWordCounts(store, lists);
    this.commentSorts = new LinkCommentSorts(store, lists, this.#counts);
    this.wordSorts = new LinkWordSorts(store, lists, this.#counts);
    this.commentTimes = new LinkCommentTimes(store, lists, this.#counts);
  }

  async list(accountId: number, query: LinkListQuery): Promise<LinkPage> {
    const { from, to } = createdBounds(query);
    // A range that ends before it starts holds nothing (and is no key condition a Query takes).
    if (from && to && from > to) return { items: [], totalItemCount: 0 };
    const text = query.query ?? '';
    const exact = await this.#exact(accountId, text, query.codeId);
    const counted = await this.#counts.page(accountId, query, exact, (matched) => this.commentSorts.pageOf(accountId, query, exact, matched));
    if (counted) return counted;
    const ranked = await this.commentSorts.page(accountId, query, exact);
    if (ranked) return ranked;
    const byWord = await this.wordSorts.page(accountId, query, exact);
    if (byWord) return byWord;
    const timed = await this.commentTimes.page(accountId, query, exact);
    if (timed) return timed;
    const found = await this.#found(accountId, text, exact, { from: from?.toISOString(), to: to?.toISOString() });
    const flags = flagsMatching(query.status, query.moderatorStatus);
    const created = createdWithin(from, to);
    const matched = [...found].filter(([, link]) => flags.includes(link.flags as never) && created(link));
    const total = matched.length;
    const { pageSize, currentPage } = query.pagination;
    const offset = pageSize * currentPage;
    if (offset >= total) return { items: [], totalItemCount: total };
    const order = query.sort.length > 0 ? query.sort : DEFAULT_LINK_ORDER;
    const [first] = order as [SortOrder<LinkSortField>[number]];
    const take = Math.min(pageSize, total - offset);

    if (first.field === 'createTs') {
      const key = ([id, link]: [number, Found]) => `${link.createdAt}#${pad(id)}`;
      const sign = first.direction === 'ASC' ? 1 : -1;
      matched.sort((a, b) => (key(a) < key(b) ? -sign : sign));
      return { items: await this.lists.links(matched.slice(offset, offset + take).map(([id]) => id)), totalItemCount: total };
    }
    const perFlag = await this.lists.flagCounts(accountId, flags);
    const all = perFlag.reduce((sum, n) => sum + n, 0);
    const fromEnd = Math.min(offset, total - offset - take);
    const bySort = this.lists.filteredReadCost(fromEnd + take, all, total) + take / 2;
    if (total / 2 <= bySort) {
      const links = (await this.lists.links(matched.map(([id]) => id))).sort(compareLinks(order));
      return { items: links.slice(offset, offset + take), totalItemCount: total };
    }
    const ids = new Set(matched.map(([id]) => id));
    const ranges = this.lists.expecting(
      this.lists.sortRanges(accountId, flags, first.field),
      perFlag,
      this.lists.expectedReads(fromEnd + take, all, total),
    );
    return {
      items: await this.lists.ordered(ranges, order, { offset, take, total, keep: (entry) => ids.has(Number(entry.id)) }),
      totalItemCount: total,
    };
  }

  /** The links whose code or tracking code the query is (any case). */
  async #exact(accountId: number, text: string, codeId: number | undefined): Promise<Link[]> {
    const needle = text.trim().toLowerCase();
    // A tracking code is a key (at most 2,048 bytes): a longer query cannot be one.
    const tracked =
      Buffer.byteLength(needle) > MAX_TRACKING_BYTES
        ? []
        : await queryAll(this.store, {
            IndexName: 'gsi6',
            KeyConditionExpression: 'gsi6pk = :pk AND begins_with(gsi6sk, :account)',
            ExpressionAttributeValues: { ':pk': trackingPartition(needle), ':account': trackingSortKey(accountId, 0).slice(0, -15) },
          });
    const exact = await this.lists.links([...(codeId === undefined ? [] : [codeId]), ...tracked.map((entry) => Number(entry.id))]);
    return exact.filter(
      (link) => link.accountId === accountId && ((link.id === codeId && link.code === needle) || link.trackingCode?.toLowerCase() === needle),
    );
  }

  /** Every link the query finds, by id, with its flags and creation time. */
  async #found(accountId: number, text: string, exact: Link[], created: Created): Promise<Map<number, Found>> {
    const found = new Map<number, Found>(exact.map((link) => [link.id, { flags: flagsOf(link), createdAt: link.createdAt }]));
    const words = queryWords(text);
    // Rarest first by the counters; without them, longest first: they match least. An empty intersection ends the reads.
    const ordered =
      (await this.#counts.rarestFirst(accountId, words)) ?? words.sort((a, b) => b.length - a.length).map((word) => ({ word, count: 0 }));
    let common: Map<number, Found> | undefined;
    for (const [i, { word }] of ordered.entries()) {
      const rest = ordered.slice(i);
      // The remaining words' items cost more than the candidates' comments (a link item each, ~0.5 RRU).
      const itemsCost = rest.reduce((sum, next) => sum + next.count, 0) / (this.lists.plan.entriesPerRru * WORD_ITEM_SHARE);
      if (common && common.size / 2 < itemsCost) {
        common = await this.#withStarts(
          common,
          rest.map((next) => next.word),
        );
        break;
      }
      const hits = await this.#wordHits(accountId, word, created);
      common = common ? new Map([...common].filter(([id]) => hits.has(id))) : hits;
      if (common.size === 0) break;
    }
    for (const [id, link] of common ?? []) found.set(id, link);
    return found;
  }

  /** The candidates whose comment has a word starting with each of `starts`, from their link items. */
  async #withStarts(candidates: Map<number, Found>, starts: string[]): Promise<Map<number, Found>> {
    const items = await batchGetAll(
      this.store,
      [...candidates.keys()].map((id) => keys.link(id)),
    );
    const kept = new Set(items.filter((item) => !item.deleted && commentHasStarts(item.comment ?? null, starts)).map((item) => Number(item.id)));
    return new Map([...candidates].filter(([id]) => kept.has(id)));
  }

  /**
   * Links with a comment word starting with `word`, from the word items; with a createTs
   * range, where the word starts at most MAX_RUNS distinct words, only each word's items in
   * the range (links outside it may come too: the caller keeps the range).
   */
  async #wordHits(accountId: number, word: string, created: Created): Promise<Map<number, Found>> {
    const words = created.from || created.to ? await wordsStarting(this.store, accountId, word, MAX_RUNS) : undefined;
    if (words) this.rangeReads++;
    const items = words
      ? await readWordRange(this.store, accountId, words, created.from, created.to)
      : await queryAll(this.store, {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :word)',
          ExpressionAttributeValues: { ':pk': wordPartition(accountId, word), ':word': word },
          ProjectionExpression: '#sk, #linkId, #flags',
          ExpressionAttributeNames: { '#sk': 'sk', '#linkId': 'linkId', '#flags': 'flags' },
        });
    // sk is `<word>#<createdAt>#<id>`.
    return new Map(items.map((item) => [Number(item.linkId), { flags: String(item.flags), createdAt: String(item.sk).split('#')[1] ?? '' }]));
  }
}
