import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { Campaign, CampaignStatus } from '../domain/campaigns';
import type { Store } from './client';
import { conditionally } from './conditional';
import { batchGetAll } from './batch';
import { keys } from './keys';
import { queryAll } from './query';

export class CampaignsRepository {
  constructor(private readonly store: Store) {}

  async create(campaign: Campaign): Promise<void> {
    await this.store.db.send(
      new PutCommand({
        TableName: this.store.tableName,
        Item: { ...keys.campaign(campaign.id), entity: 'Campaign', ...campaign },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(id: number): Promise<Campaign | undefined> {
    const result = await this.store.db.send(new GetCommand({ TableName: this.store.tableName, Key: keys.campaign(id), ConsistentRead: true }));
    return result.Item ? fromItem(result.Item) : undefined;
  }

  async getMany(ids: number[]): Promise<Campaign[]> {
    return (await batchGetAll(this.store, ids.map((id) => keys.campaign(id)))).map(fromItem);
  }

  /** Moves the campaign to `status` if it is in one of `from`; the updated campaign, or undefined. */
  async move(id: number, from: CampaignStatus[], status: CampaignStatus, extra: { sentAt?: string } = {}): Promise<Campaign | undefined> {
    const values: Record<string, NativeAttributeValue> = { ':status': status };
    from.forEach((value, index) => (values[`:from${index}`] = value));
    const sets = ['#status = :status'];
    if (extra.sentAt) {
      values[':sentAt'] = extra.sentAt;
      sets.push('sentAt = :sentAt');
    }
    let updated: Campaign | undefined;
    await conditionally(async () => {
      const result = await this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: keys.campaign(id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: `#status IN (${from.map((_, index) => `:from${index}`).join(', ')})`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      updated = fromItem(result.Attributes!);
    });
    return updated;
  }

  /** Records a deferred campaign under the minute it is due in. */
  async schedule(minute: string, campaignId: number, messageId: number): Promise<void> {
    await this.store.db.send(
      new PutCommand({ TableName: this.store.tableName, Item: { ...keys.scheduled(minute, campaignId), entity: 'Scheduled', campaignId, messageId } }),
    );
  }

  /** Campaigns due in one minute: one Query of that minute's partition, never a scan. */
  async dueIn(minute: string): Promise<{ campaignId: number; messageId: number }[]> {
    const items = await queryAll(this.store, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.scheduledAt(minute) } });
    return items.map((item) => ({ campaignId: Number(item.campaignId), messageId: Number(item.messageId) }));
  }

  async unschedule(minute: string, campaignId: number): Promise<void> {
    await this.store.db.send(new DeleteCommand({ TableName: this.store.tableName, Key: keys.scheduled(minute, campaignId) }));
  }
}

function fromItem(item: Record<string, NativeAttributeValue>): Campaign {
  return {
    id: Number(item.id),
    accountId: Number(item.accountId),
    messageId: Number(item.messageId),
    name: item.name ?? null,
    status: item.status as CampaignStatus,
    linkIds: (item.linkIds as number[] | undefined)?.map(Number) ?? [],
    createdAt: String(item.createdAt),
    sentAt: item.sentAt ?? null,
    deferredTo: item.deferredTo ?? null,
  };
}
