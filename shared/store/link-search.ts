import { compareLinks, createdBounds, DEFAULT_LINK_ORDER, type LinkPage, type LinkSortField, queryWords } from '../domain/link-listing';
import type { LinkListQuery } from '../domain/link-service';
import type { SortOrder } from '../domain/paging';
import type { Store } from './client';
import { flagsMatching, flagsOf, pad, trackingPartition, trackingSortKey, wordPartition } from './link-keys';
import { createdWithin, type LinkLists } from './link-lists';
import { queryAll } from './query';

const MAX_TRACKING_BYTES = 1000;

interface Found {
  flags: string;
  createdAt: string;
}

/**
 * `criteria[query]` (docs/data-model.md, 4.3): the link whose code the query is (decoded by
 * the domain: one read), the links whose tracking code it is (gsi6), and the links with a
 * comment word starting with each word of the query (word items). Word items carry the
 * flags and the creation time, so the other criteria and the createTs order need no link;
 * another order reads the matches' links, or the sort's index kept to the matches,
 * whichever reads less. Cost: in proportion to the matches.
 */
export class LinkSearch {
  constructor(
    private readonly store: Store,
    private readonly lists: LinkLists,
  ) {}

  async list(accountId: number, query: LinkListQuery): Promise<LinkPage> {
    const text = query.query ?? '';
    const found = await this.#found(accountId, text, query.codeId);
    const flags = flagsMatching(query.status, query.moderatorStatus);
    const { from, to } = createdBounds(query);
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

  /** Every link the query finds, by id, with its flags and creation time. */
  async #found(accountId: number, text: string, codeId: number | undefined): Promise<Map<number, Found>> {
    const needle = text.trim().toLowerCase();
    const found = new Map<number, Found>();
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
    for (const link of exact) {
      const isCode = link.id === codeId && link.code === needle;
      if (link.accountId === accountId && (isCode || link.trackingCode?.toLowerCase() === needle)) {
        found.set(link.id, { flags: flagsOf(link), createdAt: link.createdAt });
      }
    }
    let common: Map<number, Found> | undefined;
    // Longest words first: they match least, and an empty intersection ends the reads.
    for (const word of queryWords(text).sort((a, b) => b.length - a.length)) {
      const hits = await this.#wordHits(accountId, word);
      common = common ? new Map([...common].filter(([id]) => hits.has(id))) : hits;
      if (common.size === 0) break;
    }
    for (const [id, link] of common ?? []) found.set(id, link);
    return found;
  }

  /** Links with a comment word starting with `word`, from the word items. */
  async #wordHits(accountId: number, word: string): Promise<Map<number, Found>> {
    const items = await queryAll(this.store, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :word)',
      ExpressionAttributeValues: { ':pk': wordPartition(accountId, word), ':word': word },
      ProjectionExpression: '#sk, #linkId, #flags',
      ExpressionAttributeNames: { '#sk': 'sk', '#linkId': 'linkId', '#flags': 'flags' },
    });
    // sk is `<word>#<createdAt>#<id>`.
    return new Map(items.map((item) => [Number(item.linkId), { flags: String(item.flags), createdAt: String(item.sk).split('#')[1] ?? '' }]));
  }
}
