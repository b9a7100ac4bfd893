import { type NativeAttributeValue, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Campaign } from '../domain/campaigns';
import { fromItem } from './campaigns-repo';
import type { Store } from './client';
import { keys } from './keys';

/**
 * Campaigns held in MODERATION across accounts, from the sparse held index on gsi1
 * (keys.heldCampaignIndex: a campaign carries it only while held). Apart from
 * CampaignsRepository so that only the operator API's functions carry it.
 */
export class HeldCampaigns {
  constructor(private readonly store: Store) {}

  /** Page `page` (from 0) of `pageSize`, oldest first, and how many are held. */
  async list(page: number, pageSize: number): Promise<{ items: Campaign[]; totalItemCount: number }> {
    const held = {
      TableName: this.store.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.heldCampaigns() },
    };
    let totalItemCount = 0;
    let startKey: Record<string, NativeAttributeValue> | undefined;
    do {
      const counted = await this.store.db.send(new QueryCommand({ ...held, Select: 'COUNT', ExclusiveStartKey: startKey }));
      totalItemCount += counted.Count ?? 0;
      startKey = counted.LastEvaluatedKey;
    } while (startKey);
    // Few are held at a time (they wait for a person), so a page reads the entries before it.
    const items: Record<string, NativeAttributeValue>[] = [];
    startKey = undefined;
    do {
      const read: QueryCommandOutput = await this.store.db.send(
        new QueryCommand({ ...held, Limit: (page + 1) * pageSize - items.length, ExclusiveStartKey: startKey }),
      );
      items.push(...(read.Items ?? []));
      startKey = read.LastEvaluatedKey;
    } while (startKey && items.length < (page + 1) * pageSize);
    return { items: items.slice(page * pageSize).map(fromItem), totalItemCount };
  }
}
