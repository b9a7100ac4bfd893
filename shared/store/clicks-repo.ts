import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ClickStore } from '../domain/click-aggregator';
import type { Counts, LinkDelta } from '../domain/clicks';
import type { StatsType } from '../domain/stats';
import { utcMinuteOf } from '../domain/time';
import type { Store } from './client';
import { conditionally } from './conditional';
import { keys } from './keys';
import { CLICK_KEY_SCALE, LINK_SCHEMA } from './link-keys';
import { queryAll } from './query';

/** This batch has not been applied to the item yet (the item keeps its last batch key). */
const NOT_APPLIED = 'attribute_not_exists(lastBatch) OR lastBatch <> :batch';
/** How long claimed batches are kept for redelivery checks (DynamoDB TTL deletes them). */
const CLAIM_RETENTION_SECONDS = 7 * 24 * 3600;

export class ClicksRepository implements ClickStore {
  constructor(private readonly store: Store) {}

  claimBatch(batchKey: string, fingerprints: string[], deltas: LinkDelta[], at: Date): Promise<boolean> {
    return conditionally(() =>
      this.store.db.send(
        new PutCommand({
          TableName: this.store.tableName,
          Item: {
            ...keys.clickBatch(batchKey),
            ...keys.clickBatchIndex(batchKey, utcMinuteOf(at)),
            entity: 'ClickBatch',
            // Fingerprints joined in one string: the cheapest shape to write and to scan.
            messages: fingerprints.join(','),
            deltas: JSON.stringify(deltas),
            claimedAt: at.toISOString(),
            ttl: Math.floor(at.getTime() / 1000) + CLAIM_RETENTION_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  async claimedDeltas(batchKey: string): Promise<LinkDelta[] | undefined> {
    const result = await this.store.db.send(
      new GetCommand({ TableName: this.store.tableName, Key: keys.clickBatch(batchKey), ConsistentRead: true }),
    );
    return result.Item ? (JSON.parse(String(result.Item.deltas)) as LinkDelta[]) : undefined;
  }

  async isBatchDone(batchKey: string): Promise<boolean> {
    const result = await this.store.db.send(
      new GetCommand({ TableName: this.store.tableName, Key: keys.clickBatchDone(batchKey), ConsistentRead: true }),
    );
    return result.Item !== undefined;
  }

  async markBatchDone(batchKey: string, at: Date): Promise<void> {
    await this.store.db.send(
      new PutCommand({
        TableName: this.store.tableName,
        Item: { ...keys.clickBatchDone(batchKey), entity: 'ClickBatchDone', ttl: Math.floor(at.getTime() / 1000) + CLAIM_RETENTION_SECONDS },
      }),
    );
  }

  async claimedSince(since: Date, now: Date): Promise<Map<string, string>> {
    const fingerprints = new Map<string, string>();
    for (let minute = startOfMinute(since); minute <= now.getTime(); minute += 60_000) {
      const items = await queryAll(this.store, {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.clickBatchesAt(utcMinuteOf(new Date(minute))) },
        ProjectionExpression: 'messages, gsi1sk',
      });
      for (const item of items) for (const fingerprint of String(item.messages).split(',')) fingerprints.set(fingerprint, String(item.gsi1sk));
    }
    return fingerprints;
  }

  /**
   * Adds a batch's counts to a link once. A schema-2 link's gsi3sk (clicks × 10^15 + id)
   * moves in the same UpdateItem, so the clickCnt order follows the count atomically; a
   * link written before schema 2 gets its key from the migration. The two conditions say
   * which write applies; when neither does (a migration in between), the link is read to
   * tell "already applied or gone" from "try again".
   */
  async addToLink(linkId: number, batchKey: string, counts: Counts & { bots: number }): Promise<void> {
    const values = { ':clicks': counts.clicks, ':redirects': counts.redirects, ':bots': counts.bots, ':batch': batchKey };
    const add = (moveKey: boolean) =>
      conditionally(() =>
        this.store.db.send(
          new UpdateCommand({
            TableName: this.store.tableName,
            Key: keys.link(linkId),
            UpdateExpression: `ADD clickCnt :clicks, redirectCnt :redirects, botCnt :bots${moveKey ? ', gsi3sk :key' : ''} SET lastBatch = :batch`,
            // A deleted link is not brought back as a bare counter item.
            ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(deleted) AND (${NOT_APPLIED}) AND ${moveKey ? '#schema = :schema' : 'attribute_not_exists(#schema)'}`,
            ExpressionAttributeNames: { '#schema': 'schema' },
            ExpressionAttributeValues: moveKey ? { ...values, ':key': BigInt(counts.clicks) * CLICK_KEY_SCALE, ':schema': LINK_SCHEMA } : values,
          }),
        ),
      );
    for (;;) {
      if ((await add(true)) || (await add(false))) return;
      const { Item: link } = await this.store.db.send(
        new GetCommand({ TableName: this.store.tableName, Key: keys.link(linkId), ConsistentRead: true }),
      );
      if (!link || link.deleted || link.lastBatch === batchKey) return;
    }
  }

  async addToBucket(linkId: number, type: StatsType, param: string, batchKey: string, counts: Counts): Promise<void> {
    await conditionally(() =>
      this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: keys.clickBucket(linkId, type, param),
          UpdateExpression: 'ADD clicks :clicks, redirects :redirects SET lastBatch = :batch, entity = :entity',
          ConditionExpression: NOT_APPLIED,
          ExpressionAttributeValues: { ':clicks': counts.clicks, ':redirects': counts.redirects, ':batch': batchKey, ':entity': 'ClickBucket' },
        }),
      ),
    );
  }

  /** A link's buckets of one type from `fromParam` to `toParam` inclusive, by param. */
  async buckets(linkId: number, type: StatsType, fromParam: string, toParam: string): Promise<Map<string, Counts>> {
    const { pk } = keys.link(linkId);
    const result = new Map<string, Counts>();
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.store.db.send(
        new QueryCommand({
          TableName: this.store.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': pk,
            ':from': keys.clickBucket(linkId, type, fromParam).sk,
            ':to': keys.clickBucket(linkId, type, toParam).sk,
          },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        result.set(String(item.sk).slice(`STATS#${type}#`.length), { clicks: Number(item.clicks ?? 0), redirects: Number(item.redirects ?? 0) });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return result;
  }
}

function startOfMinute(at: Date): number {
  return Math.floor(at.getTime() / 60_000) * 60_000;
}
