import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { type LinkPage, searchShape } from '../domain/link-listing';
import type { LinkListQuery } from '../domain/link-service';
import type { Link } from '../domain/links';
import { type Entry, EXPECT_MARGIN, type IndexRange, queryOf, readPage } from './index-reader';
import { CommentReader, foundApart } from './link-comment-reader';
import { commentPartition, entryId, flagsMatching, flagsOf, linkPartition, sortKeyOf } from './link-keys';
import { createdKeyRange } from './link-lists';

/**
 * `criteria[query]` in creation order with a createTs range, by the distinct comments
 * (docs/data-model.md, 4.3): the distinct-comment counters list the account's comments that
 * match the query words, with their links per flags; when they are few, their gsi15 partitions
 * (gsi13's partition key, a comment and flags each, in gsi7's creation order; the keys alone)
 * hold the matches in the order asked, and the range is a key condition on each. A range of
 * up to FIRST_READ entries is read whole: its count, and the page merged in memory; a bigger
 * one is counted (the rest by Select COUNT) and the page read from the nearer end of the
 * ranges merged. "Links of campaign X last week" then costs that week's links of the campaign
 * and the page, not every item of its words (a start of more than MAX_RUNS words is read
 * whole) nor the other words' items. A link found by its code or tracking code whose comment
 * does not match, created in the range, joins by its own gsi7 key and counts in the total.
 * createTs keys are unique (the id ends them): later sort fields never apply. Relied on only
 * once the migration has completed (every link counted and in gsi13's partitions); otherwise,
 * with no range (link-comment-sorts.ts reads the same partitions by their counts), or more than MAX_COMMENT_PARTITIONS matching
 * comments (or counters dearer than the word's items), undefined: the caller reads the matches
 * (one word's items within the range by key). One word of few comments is read here too:
 * gsi15's entries are smaller than its word items (which carry copies of the link's keys).
 */

/** A partition's range is read whole up to this many entries (KEYS_ONLY, ~120 bytes: ~8 read units), else counted. */
const FIRST_READ = 1000;

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
    const range = createdKeyRange(from, to);
    const partitions: IndexRange[] = matched.comments.flatMap(({ normalised, perFlag }) =>
      flags.flatMap((f, i) => ((perFlag[i] ?? 0) === 0 ? [] : [{ index: 'gsi15', pk: commentPartition(accountId, normalised, f), ...range }])),
    );
    const read = await Promise.all(partitions.map((partition) => this.#counted(partition)));
    // gsi7's key is gsi15's: a link's own entry there is a range of one key in the same order.
    const own = besides.map((link) => ({ id: link.id, key: String(sortKeyOf(link, 'createTs')), pk: linkPartition(accountId, flagsOf(link)) }));
    const total = read.reduce((sum, { count }) => sum + count, 0) + besides.length;
    const { pageSize, currentPage } = query.pagination;
    const offset = pageSize * currentPage;
    const take = Math.max(0, Math.min(pageSize, total - offset));
    this.pages++;
    if (take === 0) return { items: [], totalItemCount: total };
    const forward = first.direction === 'ASC';
    if (read.every(({ whole }) => whole)) {
      // Every match in the range was read with its count: the page is theirs, in memory.
      const keyed = [
        ...read.flatMap(({ entries }) => entries.map((entry) => ({ key: String(entry.gsi7sk), id: entryId(entry) }))),
        ...own.map(({ key, id }) => ({ key, id })),
      ];
      keyed.sort((a, b) => (a.key < b.key ? -1 : 1) * (forward ? 1 : -1));
      return { items: await this.lists.links(keyed.slice(offset, offset + take).map(({ id }) => id)), totalItemCount: total };
    }
    // Each partition is expected to supply its share (by its count) of the entries read from the nearer end.
    const needed = Math.max(0, Math.min(offset, total - offset - take)) + take;
    const ranges: IndexRange[] = partitions.flatMap((partition, i) => {
      const links = read[i]?.count ?? 0;
      return links === 0 ? [] : [{ ...partition, expect: Math.min(links + 1, Math.ceil(((needed * links) / total) * EXPECT_MARGIN) + 1) }];
    });
    ranges.push(...own.map(({ pk, key }) => ({ index: 'gsi7', pk, sk: { between: [key, key] as [string, string] }, expect: 1 })));
    const entries = await readPage(this.store, ranges, { forward, offset, take, total });
    return { items: await this.lists.links(entries.map(entryId)), totalItemCount: total };
  }

  /**
   * How many entries a partition's range holds: its first page read (up to FIRST_READ entries,
   * whole when that is all of them), the rest counted (Select COUNT: the same read units).
   */
  async #counted(range: IndexRange): Promise<{ entries: Entry[]; count: number; whole: boolean }> {
    const query = queryOf(this.store, range, true);
    const first = await this.store.db.send(new QueryCommand({ ...query, Limit: FIRST_READ }));
    const entries = first.Items ?? [];
    let count = entries.length;
    let startKey = first.LastEvaluatedKey;
    if (!startKey) return { entries, count, whole: true };
    do {
      const page: QueryCommandOutput = await this.store.db.send(new QueryCommand({ ...query, Select: 'COUNT', ExclusiveStartKey: startKey }));
      count += page.Count ?? 0;
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return { entries: [], count, whole: false };
  }
}
