import type { Link, LinkStatus, ModeratorStatus } from './links';
import { compareValues, type Pagination, page, type SortDirection, type SortOrder } from './paging';

/**
 * Link/List's rules as one pure function over a set of links: what matches, in what order,
 * which page. The store answers from its indexes (shared/store/link-lists.ts); this is the
 * reference those answers are held to, and the in-memory store's answer.
 */

export type LinkSortField = 'createTs' | 'expirationDate' | 'clickCnt' | 'code' | 'fullLink';

export interface LinkQuery {
  status?: LinkStatus;
  moderatorStatus?: ModeratorStatus;
  createdFrom?: Date;
  createdTo?: Date;
  /** An exact code, an exact tracking code (any case), or words of the comment, each whole or its start. */
  query?: string;
  sort: SortOrder<LinkSortField>;
  pagination: Pagination;
}

export interface LinkPage {
  items: Link[];
  totalItemCount: number;
}

export const DEFAULT_LINK_ORDER: SortOrder<LinkSortField> = [{ field: 'createTs', direction: 'DESC' }];

/** Comment words kept per link, and the longest word kept (longer ones are cut to it). */
export const MAX_COMMENT_WORDS = 40;
export const MAX_WORD_LENGTH = 40;
const MIN_WORD_LENGTH = 2;
/** The fullLink sort orders by this many leading UTF-8 bytes, then by id (an index key holds at most 1,024 bytes). */
export const FULL_LINK_SORT_BYTES = 900;

/** Runs of Unicode letters and digits, lowercased, cut to MAX_WORD_LENGTH characters. */
function tokens(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((word) => [...word].slice(0, MAX_WORD_LENGTH).join(''));
}

/** The distinct words of a comment a search finds it by: at least two characters, the first 40 of them. */
export function commentWords(comment: string | null): string[] {
  const words = new Set(tokens(comment ?? '').filter((word) => [...word].length >= MIN_WORD_LENGTH));
  return [...words].slice(0, MAX_COMMENT_WORDS);
}

/**
 * Word starts up to this many characters have a count of their own (docs/data-model.md,
 * 4.3): a longer query word is counted from the word items that start with it.
 */
export const MAX_COUNTED_PREFIX = 12;

/**
 * The distinct starts, 1 to MAX_COUNTED_PREFIX characters, of a comment's words: a link is
 * counted once under each, however many of its words share it.
 */
export function commentPrefixes(comment: string | null): string[] {
  // By code point, so that a start never splits a character.
  const starts = commentWords(comment).flatMap((word) => [...word].slice(0, MAX_COUNTED_PREFIX).map((_, i, chars) => chars.slice(0, i + 1).join('')));
  return [...new Set(starts)];
}

/**
 * A comment as the word rules see it: its distinct words, sorted, one space apart ('' for
 * none). Comments alike so (`Black Friday 2026`, `black friday, 2026`) share one count.
 */
export function normalisedComment(comment: string | null): string {
  return commentWords(comment).sort().join(' ');
}

/** Whether each of `starts` starts one of `words` (a normalised comment's, split). */
export function wordsHaveStarts(words: string[], starts: string[]): boolean {
  return starts.every((prefix) => words.some((word) => word.startsWith(prefix)));
}

/** Whether a query word has a count of its own (commentPrefixes holds every start that short). */
export const isCountedPrefix = (word: string) => [...word].length <= MAX_COUNTED_PREFIX;

/** The words of a query; each must start a word of the comment. */
export function queryWords(query: string): string[] {
  return [...new Set(tokens(query))];
}

/** Whether a link matches `criteria[query]`: its code, its tracking code, or its comment's words. */
export function matchesQuery(link: Link, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (link.code === needle || link.trackingCode?.toLowerCase() === needle) return true;
  const wanted = queryWords(query);
  return wanted.length > 0 && commentHasStarts(link.comment, wanted);
}

/** Whether each of `starts` starts a word of the comment. */
export function commentHasStarts(comment: string | null, starts: string[]): boolean {
  return wordsHaveStarts(commentWords(comment), starts);
}

