import { type LinkPage, searchShape } from '../domain/link-listing';
import type { LinkListQuery } from '../domain/link-service';
import type { Link } from '../domain/links';
import { countByHours } from './hour-counts';
import { countRanges, EXPECT_MARGIN, type IndexRange, readPage } from './index-reader';
import type { MatchedComment } from './link-comment-counts';
import { CommentReader, foundApart } from './link-comment-reader';
import { linkCounts } from './link-counts';
import { commentPartition, entryId, type Flags, flagsMatching, flagsOf, linkPartition, sortKeyOf } from './link-keys';
import { createdKeyRange } from './link-lists';

/**
 * `criteria[query]` in creation order with a createTs range, by the distinct comments
 * (docs/data-model.md, 4.3): the distinct-comment counters list the account's comments that
 * match the query words, with their links per flags; when they are few, their gsi15 partitions
 * (gsi13's partition key, a comment and flags each, in gsi7's creation order; the keys alone)
 * hold the matches in the order asked, and the range is a key condition on each. Each
 * comment's links in the range are counted from its day counters (`LINKS#CD#…`, a cell per
 * UTC hour and flags: one Query of the range's days), the partial hours at the range's edges
 * from its partitions (Select COUNT within the hour, or the hour's cell less the rest of the
 * hour where that is the shorter part: hour-counts.ts); the page is read from the nearer end of
 * the ranges merged, each expected to supply its comment's share. "Links of campaign X last
 * week" then costs the week's days of the campaign's comment and the page, not the week's
 * links nor the other words' items. A link found by its code or tracking code whose comment
 * does not match, created in the range, joins by its own gsi7 key and counts in the total.
 * createTs keys are unique (the id ends them): later sort fields never apply. Relied on only
 * once the migration has completed (every link counted and in gsi13's partitions); otherwise,
 * with no range (link-comment-sorts.ts reads the same partitions by their counts), or more than MAX_COMMENT_PARTITIONS matching
 * comments (or counters dearer than the word's items), undefined: the caller reads the matches
 * (one word's items within the range by key). One word of few comments is read here too:
 * gsi15's entries are smaller than its word items (which carry copies of the link's keys).
 */
export class LinkCommentTimes extends CommentReader {
  async page(accountId: number, query: LinkListQuery, exact: Link[]): Promise<LinkPage | undefined> {
    const { words, from, to, first } = searchShape(query);
    const [word] = words;
    if (!word || (!from && !to) || first.field !== 'createTs') return undefined;
    if (!(await this.counts.ready())) return undefined;
    const flags = flagsMatching(query.status, query.moderatorStatus);
    const low = from?.toISOString();
    const high = to?.toISOString();
    const inRange = (link: Link) => (low === undefined || link.createdAt >= low) && (high === undefined || link.createdAt <= high);
    // A link found by its code or tracking code whose comment does not match is in none of the partitions.
    const besides = foundApart(exact, flags, words).filter(inRange);
    // One word of few comments too: its word items in the range are larger entries than gsi15's, for the same links.
    const matched = await this.counts.fewComments(accountId, words, flags);
    if (!matched) return undefined;
    // Only partitions with links are read: never more Queries than matches.
    const comments = matched.comments.map((comment) => ({ comment, partitions: this.#partitions(accountId, comment, flags, from, to) }));
    const counts = await Promise.all(comments.map(({ comment, partitions }) => this.#inRange(accountId, comment.normalised, partitions, from, to)));
    const total = counts.reduce((sum, count) => sum + count, 0) + besides.length;
    const { pageSize, currentPage } = query.pagination;
    const offset = pageSize * currentPage;
    const take = Math.max(0, Math.min(pageSize, total - offset));
    this.pages++;
    if (take === 0) return { items: [], totalItemCount: total };
    // Each partition is expected to supply its share of the entries read from the nearer end:
    // its comment's count in the range, split as the comment's links are among the flags.
    const needed = Math.max(0, Math.min(offset, total - offset - take)) + take;
    const ranges: IndexRange[] = comments.flatMap(({ partitions }, i) => {
      const count = counts[i] ?? 0;
      const all = partitions.reduce((sum, { links }) => sum + links, 0);
      if (count === 0) return [];
      return partitions.map(({ range, links }) => {
        const share = (count * links) / all;
        return { ...range, expect: Math.min(Math.ceil(share) + 1, Math.ceil(((needed * share) / total) * EXPECT_MARGIN) + 1) };
      });
    });
    // gsi7's key is gsi15's: a link's own entry there is a range of one key in the same order.
    for (const link of besides) {
      const key = String(sortKeyOf(link, 'createTs'));
      ranges.push({ index: 'gsi7', pk: linkPartition(accountId, flagsOf(link)), sk: { between: [key, key] }, expect: 1 });
    }
    const entries = await readPage(this.store, ranges, { forward: first.direction === 'ASC', offset, take, total });
    return { items: await this.lists.links(entries.map(entryId)), totalItemCount: total };
  }

  /** A matching comment's gsi15 partitions with links among `flags`, each kept to the range, with its flags and its links. */
  #partitions(accountId: number, { normalised, perFlag }: MatchedComment, flags: Flags[], from?: Date, to?: Date) {
    return flags.flatMap((f, i) => {
      const links = perFlag[i] ?? 0;
      if (links === 0) return [];
      const range: IndexRange = { index: 'gsi15', pk: commentPartition(accountId, normalised, f), ...createdKeyRange(from, to) };
      return [{ flags: f, links, range }];
    });
  }

  /**
   * A comment's links in the partitions created within [from, to]: whole hours from the
   * comment's day counters, the rest of an edge hour counted in the partitions themselves.
   */
  #inRange(accountId: number, normalised: string, partitions: { flags: Flags; range: IndexRange }[], from?: Date, to?: Date): Promise<number> {
    return countByHours(this.lists.counted, {
      pk: linkCounts.pk(accountId),
      daySk: linkCounts.commentDaySk(normalised),
      cells: (hour) => partitions.map(({ flags }) => linkCounts.hourCell(hour, flags)),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      countEdge: (edgeFrom, edgeTo) =>
        countRanges(
          this.store,
          partitions.map(({ range }) => ({ ...range, ...createdKeyRange(edgeFrom, edgeTo) })),
        ),
    });
  }
}
