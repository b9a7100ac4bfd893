import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { LinkPage } from '../domain/link-listing';
import type { LinkChanges, LinkListQuery, LinkStore } from '../domain/link-service';
import type { Link, ModeratorStatus } from '../domain/links';
import type { Store } from './client';
import { type CountedOp, CountedWrites } from './counted-writes';
import { withoutNulls } from './items';
import { keys } from './keys';
import { readLinks, withClickItems } from './link-clicks';
import { linkCounterAdds } from './link-counts';
import { linkIndexAttributes, wordItems } from './link-keys';
import { fromItem, type LinkItem, LinkWrites } from './link-writes';
import { queryAll } from './query';

/**
 * Links, with their index attributes, comment words and counts (docs/data-model.md, 4.1
 * and 4.3): a creation is one conditional Put, every change one conditional UpdateItem of
 * what changes (link-writes.ts), each counted through CountedWrites. A deleted link leaves
 * the indexes at once and is absent to every read until its counted delete removes it.
 */
/** Link/List's answer from the indexes. */
export interface LinkLister {
  list(accountId: number, query: LinkListQuery): Promise<LinkPage>;
}

export class LinksRepository implements LinkStore {
  readonly #counted: CountedWrites;
  readonly #writes: LinkWrites;
  readonly #lists: LinkLister | undefined;

  /**
   * `counted`: the runtime's; a read-only user (the redirect) may leave it to this one.
   * `lists`: Link/List's reader (link-lists.ts), given only where Link/List is answered, so
   * that the other functions' bundles do without it (IndexedLinksRepository gives it).
   */
  constructor(
    private readonly store: Store,
    counted?: CountedWrites,
    lists?: (store: Store, counted: CountedWrites) => LinkLister,
  ) {
    this.#counted = counted ?? new CountedWrites(store, ulid);
    this.#writes = new LinkWrites(store, this.#counted);
    this.#lists = lists?.(store, this.#counted);
  }

  async create(link: Link): Promise<void> {
    const { item, op } = linkCreation(link);
    const marked = this.#counted.mark(op);
    await this.store.db.send(
      new PutCommand({
        TableName: this.store.tableName,
        Item: { ...item, ...marked.set },
        // Ids come from the allocator, so this only guards against a broken counter.
        ConditionExpression: `attribute_not_exists(pk) AND ${marked.condition}`,
      }),
    );
    await this.#counted.finish(keys.link(link.id), marked);
  }

  /**
   * The link with its totals: its item and its click item, side by side in the partition,
   * in one Query (`#CLICKS` sorts just before `#LINK`, the buckets after both); with
   * `counts: false` (the redirect, ownership checks) the link item alone, one GetItem, its
   * counts left as the item has them. `consistent` for API reads right after writes; the
   * redirect path reads eventually consistent (half the cost).
   */
  async get(id: number, options: { consistent?: boolean; counts?: boolean } = {}): Promise<Link | undefined> {
    const ConsistentRead = options.consistent ?? true;
    if (options.counts === false) {
      const { Item: link } = await this.store.db.send(new GetCommand({ TableName: this.store.tableName, Key: keys.link(id), ConsistentRead }));
      return link && !link.deleted ? fromItem(link) : undefined;
    }
    const result = await this.store.db.send(
      new QueryCommand({
        TableName: this.store.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :clicks AND :link',
        ExpressionAttributeValues: { ':pk': keys.link(id).pk, ':clicks': keys.linkClicks(id).sk, ':link': keys.link(id).sk },
        ConsistentRead,
      }),
    );
    const items = result.Items ?? [];
    const link = items.find((item) => item.sk === keys.link(id).sk);
    return link && !link.deleted
      ? fromItem(
          link,
          items.find((item) => item.sk === keys.linkClicks(id).sk),
        )
      : undefined;
  }

  /** Links by id with their totals, in no particular order; missing and deleted ids are absent. */
  async getMany(ids: number[]): Promise<Link[]> {
    return [...(await readLinks(this.store, ids)).values()];
  }

  /** Applies changes to the account's link; undefined when it has no such link. */
  async update(accountId: number, id: number, changes: LinkChanges): Promise<Link | undefined> {
    const written = await this.#writes.change(id, (link) => (link.accountId === accountId ? { to: applied(link, changes) } : undefined));
    return written && this.#withClicks(written);
  }

  /** Deletes the account's link; false when it has no such link. */
  async delete(accountId: number, id: number): Promise<boolean> {
    const written = await this.#writes.change(id, (link) => (link.accountId === accountId ? { delete: true } : undefined));
    return written !== undefined;
  }

  /** Sets the moderator's verdict on any account's link; undefined when there is no such link. */
  async moderate(id: number, moderatorStatus: ModeratorStatus, moderatorComment: string | null): Promise<Link | undefined> {
    const written = await this.#writes.change(id, (link) => ({ to: applied(link, { moderatorStatus, moderatorComment }) }));
    return written && this.#withClicks(written);
  }

  /** Link/List from the indexes (link-lists.ts). */
  list(accountId: number, query: LinkListQuery): Promise<LinkPage> {
    if (!this.#lists) throw new Error('Link/List is not answered by this function');
    return this.#lists.list(accountId, query);
  }

  /** Every link of the account, newest first, from the account's gsi1 partition (for tools; Link/List reads by page). */
  async listByAccount(accountId: number): Promise<Link[]> {
    const items = await queryAll(this.store, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.accountLinks(accountId) },
      ScanIndexForward: false,
    });
    return withClickItems(this.store, items);
  }

  /** A link just written, with its totals (the click item is read: the write returned the link item only). */
  async #withClicks(item: LinkItem): Promise<Link> {
    const clicks = await this.store.db.send(
      new GetCommand({ TableName: this.store.tableName, Key: keys.linkClicks(Number(item.id)), ConsistentRead: true }),
    );
    return fromItem(item, clicks.Item);
  }
}

/** The link with the changes: undefined leaves a field, null clears it. */
function applied(link: Link, changes: Partial<Link>): Link {
  const next = { ...link };
  for (const [field, value] of Object.entries(changes)) if (value !== undefined) Object.assign(next, { [field]: value });
  return next;
}

/** A new link's item: its fields, every index attribute and the schema marker. */
/** What a link's creation writes: the item, and its counted change (counters and comment words). */
export function linkCreation(link: Link): { item: LinkItem; op: CountedOp } {
  return { item: toItem(link), op: { counters: linkCounterAdds(link, 1), puts: wordItems(link) } };
}

export function toItem(link: Link): LinkItem {
  return {
    ...keys.link(link.id),
    entity: 'Link',
    ...withoutNulls(link),
    ...linkIndexAttributes(link),
  };
}