/**
 * The creation instant to the whole second, as createTs shows it: a filter up to
 * `10:00:00` then takes the link shown as created at `10-00-00`, made at 10:00:00.250.
 */
export function createdSecond(link: Pick<Link, 'createdAt'>): number {
  return Math.floor(Date.parse(link.createdAt) / 1000) * 1000;
}

/** The instants [from, to] a createTs range holds: whole seconds, so milliseconds widen `to`. */
export function createdBounds(query: Pick<LinkQuery, 'createdFrom' | 'createdTo'>): { from?: Date; to?: Date } {
  return {
    from: query.createdFrom && new Date(Math.ceil(query.createdFrom.getTime() / 1000) * 1000),
    to: query.createdTo && new Date(Math.floor(query.createdTo.getTime() / 1000) * 1000 + 999),
  };
}

/** What a comment search is asked for: its words, its createTs range, and its order (the default when none is given). */
export function searchShape(query: Pick<LinkQuery, 'query' | 'createdFrom' | 'createdTo' | 'sort'>) {
  const order = query.sort.length > 0 ? query.sort : DEFAULT_LINK_ORDER;
  return { words: queryWords(query.query ?? ''), ...createdBounds(query), order, first: order[0] as SortOrder<LinkSortField>[number] };
}

export function matchesCriteria(link: Link, query: Omit<LinkQuery, 'sort' | 'pagination'>): boolean {
  return (
    (query.status === undefined || link.status === query.status) &&
    (query.moderatorStatus === undefined || link.moderatorStatus === query.moderatorStatus) &&
    (query.createdFrom === undefined || createdSecond(link) >= query.createdFrom.getTime()) &&
    (query.createdTo === undefined || createdSecond(link) <= query.createdTo.getTime()) &&
    (query.query === undefined || matchesQuery(link, query.query))
  );
}

/** A link's value in a sort; null sorts lowest. */
export function sortValue(link: Link, field: LinkSortField): string | number | null {
  switch (field) {
    case 'createTs':
      // Unique, as the index key is: later sort fields never apply after it.
      return `${link.createdAt}#${String(link.id).padStart(15, '0')}`;
    case 'expirationDate':
      return link.expirationDate;
    case 'clickCnt':
      return link.clickCnt;
    case 'code':
      return link.code;
    case 'fullLink':
      return utf8Prefix(link.fullLink, FULL_LINK_SORT_BYTES);
  }
}

/**
 * ORDER BY each field in its direction, then id in the first field's direction: one index
 * key `<value>#<id>` read forward or backward gives both. Strings compare by code point
 * (the order of their UTF-8 bytes, which is DynamoDB's), not by locale.
 */
export function compareLinks(order: SortOrder<LinkSortField>): (a: Link, b: Link) => number {
  const effective = order.length > 0 ? order : DEFAULT_LINK_ORDER;
  const first = effective[0]?.direction ?? 'DESC';
  return (a, b) => {
    for (const { field, direction } of effective) {
      const difference = compareValues(sortValue(a, field), sortValue(b, field));
      if (difference !== 0) return directed(difference, direction);
    }
    return directed(a.id - b.id, first);
  };
}

/** Link/List over a set of links: the matching links, sorted, paged, and their count. */
export function listLinks(links: Iterable<Link>, query: LinkQuery): LinkPage {
  const matching = [...links].filter((link) => matchesCriteria(link, query));
  matching.sort(compareLinks(query.sort));
  return { items: page(matching, query.pagination), totalItemCount: matching.length };
}

/** The longest start of `text` that fits in `bytes` UTF-8 bytes, never splitting a character. */
export function utf8Prefix(text: string, bytes: number): string {
  let used = 0;
  let end = 0;
  for (const char of text) {
    const point = char.codePointAt(0) ?? 0;
    const size = point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
    if (used + size > bytes) break;
    used += size;
    end += char.length;
  }
  return text.slice(0, end);
}

function directed(difference: number, direction: SortDirection): number {
  return direction === 'ASC' ? difference : -difference;
}
