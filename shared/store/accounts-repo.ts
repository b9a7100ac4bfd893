import { GetCommand, type NativeAttributeValue, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Account, type ApiKey, EMPTY_SENDING_SETTINGS } from '../domain/accounts';
import type { Store } from './client';
import { conditionally } from './conditional';
import { keys } from './keys';
import { queryAll } from './query';

export class AccountsRepository {
  constructor(private readonly store: Store) {}

  async create(account: Account): Promise<void> {
    await this.store.db.send(
      new PutCommand({
        TableName: this.store.tableName,
        Item: { ...keys.account(account.id), ...keys.accountsIndex(account.id), entity: 'Account', ...account },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(id: number): Promise<Account | undefined> {
    const result = await this.store.db.send(new GetCommand({ TableName: this.store.tableName, Key: keys.account(id) }));
    return result.Item ? accountFromItem(result.Item) : undefined;
  }

  async list(): Promise<Account[]> {
    const items = await queryAll(this.store, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.allAccounts() },
    });
    return items.map(accountFromItem);
  }

  /** Changes settings of an existing account; false when there is no such account. */
  update(id: number, changes: Partial<Pick<Account, 'name' | 'timeZone' | 'currency' | 'status' | 'sending' | 'rateLimit'>>): Promise<boolean> {
    const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
    if (entries.length === 0) return this.get(id).then(Boolean);
    return conditionally(() =>
      this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: keys.account(id),
          UpdateExpression: `SET ${entries.map(([field]) => `#${field} = :${field}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries(entries.map(([field]) => [`#${field}`, field])),
          ExpressionAttributeValues: Object.fromEntries(entries.map(([field, value]) => [`:${field}`, value])),
        }),
      ),
    );
  }
}

export class ApiKeysRepository {
  constructor(private readonly store: Store) {}

  /** Stores a key by its hash; false when that hash is already stored. */
  create(hash: string, apiKey: ApiKey): Promise<boolean> {
    return conditionally(() =>
      this.store.db.send(
        new PutCommand({
          TableName: this.store.tableName,
          Item: {
            ...keys.apiKey(hash),
            ...keys.apiKeyIndex(apiKey.accountId, apiKey.keyId),
            entity: 'ApiKey',
            keyId: apiKey.keyId,
            accountId: apiKey.accountId,
            prefix: apiKey.prefix,
            createdAt: apiKey.createdAt,
            // revokedAt stays absent until a revocation sets it (the revoke condition relies on that).
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  async findByHash(hash: string): Promise<ApiKey | undefined> {
    const result = await this.store.db.send(new GetCommand({ TableName: this.store.tableName, Key: keys.apiKey(hash) }));
    return result.Item ? apiKeyFromItem(result.Item) : undefined;
  }

  async listByAccount(accountId: number): Promise<(ApiKey & { hash: string })[]> {
    const items = await queryAll(this.store, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.accountApiKeys(accountId) },
    });
    return items.map((item) => ({ ...apiKeyFromItem(item), hash: String(item.pk).slice('APIKEY#'.length) }));
  }

  /** Marks a key revoked; false when it is unknown or already revoked. */
  revoke(hash: string, revokedAt: string): Promise<boolean> {
    return conditionally(() =>
      this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: keys.apiKey(hash),
          UpdateExpression: 'SET revokedAt = :revokedAt',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
          ExpressionAttributeValues: { ':revokedAt': revokedAt },
        }),
      ),
    );
  }
}

function accountFromItem(item: Record<string, NativeAttributeValue>): Account {
  return {
    id: Number(item.id),
    name: String(item.name),
    timeZone: String(item.timeZone),
    currency: String(item.currency),
    status: item.status === 'blocked' ? 'blocked' : 'active',
    createdAt: String(item.createdAt),
    // Accounts stored before sending settings existed read as having none.
    sending: { ...EMPTY_SENDING_SETTINGS, ...(item.sending ?? {}) },
    // Absent (accounts stored before limits existed) or null: the default limit.
    rateLimit: typeof item.rateLimit === 'number' ? item.rateLimit : null,
  };
}

function apiKeyFromItem(item: Record<string, NativeAttributeValue>): ApiKey {
  return {
    keyId: String(item.keyId),
    accountId: Number(item.accountId),
    prefix: String(item.prefix),
    createdAt: String(item.createdAt),
    revokedAt: item.revokedAt ?? null,
  };
}
