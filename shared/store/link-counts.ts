import { commentPrefixes, normalisedComment } from '../domain/link-listing';
import type { Link } from '../domain/links';
import type { Key } from './keys';
import { commentHash, type Flags, flagsOf } from './link-keys';

/** Counter items: the account's links by flags, and by UTC hour of creation per day. */
export const linkCounts = {
  pk: (accountId: number) => `ACCOUNT#${accountId}#COUNTS`,
  all: (accountId: number): Key => ({ pk: linkCounts.pk(accountId), sk: 'LINKS' }),
  daySk: (day: string) => `LINKS#D#${day}`,
  day: (accountId: number, day: string): Key => ({ pk: linkCounts.pk(accountId), sk: linkCounts.daySk(day) }),
  hourCell: (hour: string, flags: Flags) => `h${hour}${flags}`,
  /** The links with a comment word starting with `prefix` (at most MAX_COUNTED_PREFIX characters), a cell per flags. */
  prefix: (accountId: number, prefix: string): Key => ({ pk: linkCounts.pk(accountId), sk: `LINKS#W#${prefix}` }),
  /**
   * The links created on `day` whose comment is `normalised`, a cell per UTC hour and flags
   * (hourCell): a comment's creation range is counted from its days, not from its links.
   */
  commentDaySk: (normalised: string) => (day: string) => `LINKS#CD#${commentHash(normalised)}#${day}`,
  /** Where the distinct-comment counters start. */
  commentsSk: 'LINKS#CW#',
  /** The sk prefix of the distinct-comment counters under the words starting with `start`: one Query reads them. */
  commentsUnder: (start: string) => `${linkCounts.commentsSk}${start}`,
  /**
   * The links whose comment is `normalised` (normalisedComment), a cell per flags, filed
   * under `word`, one of its words: each distinct comment has such an item under each of
   * its words, all with the same cells, so the comments with a word starting with a query
   * word are one Query. The key holds the words themselves (the word, a space, the
   * comment's words), so a read of the counters needs no other item: a comment has at most
   * 255 UTF-16 units, 3 UTF-8 bytes each at most, and a word 40 characters, within a key's 1,024 bytes.
   */
  comment: (accountId: number, word: string, normalised: string): Key => ({
    pk: linkCounts.pk(accountId),
    sk: `${linkCounts.commentsUnder(word)} ${normalised}`,
  }),
};

/** Which of a link's counters its item says are kept for it (older links lack the later ones). */
export interface CountedParts {
  words: boolean;
  comment: boolean;
  /** In its comment's day counters. */
  days: boolean;
}
const EVERY_PART: CountedParts = { words: true, comment: true, days: true };

/**
 * The counter additions a link makes (sign 1) or takes back (sign −1): its flags in the
 * totals and in its creation hour; unless `parts.words` is false (a link whose word starts
 * were never counted), under each start of its comment's words; unless `parts.comment` is
 * false, under its comment, once under each of its words (a comment without words has no counter);
 * unless `parts.days` is false, in its comment's day counter, in its creation hour.
 */
export function linkCounterAdds(link: Link, sign: 1 | -1, parts: CountedParts = EVERY_PART): { key: Key; add: Record<string, number> }[] {
  const flags = flagsOf(link);
  const day = link.createdAt.slice(0, 10);
  const hour = link.createdAt.slice(11, 13);
  const normalised = normalisedComment(link.comment);
  const words = normalised && parts.comment ? normalised.split(' ') : [];
  const cell = linkCounts.hourCell(hour, flags);
  return [
    { key: linkCounts.all(link.accountId), add: { [flags]: sign } },
    { key: linkCounts.day(link.accountId, day), add: { [cell]: sign } },
    ...(parts.words ? commentPrefixes(link.comment) : []).map((start) => ({ key: linkCounts.prefix(link.accountId, start), add: { [flags]: sign } })),
    ...words.map((word) => ({ key: linkCounts.comment(link.accountId, word, normalised), add: { [flags]: sign } })),
    ...(normalised && parts.days
      ? [{ key: { pk: linkCounts.pk(link.accountId), sk: linkCounts.commentDaySk(normalised)(day) }, add: { [cell]: sign } }]
      : []),
  ];
}
