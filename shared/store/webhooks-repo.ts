import { DeleteCommand, GetCommand, type NativeAttributeValue, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Webhook, WebhookEvent, WebhookStore } from '../domain/webhooks';
import type { Store } from './client';
import { conditionally } from './conditional';
import { keys } from './keys';
import { queryAll } from './query';

/** Events are kept 30 days after they are made (DynamoDB TTL), then go by themselves. */
const EVENT_RETENTION_SECONDS = 30 * 24 * 3600;

/** Webhooks (in their account's partition) and their events (one item each). */
export class WebhooksRepository implements WebhookStore {
  constructor(private readonly store: Store) {}

  async addWebhook(webhook: Webhook): Promise<void> {
    await this.store.db.send(
      new PutCommand({ TableName: this.store.tableName, Item: { ...keys.webhook(webhook.accountId, webhook.id), entity: 'Webhook', ...webhook } }),
    );
  }

  async listWebhooks(accountId: number): Promise<Webhook[]> {
    const items = await queryAll(this.store, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.webhook(accountId, '').pk, ':prefix': 'WEBHOOK#' },
    });
    return items.map((item) => ({
      id: String(item.id),
      accountId: Number(item.accountId),
      url: String(item.url),
      secret: String(item.secret),
      createdAt: String(item.createdAt),
    }));
  }

  removeWebhook(accountId: number, id: string): Promise<boolean> {
    return conditionally(() =>
      this.store.db.send(
        new DeleteCommand({ TableName: this.store.tableName, Key: keys.webhook(accountId, id), ConditionExpression: 'attribute_exists(pk)' }),
      ),
    );
  }

  async createEvent(event: WebhookEvent): Promise<boolean> {
    return conditionally(() =>
      this.store.db.send(
        new PutCommand({
          TableName: this.store.tableName,
          Item: {
            ...keys.webhookEvent(event.eventId),
            entity: 'WebhookEvent',
            ...event,
            ttl: Math.floor(Date.now() / 1000) + EVENT_RETENTION_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  async getEvent(eventId: string): Promise<WebhookEvent | undefined> {
    const result = await this.store.db.send(
      new GetCommand({ TableName: this.store.tableName, Key: keys.webhookEvent(eventId), ConsistentRead: true }),
    );
    const item = result.Item;
    if (!item) return undefined;
    return {
      eventId: String(item.eventId),
      webhookId: String(item.webhookId),
      accountId: Number(item.accountId),
      url: String(item.url),
      secret: String(item.secret),
      eventCreateTs: String(item.eventCreateTs),
      data: item.data as WebhookEvent['data'],
      attempts: Number(item.attempts),
      state: item.state as WebhookEvent['state'],
      nextAttemptAt: String(item.nextAttemptAt),
      ...(item.lastError ? { lastError: String(item.lastError) } : {}),
    };
  }

  claimAttempt(eventId: string, seen: number, now: Date, nextAttemptAt: Date): Promise<boolean> {
    return conditionally(() =>
      this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: keys.webhookEvent(eventId),
          UpdateExpression: 'SET attempts = :next, nextAttemptAt = :later',
          ConditionExpression: '#state = :pending AND attempts = :seen AND nextAttemptAt <= :now',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':next': seen + 1,
            ':seen': seen,
            ':pending': 'pending',
            ':now': now.toISOString(),
            ':later': nextAttemptAt.toISOString(),
          },
        }),
      ),
    );
  }

  async finish(eventId: string, state: 'delivered' | 'failed', error?: string): Promise<void> {
    const values: Record<string, NativeAttributeValue> = { ':state': state };
    if (error !== undefined) values[':error'] = error;
    await this.store.db.send(
      new UpdateCommand({
        TableName: this.store.tableName,
        Key: keys.webhookEvent(eventId),
        UpdateExpression: error === undefined ? 'SET #state = :state' : 'SET #state = :state, lastError = :error',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: values,
      }),
    );
  }

  async noteFailure(eventId: string, error: string): Promise<void> {
    await this.store.db.send(
      new UpdateCommand({
        TableName: this.store.tableName,
        Key: keys.webhookEvent(eventId),
        UpdateExpression: 'SET lastError = :error',
        ExpressionAttributeValues: { ':error': error },
      }),
    );
  }
}
