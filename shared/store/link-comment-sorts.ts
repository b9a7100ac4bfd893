import { type LinkPage, type LinkSortField, searchShape } from '../domain/link-listing';
import type { LinkListQuery } from '../domain/link-service';
import type { Link } from '../domain/links';
import { batchGetAll } from './batch';
import type { Store } from './client';
import { EXPECT_MARGIN, type IndexRange } from './index-reader';
import { keys } from './keys';
import { CommentReader, foundApart } from './link-comment-reader';
import { commentPartition, flagsMatching, flagsOf, linkPartition, SORT_INDEX, sortKeyOf } from './link-keys';
import type { FewComments } from './link-word-counts';
import { fromItem } from './link-writes';

/**
 * `criteria[query]` in creation order (no createTs range) or sorted by clickCnt, expirationDate, code or fullLink, by the distinct
 * comments (docs/data-model.md, 4.3): the distinct-comment counters list the account's
 * comments that match the query words, with their links per flags; when they are few, their
 * partitions of the sort's comment-level index (a comment and flags each, in the field's
 * order) merged are the matches in the order asked, read from the nearer end about the page,
 * and their cells are the exact total. A campaign's comment on 100,000 links is one
 * partition: "the most clicked links of campaign X", or its links by URL, cost the page, not
 * its links. Relied on only once the migration has completed (every link counted and in its
 * comment's partitions); otherwise, with a createTs range (the counters do not know when),
 * with many matching comments, or with a link found by its code or tracking code whose
 * comment does not match and a later sort field, undefined: the caller reads the matches.
 */

/**
 * The comment-level index of each sort field: gsi15 by the link's gsi7sk (creation), gsi13 by its gsi3sk, and the link items
 * themselves in gsi14's partitions of the comment (their gsi14pk) by their own gsi2sk, gsi4sk
 * and gsi5sk in gsi16–18.
 */
export const COMMENT_SORT_INDEX: Partial<Record<LinkSortField, string>> = {
  createTs: 'gsi15',
  clickCnt: 'gsi13',
  expirationDate: 'gsi16',
  code: 'gsi17',
  fullLink: 'gsi18',
};

export class LinkCommentSorts extends CommentReader {
  async page(accountId: number, query: LinkListQuery, exact: Link[]): Promise<LinkPage | undefined> {
    const { words, from, to, order, first } = searchShape(query);
    const index = COMMENT_SORT_INDEX[first.field];
    if (words.length === 0 || from || to || !index) return undefined;
    if (!(await this.counts.ready())) return undefined;
    const flags = flagsMatching(query.status, query.moderatorStatus);
    if (foundApart(exact, flags, words).length > 0 && order.length > 1) return undefined;
    const matched = await this.counts.fewComments(accountId, words, flags);
    return matched ? this.pageOf(accountId, query, exact, matched) : undefined;
  }

  /** The page from the partitions of the comments `matched` (fewComments: at most MAX_COMMENT_PARTITIONS). */
  async pageOf(accountId: number, query: LinkListQuery, exact: Link[], matched: FewComments): Promise<LinkPage | undefined> {
    const { words, order, first } = searchShape(query);
    const index = COMMENT_SORT_INDEX[first.field];
    if (!index) return undefined;
    const flags = flagsMatching(query.status, query.moderatorStatus);
    // A link found by its code or tracking code whose comment does not match is in none of the
    // partitions: its own key in the field's link index joins the merge. Later sort fields would read its whole run there.
    const besides = foundApart(exact, flags, words);
    if (besides.length > 0 && order.length > 1) return undefined;
    const total = matched.total + besides.length;
    const { pageSize, currentPage } = query.pagination;
    const offset = pageSize * currentPage;
    const take = Math.max(0, Math.min(pageSize, total - offset));
    const needed = Math.max(0, Math.min(offset, total - offset - take)) + take;
    // Each partition is expected to supply its share of the entries read from the nearer end. Only
    // partitions with links are read: never more Queries than matches, which the other way reads.
    const ranges: IndexRange[] = matched.comments.flatMap(({ normalised, perFlag }) =>
      flags.flatMap((f, i) => {
        const links = perFlag[i] ?? 0;
        if (links === 0) return [];
        const expect = Math.ceil(((needed * links) / total) * EXPECT_MARGIN) + 1;
        return [{ index, pk: commentPartition(accountId, normalised, f), expect }];
      }),
    );
    if (take === 0) {
      this.pages++;
      return { items: [], totalItemCount: total };
    }
    const placed = await placedBy(this.store, accountId, first.field, besides);
    if (!placed) return undefined;
    ranges.push(...placed);
    this.pages++;
    return { items: await this.lists.ordered(ranges, order, { offset, take, total }), totalItemCount: total };
  }
}

/**
 * Each link's own entry in the index of `field`, as a range of one key: gsi3's as its item has
 * it (the rank pass moves it), the others' from the link; undefined when one has no click key yet.
 */
export async function placedBy(store: Store, accountId: number, field: LinkSortField, besides: Link[]): Promise<IndexRange[] | undefined> {
  if (field !== 'clickCnt') {
    return besides.map((link) => {
      const key = sortKeyOf(link, field);
      return { index: SORT_INDEX[field], pk: linkPartition(accountId, flagsOf(link)), sk: { between: [key, key] }, expect: 1 };
    });
  }
  if (besides.length === 0) return [];
  const items = await batchGetAll(
    store,
    besides.map((link) => keys.link(link.id)),
  );
  if (items.length < besides.length || items.some((item) => item.gsi3sk === undefined)) return undefined;
  return items.map((item) => ({
    index: 'gsi3',
    pk: linkPartition(accountId, flagsOf(fromItem(item))),
    sk: { between: [item.gsi3sk, item.gsi3sk] },
    expect: 1,
  }));
}
