import { createHash } from 'node:crypto';
import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { commentWords, FULL_LINK_SORT_BYTES, type LinkSortField, normalisedComment, utf8Prefix } from '../domain/link-listing';
import type { Link, LinkStatus, ModeratorStatus } from '../domain/links';
import type { Entry } from './index-reader';
import { type Key, keys } from './keys';

/**
 * A link's places in the list indexes (docs/data-model.md, section 4.1). Every list index
 * but gsi1 splits an account's links by their flags (`S<status>M<moderatorStatus>`), so a
 * flag criterion picks partitions instead of filtering. Sort keys end in the padded id, so
 * ties come in id order, forward or backward with the sort.
 *
 * | index | partition key                | sort key                                  | order         |
 * |-------|------------------------------|-------------------------------------------|---------------|
 * | gsi1  | ACCOUNT#a#LINKS              | <createdAt>#<id>                          | createTs      |
 * | gsi2  | ACCOUNT#a#LINKS#<flags>      | EXP#<expirationDate or 0000-00-00>#<id>   | expirationDate|
 * | gsi3  | ACCOUNT#a#LINKS#<flags>      | clickCnt × 10^15 + id (number)            | clickCnt      |
 * | gsi4  | ACCOUNT#a#LINKS#<flags>      | CODE#<code>                               | code (unique) |
 * | gsi5  | ACCOUNT#a#LINKS#<flags>      | URL#<first 900 bytes of fullLink> <id>    | fullLink      |
 * | gsi6  | TRACK#<tracking code, lower> | ACCOUNT#a#LINK#<id>                       | (lookup)      |
 * | gsi7  | ACCOUNT#a#LINKS#<flags>      | <createdAt>#<id>                          | createTs      |
 * | gsi13 | ACCOUNT#a#LINKS#CM#<h>#<f>   | gsi3sk (gsi3's key, moved with it)        | clickCnt      |
 * | gsi14 | ACCOUNT#a#LINKWORDS#W#<w>#<f>| gsi3sk (a copy on each word item)         | clickCnt      |
 * | gsi15 | gsi13pk (gsi13's partitions) | gsi7sk (gsi7's key)                       | createTs      |
 * | gsi16 | gsi14pk (gsi14's partitions) | gsi2sk (a copy on each word item)         | expirationDate|
 * | gsi17 | gsi14pk (gsi14's partitions) | gsi4sk (a copy on each word item)         | code          |
 * | gsi18 | gsi14pk (gsi14's partitions) | gsi5sk (a copy on each word item)         | fullLink      |
 * | gsi19 | ACCOUNT#a#LINKS#<f>#M<month> | gsi3sk (gsi3's key, moved with it)        | clickCnt      |
 *
 * gsi13 holds only links with a comment, a partition per distinct comment (`h`, the hash of
 * its normalisedComment) and flags `f`; it orders by gsi3's own attribute, so the rank pass
 * that moves a link's gsi3sk moves it there too. gsi14 holds the comment word items, a
 * partition per word `w` and flags: each carries a copy of its link's gsi3sk, which the
 * rank pass moves after the link's (link-word-ranks.ts). gsi15 holds gsi13's links in the same
 * partitions by creation, from the two attributes alone (KEYS_ONLY). gsi16, gsi17 and gsi18
 * hold the word items in gsi14's partitions by copies of their link's gsi2sk, gsi4sk and
 * gsi5sk (KEYS_ONLY: the item's sk ends in the link's id). A link with a comment also carries
 * gsi14pk itself, with gsi13pk's value: its own item then sits in gsi14 and gsi16–18 in its
 * comment's partitions (`LINKS#CM#`, never a word's `LINKWORDS#W#`), ordered by its own keys, so
 * a comment's links in the expirationDate, code and fullLink orders cost no copy to keep.
 * gsi19 holds every link in a partition per flags and UTC month of creation, by gsi3's own
 * attribute like gsi13: the clickCnt order of a creation range reads its months, not the account.
 *
 * fullLink's id follows a space, which sorts below every character a full link may hold
 * (no spaces, no control characters), so a link sorts before every longer link it starts.
 */

