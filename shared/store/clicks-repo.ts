import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ClickStore } from '../domain/click-aggregator';
import { deltasOfPacked, type LinkDelta } from '../domain/click-batches';
import type { Counts } from '../domain/clicks';
import type { StatsType } from '../domain/stats';
import { utcMinuteOf } from '../domain/time';
import { conditionally } from './conditional';
import { keys } from './keys';
import { ClickBuckets, cellNames, MAX_CELL_TOUCHES } from './link-clicks';
import { queryAll } from './query';

/** This batch has not been applied to the item yet (the item keeps its last batch key). */
const NOT_APPLIED = 'attribute_not_exists(lastBatch) OR lastBatch <> :batch';
/** How long claimed batches are kept for redelivery checks (DynamoDB TTL deletes them). */
const CLAIM_RETENTION_SECONDS = 7 * 24 * 3600;
/** Bytes of a message fingerprint (messageFingerprint's 12 base64url characters). */
const FINGERPRINT_BYTES = 9;

/**
 * Click batches and the counts they add (docs/data-model.md): a batch's claim, a link's
 * click item (link-clicks.ts) and, for links clicked more than their click item holds,
 * bucket items. A batch's claim is written for every batch, so it is kept compact: its
 * message fingerprints as bytes and its events packed (packClicks), about 15 bytes a click.
 */
export class ClicksRepository extends ClickBuckets implements ClickStore {
  claimBatch(batchKey: string, fingerprints: string[], clicks: string, at: Date): Promise<boolean> {
    return conditionally(() =>
      this.store.db.send(
        new PutCommand({
          TableName: this.store.tableName,
          Item: {
            ...keys.clickBatch(batchKey),
            ...keys.clickBatchIndex(batchKey, utcMinuteOf(at)),
            entity: 'ClickBatch',
            // Fingerprints as bytes, end to end: the cheapest shape to write and to scan.
            messages: Buffer.concat(fingerprints.map((fingerprint) => Buffer.from(fingerprint, 'base64url'))),
            clicks,
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
    if (!result.Item) return undefined;
    // A claim written before events were packed holds its deltas (without the account, unknown there).
    if (result.Item.deltas !== undefined) return (JSON.parse(String(result.Item.deltas)) as LinkDelta[]).map((delta) => ({ ...delta, accountId: 0 }));
    return deltasOfPacked(String(result.Item.clicks));
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
      for (const item of items) for (const fingerprint of fingerprintsOf(item.messages)) fingerprints.set(fingerprint, String(item.gsi1sk));
    }
    return fingerprints;
  }

  /**
   * Adds a batch's delta to the link's click item: one UpdateItem, whatever the buckets,
   * while the item has room for their cells. When the condition fails, the item tells
   * whether this batch is there already or the item is full.
   */
  async addToClickItem(batchKey: string, delta: LinkDelta): Promise<'added' | 'full'> {
    const touches = delta.buckets.length;
    if (touches > MAX_CELL_TOUCHES) return 'full';
    const names: Record<string, string> = {};
    const values: Record<string, number | string> = { ':batch': batchKey, ':entity': 'LinkClicks', ':touches': touches };
    const adds = ['clicks', 'redirects', 'bots'].map((total) => {
      values[`:${total}`] = delta[total as 'clicks' | 'redirects' | 'bots'];
      return `${total} :${total}`;
    });
    adds.push('touches :touches');
    const cell = (name: string, value: number) => {
      const at = adds.length;
      names[`#a${at}`] = name;
      values[`:a${at}`] = value;
      adds.push(`#a${at} :a${at}`);
    };
    for (const [type, param, clicks, redirects] of delta.buckets) {
      const { clicks: clicksCell, redirects: redirectsCell } = cellNames(type, param);
      cell(clicksCell, clicks);
      if (redirects > 0) cell(redirectsCell, redirects);
    }
    values[':room'] = MAX_CELL_TOUCHES - touches;
    const added = await conditionally(() =>
      this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: keys.linkClicks(delta.linkId),
          UpdateExpression: `ADD ${adds.join(', ')} SET lastBatch = :batch, entity = :entity`,
          ConditionExpression: `(${NOT_APPLIED}) AND (attribute_not_exists(touches) OR touches <= :room)`,
          ExpressionAttributeNames: Object.keys(names).length > 0 ? names : undefined,
          ExpressionAttributeValues: values,
        }),
      ),
    );
    if (added) return 'added';
    const { Item: item } = await this.store.db.send(
      new GetCommand({
        TableName: this.store.tableName,
        Key: keys.linkClicks(delta.linkId),
        ConsistentRead: true,
        ProjectionExpression: 'lastBatch',
      }),
    );
    return item?.lastBatch === batchKey ? 'added' : 'full';
  }

  /**
   * Adds a batch's counts to a link's totals once (its click item's; its buckets go to
   * bucket items). A link deleted meanwhile keeps a click item no read looks at.
   */
  async addToLink(linkId: number, batchKey: string, counts: Counts & { bots: number }): Promise<void> {
    await conditionally(() =>
      this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: keys.linkClicks(linkId),
          UpdateExpression: 'ADD clicks :clicks, redirects :redirects, bots :bots SET lastBatch = :batch, entity = :entity',
          ConditionExpression: NOT_APPLIED,
          ExpressionAttributeValues: {
            ':clicks': counts.clicks,
            ':redirects': counts.redirects,
            ':bots': counts.bots,
            ':batch': batchKey,
            ':entity': 'LinkClicks',
          },
        }),
      ),
    );
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
}

/** The fingerprints of a claim's `messages`: bytes, or a comma-separated list in claims written before. */
function fingerprintsOf(messages: unknown): string[] {
  if (typeof messages === 'string') return messages.split(',');
  const bytes = Buffer.from(messages as Uint8Array);
  const fingerprints: string[] = [];
  for (let at = 0; at < bytes.length; at += FINGERPRINT_BYTES) fingerprints.push(bytes.subarray(at, at + FINGERPRINT_BYTES).toString('base64url'));
  return fingerprints;
}

function startOfMinute(at: Date): number {
  return Math.floor(at.getTime() / 60_000) * 60_000;
}
