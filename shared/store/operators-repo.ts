import { GetCommand, type NativeAttributeValue, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry, AuditStore } from '../domain/audit';
import type { OperatorToken, OperatorTokenStore } from '../domain/operators';
import type { Store } from './client';
import { conditionally } from './conditional';
import { operatorKeys as keys } from './operator-keys';
import { queryAll } from './query';

/** Operator tokens by the hash of the token, as API keys are (accounts-repo.ts). */
export class OperatorTokensRepository implements OperatorTokenStore {
  constructor(private readonly store: Store) {}

  create(hash: string, token: OperatorToken): Promise<boolean> {
    return conditionally(() =>
      this.store.db.send(
        new PutCommand({
          TableName: this.store.tableName,
          Item: {
            ...keys.operatorToken(hash),
            ...keys.operatorTokenIndex(token.tokenId),
            entity: 'OperatorToken',
            tokenId: token.tokenId,
            name: token.name,
            prefix: token.prefix,
            createdAt: token.createdAt,
            // revokedAt stays absent until a revocation sets it (the revoke condition relies on that).
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  async findByHash(hash: string): Promise<OperatorToken | undefined> {
    const result = await this.store.db.send(new GetCommand({ TableName: this.store.tableName, Key: keys.operatorToken(hash), ConsistentRead: true }));
    return result.Item ? tokenFromItem(result.Item) : undefined;
  }

  async list(): Promise<(OperatorToken & { hash: string })[]> {
    const items = await queryAll(this.store, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.operatorTokens() },
    });
    return items.map((item) => ({ ...tokenFromItem(item), hash: String(item.pk).slice('OPERATOR#'.length) }));
  }

  revoke(hash: string, revokedAt: string): Promise<boolean> {
    return conditionally(() =>
      this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: keys.operatorToken(hash),
          UpdateExpression: 'SET revokedAt = :revokedAt',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
          ExpressionAttributeValues: { ':revokedAt': revokedAt },
        }),
      ),
    );
  }
}

/** The audit log: one partition, its sort key the entry's ULID, read newest first. */
export class AuditRepository implements AuditStore {
  constructor(private readonly store: Store) {}

  async record(entry: AuditEntry): Promise<void> {
    await this.store.db.send(
      new PutCommand({
        TableName: this.store.tableName,
        Item: { ...keys.auditEntry(entry.id), entity: 'AuditEntry', ...entry },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async list(limit: number, before?: string): Promise<AuditEntry[]> {
    // The partition holds entries only; '~' sorts after every ULID.
    const below = keys.auditEntry(before ?? '~').sk;
    const result = await this.store.db.send(
      new QueryCommand({
        TableName: this.store.tableName,
        KeyConditionExpression: 'pk = :pk AND sk < :below',
        ExpressionAttributeValues: { ':pk': keys.auditLog(), ':below': below },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (result.Items ?? []).map(entryFromItem);
  }
}

function tokenFromItem(item: Record<string, NativeAttributeValue>): OperatorToken {
  return {
    tokenId: String(item.tokenId),
    name: String(item.name),
    prefix: String(item.prefix),
    createdAt: String(item.createdAt),
    revokedAt: item.revokedAt ?? null,
  };
}

function entryFromItem(item: Record<string, NativeAttributeValue>): AuditEntry {
  const { pk: _pk, sk: _sk, entity: _entity, ...entry } = item;
  return entry as AuditEntry;
}
