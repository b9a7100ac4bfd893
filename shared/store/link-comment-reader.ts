import { commentHasStarts, type LinkPage } from '../domain/link-listing';
import type { LinkListQuery } from '../domain/link-service';
import type { Link } from '../domain/links';
import type { Store } from './client';
import { type Flags, flagsOf } from './link-keys';
import type { LinkLists } from './link-lists';
import type { LinkWordCounts } from './link-word-counts';

/**
 * One way LinkSearch (link-search.ts) reads a comment query's page from partitions of its own
 * (link-comment-sorts.ts, link-word-sorts.ts, link-comment-times.ts): the page and its total,
 * or undefined, which leaves the query to the next way.
 */
export abstract class CommentReader {
  /** Pages this way answered, for tests that check the path is taken. */
  pages = 0;

  constructor(
    protected readonly store: Store,
    protected readonly lists: LinkLists,
    protected readonly counts: LinkWordCounts,
  ) {}

  /** The page and its total; `exact` are the links whose code or tracking code the query is. */
  abstract page(accountId: number, query: LinkListQuery, exact: Link[]): Promise<LinkPage | undefined>;
}

/**
 * The links found by their code or tracking code, with `flags`, whose comment does not have
 * the query's words: in none of the comment partitions, each joins the read by its own key.
 */
export function foundApart(exact: Link[], flags: Flags[], words: string[]): Link[] {
  return exact.filter((link) => flags.includes(flagsOf(link)) && !commentHasStarts(link.comment, words));
}