export const LINK_SCHEMA = 2;
/**
 * `wordsCounted` on a link item: its comment's word starts are in the prefix counters.
 * Links written at schema 2 before those counters were kept lack it; their next change, or
 * `admin migrate`, adds them (link-writes.ts).
 */
export const WORDS_COUNTED = 1;
/**
 * `commentCounted` on a link item: its comment is in its distinct-comment counters, one
 * under each of its words (`LINKS#CW#…`). Links written before those counters were kept
 * lack it, and those counted in the earlier single counter per comment (`LINKS#C#…`, no
 * longer read) have 1; their next change, or `admin migrate`, counts them (link-writes.ts).
 */
export const COMMENT_COUNTED = 2;
/**
 * `commentDated` on a link item: its comment's day counters (`LINKS#CD#<h>#<day>`, a cell per
 * UTC hour of creation and flags) count it. Links written before them lack it; their next
 * change, or `admin migrate`, counts them there (link-writes.ts).
 */
export const COMMENT_DATED = 1;
/**
 * `commentRanked` on a link item: it carries gsi13pk when it has a comment and, at 2, gsi14pk
 * with the same value (its comment's partitions of gsi14 and gsi16–18). Links written before
 * gsi13 lack it, those before their gsi14pk have 1; their next change, or `admin migrate`,
 * sets them (link-writes.ts).
 */
export const COMMENT_RANKED = 2;
/**
 * `wordsRanked` on a link item: its word items carry gsi14pk, a copy of its gsi3sk and, at 2,
 * copies of its gsi2sk, gsi4sk and gsi5sk (gsi16–18). Links written before gsi14 lack it,
 * those before gsi16–18 have 1; their next change, or `admin migrate`, puts their word items
 * again with them (link-writes.ts).
 */
export const WORDS_RANKED = 2;
/**
 * `monthRanked` on a link item: it carries gsi19pk (its flags and month of creation). Links
 * written before gsi19 lack it; their next change, or `admin migrate`, sets both (link-writes.ts).
 */
export const MONTH_RANKED = 1;
/** What a click count is multiplied by in gsi3's key: ids have at most 15 digits. */
export const CLICK_KEY_SCALE = 10n ** 15n;
export const NO_EXPIRATION = '0000-00-00';

export type Flags = `S${LinkStatus}M${ModeratorStatus}`;
export const ALL_FLAGS: readonly Flags[] = ['S1M1', 'S0M1', 'S1M0', 'S0M0'];

export const pad = (id: number) => String(id).padStart(15, '0');

export function flagsOf(link: Pick<Link, 'status' | 'moderatorStatus'>): Flags {
  return `S${link.status}M${link.moderatorStatus}`;
}

/** The flag partitions a status and moderator-status criterion select. */
export function flagsMatching(status?: LinkStatus, moderatorStatus?: ModeratorStatus): Flags[] {
  return ALL_FLAGS.filter(
    (flags) => (status === undefined || flags[1] === String(status)) && (moderatorStatus === undefined || flags[3] === String(moderatorStatus)),
  );
}

export const linkPartition = (accountId: number, flags: Flags) => `ACCOUNT#${accountId}#LINKS#${flags}`;

/** gsi19's partition: the links with `flags` created in a UTC month (`YYYY-MM`), in clickCnt order. */
export const monthPartition = (accountId: number, flags: Flags, month: string) => `${linkPartition(accountId, flags)}#M${month}`;

/** gsi13's partition of the links with a comment (normalised, non-empty) and flags: the comment hashed, as a comment may be 765 bytes. */
export function commentPartition(accountId: number, normalised: string, flags: Flags): string {
  return `ACCOUNT#${accountId}#LINKS#CM#${commentHash(normalised)}#${flags}`;
}

