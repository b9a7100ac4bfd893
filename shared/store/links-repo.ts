import { DeleteCommand, GetCommand, type NativeAttributeValue, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LinkChanges, LinkStore } from '../domain/link-service';
import type { Link, ModeratorStatus } from '../domain/links';
import { batchGetAll } from './batch';
import type { Store } from './client';
import { conditionally } from './conditional';
import { withoutNulls } from './items';
import { keys } from './keys';
import { queryAll } from './query';

type LinkItem = Record<string, NativeAttributeValue>;

/** The link is the caller's: it exists and belongs to the account. */
const OWNED_BY_ACCOUNT = 'attribute_exists(pk) AND accountId = :accountId';

export class LinksRepository implements LinkStore {
  constructor(private readonly store: Store) {}

  async create(link: Link): Promise<void> {
    await this.store.db.send(
      new PutCommand({
        TableName: this.store.tableName,
        Item: toItem(link),
        // Ids come from the allocator, so this only guards against a broken counter.
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  /** `consistent` for API reads right after writes; the redirect path reads eventually consistent (half the cost). */
  async get(id: number, options: { consistent?: boolean } = {}): Promise<Link | undefined> {
    const result = await this.store.db.send(
      new GetCommand({ TableName: this.store.tableName, Key: keys.link(id), ConsistentRead: options.consistent ?? true }),
    );
    return result.Item ? fromItem(result.Item) : undefined;
  }

  /** Links by id, in no particular order; missing ids are absent. */
  async getMany(ids: number[]): Promise<Link[]> {
    return (
      await batchGetAll(
        this.store,
        ids.map((id) => keys.link(id)),
      )
    ).map(fromItem);
  }

  /** Applies changes to the account's link; undefined when it has no such link. */
  update(accountId: number, id: number, changes: LinkChanges): Promise<Link | undefined> {
    return this.#change(id, changes, OWNED_BY_ACCOUNT, { ':accountId': accountId });
  }

  /** Deletes the account's link; false when it has no such link. */
  delete(accountId: number, id: number): Promise<boolean> {
    return conditionally(() =>
      this.store.db.send(
        new DeleteCommand({
          TableName: this.store.tableName,
          Key: keys.link(id),
          ConditionExpression: OWNED_BY_ACCOUNT,
          ExpressionAttributeValues: { ':accountId': accountId },
        }),
      ),
    );
  }

  /** Sets the moderator's verdict on any account's link; undefined when there is no such link. */
  moderate(id: number, moderatorStatus: ModeratorStatus, moderatorComment: string | null): Promise<Link | undefined> {
    return this.#change(id, { moderatorStatus, moderatorComment }, 'attribute_exists(pk)', {});
  }

  /**
   * One conditional UpdateItem that sets the given fields, removes those given as null,
   * and returns the new link; undefined when the condition does not hold.
   */
  async #change(
    id: number,
    changes: Record<string, NativeAttributeValue>,
    condition: string,
    conditionValues: Record<string, NativeAttributeValue>,
  ): Promise<Link | undefined> {
    const set: string[] = [];
    const remove: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, NativeAttributeValue> = { ...conditionValues };
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      names[`#${field}`] = field;
      if (value === null) remove.push(`#${field}`);
      else {
        set.push(`#${field} = :${field}`);
        values[`:${field}`] = value;
      }
    }
    // An update with nothing to change still has to prove its condition: it rewrites the entity type.
    if (set.length === 0 && remove.length === 0) {
      names['#entity'] = 'entity';
      values[':entity'] = 'Link';
      set.push('#entity = :entity');
    }
    const expression = [set.length ? `SET ${set.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : ''].filter(Boolean).join(' ');
    let updated: Link | undefined;
    await conditionally(async () => {
      const result = await this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: keys.link(id),
          UpdateExpression: expression,
          ConditionExpression: condition,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
          ReturnValues: 'ALL_NEW',
        }),
      );
      updated = result.Attributes && fromItem(result.Attributes);
    });
    return updated;
  }

  /**
   * Every link of the account, newest first, from the account's index partition.
   * Link/List filters and sorts these in memory (see LinkService.list).
   */
  async listByAccount(accountId: number): Promise<Link[]> {
    const items = await queryAll(this.store, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.accountLinks(accountId) },
      ScanIndexForward: false,
    });
    return items.map(fromItem);
  }
}

function toItem(link: Link): LinkItem {
  return {
    ...keys.link(link.id),
    ...keys.linkIndex(link.accountId, link.createdAt, link.id),
    entity: 'Link',
    ...withoutNulls(link),
  };
}

function fromItem(item: Record<string, NativeAttributeValue>): Link {
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
    clickCnt: Number(item.clickCnt ?? 0),
    redirectCnt: Number(item.redirectCnt ?? 0),
    createdAt: String(item.createdAt),
    campaignId: item.campaignId ?? null,
    trackingCode: item.trackingCode ?? null,
  };
}
