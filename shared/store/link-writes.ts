import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, type NativeAttributeValue, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { commentWords } from '../domain/link-listing';
import type { Link } from '../domain/links';
import type { ClickRanks } from './click-ranks';
import type { Store } from './client';
import { type CountedOp, type CountedWrites, type CounterAdd, mergedCounters } from './counted-writes';
import { withoutNulls } from './items';
import { keys } from './keys';
import { type CountedParts, linkCounterAdds } from './link-counts';
import {
  COMMENT_COUNTED,
  COMMENT_DATED,
  COMMENT_INDEX_KEYS,
  LINK_INDEX_KEYS,
  LINK_SCHEMA,
  linkIndexAttributes,
  WORDS_COUNTED,
  WORDS_RANKED,
  wordItems,
  wordKey,
  wordKeys,
} from './link-keys';

export type LinkItem = Record<string, NativeAttributeValue>;

/** The fields a link's index keys, counts and word items follow: a change writes on the condition they are as read. */
const STATE_FIELDS = [
  'status',
  'moderatorStatus',
  'comment',
  'expirationDate',
  'schema',
  'wordsCounted',
  'commentCounted',
  'commentDated',
  'commentRanked',
  'wordsRanked',
  'monthRanked',
  'deleted',
] as const;
/** A link's own fields a change may set or remove. */
const LINK_FIELDS = ['status', 'moderatorStatus', 'moderatorComment', 'comment', 'expirationDate', 'expiresAt'] as const;

export type LinkChange = { to: Link } | { delete: true };

/**
 * Changes to existing links as single conditional UpdateItems of what changes (never a Put
 * over the item: the click aggregator ADDs to it concurrently), with their counts and word
 * items through CountedWrites. A link written before schema 2 is upgraded by its first
 * change: index attributes, word items and counts as if it were new; one written at schema 2
 * before the prefix counters were kept (no `wordsCounted`) gets its word starts counted, and
 * one before the distinct-comment counters (no `commentCounted`) its comment, one before
 * the comment day counters (no `commentDated`) its comment's day, one
 * before gsi13 (no `commentRanked`) or its gsi14pk (`commentRanked` 1) its place there, and one before gsi14 (no
 * `wordsRanked`) or gsi16–18 (`wordsRanked` 1) its word items put again with their place there.
 */
export class LinkWrites {
  /**
   * `ranks` brings a first clickCnt key to the link's total clicks right after it is set
   * (the migration passes it); without it the key follows at the link's next counted batch.
   */
  constructor(
    private readonly store: Store,
    private readonly counted: CountedWrites,
    private readonly ranks?: Pick<ClickRanks, 'refresh'>,
  ) {}

  async read(id: number): Promise<LinkItem | undefined> {
    const result = await this.store.db.send(new GetCommand({ TableName: this.store.tableName, Key: keys.link(id), ConsistentRead: true }));
    return result.Item;
  }

  /**
   * Reads the link, lets `decide` say what it becomes (undefined: nothing, the link is not
   * there for the caller), writes it on the condition nothing changed since, and on a
   * conflict settles any unfinished counted change of the item and tries again.
   */
  async change(id: number, decide: (current: Link, item: LinkItem) => LinkChange | undefined): Promise<LinkItem | undefined> {
    for (;;) {
      const item = await this.read(id);
      if (!item || item.deleted) return undefined;
      const change = decide(fromItem(item), item);
      if (!change) return undefined;
      const written = await this.write(item, change);
      if (written !== 'conflict') return written;
    }
  }

  /** One attempt: the new item, or 'conflict' when the item changed since it was read (settled first). */
  async write(item: LinkItem, change: LinkChange): Promise<LinkItem | 'conflict'> {
    const before = fromItem(item);
    const counted = item.schema === LINK_SCHEMA;
    // A link of schema 2 written before the prefix or the comment counters is counted in them by this change.
    const parts: CountedParts = {
      words: item.wordsCounted === WORDS_COUNTED,
      comment: item.commentCounted === COMMENT_COUNTED,
      days: item.commentDated === COMMENT_DATED,
    };
    // The word items' gsi14 key: the link's gsi3sk as read (or the first one this write sets).
    const rank = item.gsi3sk ?? linkIndexAttributes(before).gsi3sk;
    const op: CountedOp =
      'delete' in change
        ? { counters: counted ? linkCounterAdds(before, -1, parts) : [], deletes: counted ? wordKeys(before) : [], deleteEntity: true }
        : changeOp(before, change.to, { counted, ranked: item.wordsRanked === WORDS_RANKED, rank }, parts);
    const update = new Expression();
    if ('delete' in change) {
      for (const key of LINK_INDEX_KEYS) if (item[key] !== undefined) update.remove(key);
      update.set('deleted', 1);
    } else {
      const fields: LinkItem = withoutNulls(change.to);
      for (const field of LINK_FIELDS) {
        if (fields[field] === undefined && item[field] !== undefined) update.remove(field);
        else if (fields[field] !== undefined && fields[field] !== item[field]) update.set(field, fields[field]);
      }
      const indexed = linkIndexAttributes(change.to);
      // The rank pass moves gsi3sk after counting: a key the item has is kept as it is (a
      // flag change moves it to the other partition with gsi3pk); it is set here only when
      // the item gets it first, on the condition it still has none.
      if (item.gsi3sk !== undefined) delete indexed.gsi3sk;
      for (const [field, value] of Object.entries(indexed)) if (value !== item[field]) update.set(field, value);
      // A comment taken away (or left without words) takes the link out of its comment's partitions.
      for (const key of COMMENT_INDEX_KEYS) if (indexed[key] === undefined && item[key] !== undefined) update.remove(key);
    }
    const empty = op.counters.length === 0 && !op.puts?.length && !op.deletes?.length && !op.deleteEntity;
    if (update.isEmpty() && empty) return item;
    const marked = empty ? undefined : this.counted.mark(op);
    for (const [field, value] of Object.entries(marked?.set ?? {})) update.set(field, value);
    const conditions = ['attribute_exists(pk)', ...STATE_FIELDS.map((field) => update.equalsRead(field, item[field]))];
    // A first click key is computed here from the count read: on the condition both are as read.
    if (item.gsi3sk === undefined) conditions.push(update.equalsRead('clickCnt', item.clickCnt));
    // The word items are put with the key as read: on the condition the rank pass has not moved it
    // since; it moves none while the change is unfinished (link-word-ranks.ts).
    conditions.push(update.equalsRead('gsi3sk', item.gsi3sk));
    if (marked) conditions.push(marked.condition);
    try {
      const result = await this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: keys.link(before.id),
          UpdateExpression: update.expression(),
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: update.names,
          ExpressionAttributeValues: Object.keys(update.values).length ? update.values : undefined,
          ReturnValues: 'ALL_NEW',
        }),
      );
      if (marked) await this.counted.finish(keys.link(before.id), marked);
      // A first key comes from the link item's count; clicks counted elsewhere, or meanwhile, move it on.
      if (item.gsi3sk === undefined && !('delete' in change)) await this.ranks?.refresh([before.id]);
      return result.Attributes ?? item;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      await this.counted.settle(keys.link(before.id));
      return 'conflict';
    }
  }
}