/** A distinct comment's short name in keys: 22 base64url characters of its SHA-256 (no `#`). */
export const commentHash = (normalised: string) => createHash('sha256').update(normalised, 'utf8').digest('base64url').slice(0, 22);

/** The index that orders by each sort field, when a flag partition is read. */
export const SORT_INDEX: Record<LinkSortField, string> = {
  createTs: 'gsi7',
  expirationDate: 'gsi2',
  clickCnt: 'gsi3',
  code: 'gsi4',
  fullLink: 'gsi5',
};

/** gsi3's key: click count then id in one number, exact as a bigint beyond 2^53. */
export function clickKey(clickCnt: number | bigint, id: number): number | bigint {
  const key = BigInt(clickCnt) * CLICK_KEY_SCALE + BigInt(id);
  return key <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(key) : key;
}

/** The sort key a link has in the index of a sort field (gsi3's is a number). */
export function sortKeyOf(link: Link, field: LinkSortField): string | number | bigint {
  switch (field) {
    case 'createTs':
      return `${link.createdAt}#${pad(link.id)}`;
    case 'expirationDate':
      return `EXP#${link.expirationDate ?? NO_EXPIRATION}#${pad(link.id)}`;
    case 'clickCnt':
      return clickKey(link.clickCnt, link.id);
    case 'code':
      return `CODE#${link.code}`;
    case 'fullLink':
      return `URL#${utf8Prefix(link.fullLink, FULL_LINK_SORT_BYTES)} ${pad(link.id)}`;
  }
}

/**
 * The key range of the run of ties a sort key belongs to (every link with the same value in
 * that field), for secondary sorts; undefined for fields whose keys are unique.
 */
export function tieRangeOfKey(field: LinkSortField, key: NativeAttributeValue): [string | number | bigint, string | number | bigint] | undefined {
  switch (field) {
    case 'expirationDate':
    case 'fullLink': {
      // `EXP#<date>#<id>`, `URL#<prefix> <id>`: the run is every id after the same value.
      const text = String(key);
      const value = text.slice(0, text.length - 15);
      return [value, `${value}~`];
    }
    case 'clickCnt': {
      const low = (BigInt(key) / CLICK_KEY_SCALE) * CLICK_KEY_SCALE;
      const narrow = (value: bigint) => (value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value);
      return [narrow(low), narrow(low + CLICK_KEY_SCALE - 1n)];
    }
    default:
      return undefined;
  }
}

/** Every index attribute of a schema-2 link, gsi6 only when it has a tracking code, gsi13 only with a comment. */
export function linkIndexAttributes(link: Link): Record<string, NativeAttributeValue> {
  const partition = linkPartition(link.accountId, flagsOf(link));
  const normalised = normalisedComment(link.comment);
  return {
    ...keys.linkIndex(link.accountId, link.createdAt, link.id),
    gsi2pk: partition,
    gsi2sk: sortKeyOf(link, 'expirationDate'),
    gsi3pk: partition,
    gsi3sk: sortKeyOf(link, 'clickCnt'),
    gsi4pk: partition,
    gsi4sk: sortKeyOf(link, 'code'),
    gsi5pk: partition,
    gsi5sk: sortKeyOf(link, 'fullLink'),
    ...(link.trackingCode ? { gsi6pk: trackingPartition(link.trackingCode), gsi6sk: trackingSortKey(link.accountId, link.id) } : {}),
    gsi7pk: partition,
    gsi7sk: sortKeyOf(link, 'createTs'),
    gsi19pk: monthPartition(link.accountId, flagsOf(link), link.createdAt.slice(0, 7)),
    ...(normalised ? commentIndexKeys(commentPartition(link.accountId, normalised, flagsOf(link))) : {}),
    schema: LINK_SCHEMA,
    wordsCounted: WORDS_COUNTED,
    commentCounted: COMMENT_COUNTED,
    commentDated: COMMENT_DATED,
    commentRanked: COMMENT_RANKED,
    wordsRanked: WORDS_RANKED,
    monthRanked: MONTH_RANKED,
  };
}

