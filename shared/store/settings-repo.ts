import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { conditionally } from './conditional';
import { keys } from './keys';

/** Service-wide values kept in the table so every process and function agrees on them. */
export class SettingsRepository {
  constructor(private readonly store: Store) {}

  /** The secret behind short-link codes if it exists yet; never writes. */
  existingLinkCodeSecret(): Promise<string | undefined> {
    return this.#get('link-code-secret');
  }

  /**
   * The secret behind short-link codes. Created once, by whichever process asks first
   * (a conditional put settles races); it must never change, or every code would move.
   */
  async linkCodeSecret(): Promise<string> {
    const existing = await this.#get('link-code-secret');
    if (existing) return existing;
    const fresh = randomBytes(32).toString('hex');
    const created = await conditionally(() =>
      this.store.db.send(
        new PutCommand({
          TableName: this.store.tableName,
          Item: { ...keys.setting('link-code-secret'), entity: 'Setting', value: fresh },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
    if (created) return fresh;
    const winner = await this.#get('link-code-secret');
    if (!winner) throw new Error('The link code secret vanished after a concurrent create');
    return winner;
  }

  /** Claims a one-time marker; true for the first caller only. */
  claimOnce(name: string, at: string): Promise<boolean> {
    return conditionally(() =>
      this.store.db.send(
        new PutCommand({
          TableName: this.store.tableName,
          Item: { ...keys.setting(name), entity: 'Setting', value: at },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  async put(name: string, value: string): Promise<void> {
    await this.store.db.send(new PutCommand({ TableName: this.store.tableName, Item: { ...keys.setting(name), entity: 'Setting', value } }));
  }

  /** One read of a fixed key, to learn whether the store answers; `signal` bounds the wait. */
  async ping(signal: AbortSignal): Promise<void> {
    await this.store.db.send(new GetCommand({ TableName: this.store.tableName, Key: keys.setting('health') }), { abortSignal: signal });
  }

  get(name: string): Promise<string | undefined> {
    return this.#get(name);
  }

  async #get(name: string): Promise<string | undefined> {
    const result = await this.store.db.send(new GetCommand({ TableName: this.store.tableName, Key: keys.setting(name), ConsistentRead: true }));
    return result.Item?.value as string | undefined;
  }
}