/**
 * What a change from `before` to `after` does to the counters and word items: what `before`
 * counted is taken back and what `after` counts is added, in one add per counter item, so a
 * flag change moves the link's cell in each of its counters and a comment change adds and
 * takes back only the word starts that came and went.
 */
function changeOp(
  before: Link,
  after: Link,
  state: { counted: boolean; ranked: boolean; rank: NativeAttributeValue },
  parts: CountedParts,
): CountedOp {
  const { counted, rank } = state;
  // Word items carry the flags, gsi14's partition and the expirationDate key: when those move, or gsi14 (or
  // gsi16–18) is new to the link, every word is written again. The link's mark holds them until they are
  // put, so a concurrent change (a comment, another date) waits for them and puts its own after.
  const flagsMoved =
    !counted ||
    !state.ranked ||
    before.status !== after.status ||
    before.moderatorStatus !== after.moderatorStatus ||
    before.expirationDate !== after.expirationDate;
  const counters: CounterAdd[] = mergedCounters([...(counted ? linkCounterAdds(before, -1, parts) : []), ...linkCounterAdds(after, 1)]);
  const had = new Set(counted ? commentWords(before.comment) : []);
  const has = new Set(commentWords(after.comment));
  return {
    counters,
    puts: wordItems(after, rank).filter((word) => flagsMoved || !had.has(String(word.sk).split('#')[0] ?? '')),
    deletes: [...had].filter((word) => !has.has(word)).map((word) => wordKey(before.accountId, word, before.createdAt, before.id)),
  };
}

/** An UpdateExpression built field by field, with its names and values. */
class Expression {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, NativeAttributeValue> = {};
  readonly #set: string[] = [];
  readonly #remove: string[] = [];

  set(field: string, value: NativeAttributeValue): void {
    this.#set.push(`${this.#name(field)} = ${this.#value(value)}`);
  }

  remove(field: string): void {
    this.#remove.push(this.#name(field));
  }

  /** A condition that the attribute is still what was read (absent included). */
  equalsRead(field: string, value: NativeAttributeValue): string {
    return value === undefined ? `attribute_not_exists(${this.#name(field)})` : `${this.#name(field)} = ${this.#value(value)}`;
  }

  isEmpty(): boolean {
    return this.#set.length === 0 && this.#remove.length === 0;
  }

  expression(): string {
    return [this.#set.length ? `SET ${this.#set.join(', ')}` : '', this.#remove.length ? `REMOVE ${this.#remove.join(', ')}` : '']
      .filter(Boolean)
      .join(' ');
  }

  #name(field: string): string {
    const name = `#${field}`;
    this.names[name] = field;
    return name;
  }

  #value(value: NativeAttributeValue): string {
    const name = `:v${Object.keys(this.values).length}`;
    this.values[name] = value;
    return name;
  }
}

/**
 * A link from its item and, when read, its click item (link-clicks.ts): its totals are what
 * the link item counted before the click item existed plus what the click item counts.
 */
export function fromItem(item: LinkItem, clicks?: LinkItem): Link {
  return {
    id: Number(item.id),
    accountId: Number(item.accountId),
    code: String(item.code),
    fullLink: String(item.fullLink),
    status: item.status === 0 ? 0 : 1,
    moderatorStatus: item.moderatorStatus === 0 ? 0 : 1,
    moderatorComment: item.moderatorComment ?? null,
    comment: item.comment ?? null,
    expirationDate: item.expirationDate ?? null,
    expiresAt: item.expiresAt ?? null,
    clickCnt: Number(item.clickCnt ?? 0) + Number(clicks?.clicks ?? 0),
    redirectCnt: Number(item.redirectCnt ?? 0) + Number(clicks?.redirects ?? 0),
    createdAt: String(item.createdAt),
    campaignId: item.campaignId ?? null,
    trackingCode: item.trackingCode ?? null,
  };
}