/** A commented link's comment partition, in gsi13 (and gsi15) and in gsi14 and gsi16–18. */
const commentIndexKeys = (partition: string) => ({ gsi13pk: partition, gsi14pk: partition });

/** The attributes that put a link in its comment's partitions: a comment taken away takes them. */
export const COMMENT_INDEX_KEYS = Object.keys(commentIndexKeys(''));

/** Index attributes a deleted link drops, so it leaves every list at once. */
export const LINK_INDEX_KEYS = [
  ...['gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5', 'gsi6', 'gsi7'].flatMap((index) => [`${index}pk`, `${index}sk`]),
  'gsi19pk',
  ...COMMENT_INDEX_KEYS,
];

export const trackingPartition = (trackingCode: string) => `TRACK#${trackingCode.toLowerCase()}`;
export const trackingSortKey = (accountId: number, id: number) => `ACCOUNT#${accountId}#LINK#${pad(id)}`;

/** A comment word's item: the account's words by first character, then word, creation and id. */
export function wordKey(accountId: number, word: string, createdAt: string, id: number): Key {
  return { pk: wordPartition(accountId, word), sk: `${word}#${createdAt}#${pad(id)}` };
}

export function wordPartition(accountId: number, word: string): string {
  return `ACCOUNT#${accountId}#LINKWORDS#${[...word][0] ?? ''}`;
}

/** gsi14's partition: the links whose comment has `word`, with `flags`, in clickCnt order. */
export function wordRankPartition(accountId: number, word: string, flags: Flags): string {
  return `ACCOUNT#${accountId}#LINKWORDS#W#${word}#${flags}`;
}

/**
 * The word items of a link, carrying its flags so flag criteria filter without the link,
 * and its place in gsi14: the word's partition with its flags, and `rank`, the link's gsi3sk
 * as the writer read it (a new link's own); in gsi16, gsi17 and gsi18 (the same partitions),
 * copies of the link's own expirationDate, code and fullLink keys.
 */
export function wordItems(link: Link, rank: NativeAttributeValue = clickKey(link.clickCnt, link.id)): Record<string, NativeAttributeValue>[] {
  return commentWords(link.comment).map((word) => ({
    ...wordKey(link.accountId, word, link.createdAt, link.id),
    entity: 'LinkWord',
    linkId: link.id,
    flags: flagsOf(link),
    gsi14pk: wordRankPartition(link.accountId, word, flagsOf(link)),
    gsi3sk: rank,
    gsi2sk: sortKeyOf(link, 'expirationDate'),
    gsi4sk: sortKeyOf(link, 'code'),
    gsi5sk: sortKeyOf(link, 'fullLink'),
  }));
}

export function wordKeys(link: Link): Key[] {
  return commentWords(link.comment).map((word) => wordKey(link.accountId, word, link.createdAt, link.id));
}

/**
 * An entry's link: its `id`; in a keys-only index, a link item's from its pk `LINK#<id>`, a
 * comment word item's from its sk `<word>#<createdAt>#pad(id)`.
 */
export function entryId(entry: Entry): number {
  if (entry.id !== undefined) return Number(entry.id);
  const pk = String(entry.pk);
  return pk.startsWith(LINK_PK) ? Number(pk.slice(LINK_PK.length)) : Number(String(entry.sk).slice(-15));
}

const LINK_PK = keys.link(0).pk.slice(0, -1);

/** `keep`, and each link once: a link in two ranges (two of its comment's words) comes twice with the same key. */
export function onceEach(keep?: (entry: Entry) => boolean): (entry: Entry) => boolean {
  const seen = new Set<number>();
  return (entry) => {
    const id = entryId(entry);
    if (seen.has(id) || (keep && !keep(entry))) return false;
    seen.add(id);
    return true;
  };
}
