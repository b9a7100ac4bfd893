import { GetCommand, type NativeAttributeValue, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Campaign, CampaignStatus } from '../domain/campaigns';
import type { CampaignStore } from '../domain/message-ports';
import { batchGetAll } from './batch';
import type { Store } from './client';
import { conditionally } from './conditional';
import { withoutNulls } from './items';
import { keys } from './keys';
import { MESSAGE_SCHEMA, MessageChanges } from './message-changes';

export class CampaignsRepository implements CampaignStore {
  private readonly messages: MessageChanges;

  constructor(
    private readonly store: Store,
    messages?: MessageChanges,
  ) {
    this.messages = messages ?? new MessageChanges(store);
  }

  async create(campaign: Campaign): Promise<void> {
    await this.store.db.send(
      new PutCommand({
        TableName: this.store.tableName,
        // Unset fields stay absent (not NULL), so `if_not_exists(sentAt, …)` can fill them later.
        Item: { ...keys.campaign(campaign.id), ...heldIndex(campaign), entity: 'Campaign', ...withoutNulls(campaign) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(id: number): Promise<Campaign | undefined> {
    const result = await this.store.db.send(new GetCommand({ TableName: this.store.tableName, Key: keys.campaign(id), ConsistentRead: true }));
    return result.Item ? fromItem(result.Item) : undefined;
  }

  async getMany(ids: number[]): Promise<Campaign[]> {
    return (
      await batchGetAll(
        this.store,
        ids.map((id) => keys.campaign(id)),
      )
    ).map(fromItem);
  }

  /**
   * Moves the campaign to `status` from one of `from`; with `sentAt`, also records it unless
   * already there. The campaign's status is copied onto its message (what the list's
   * campaign-status criterion reads), in a write of its own before the campaign's: a move
   * stopped between the two leaves the campaign where it was, so whatever retries the move
   * (the scheduler's send task, a repeated approval or decline, the next report) finds its
   * condition holding and writes both again; the copy is never behind the campaign. A move
   * refused meanwhile (the campaign moved elsewhere) puts the copy back to the campaign's status.
   */
  async move(id: number, from: CampaignStatus[], status: CampaignStatus, sentAt?: string): Promise<Campaign | undefined> {
    const before = await this.get(id);
    if (!before || !from.includes(before.status)) return undefined;
    await this.#copyStatus(before.messageId, status);
    const values: Record<string, NativeAttributeValue> = { ':status': status };
    if (sentAt !== undefined) values[':sentAt'] = sentAt;
    for (const [index, value] of from.entries()) values[`:from${index}`] = value;
    let updated: Campaign | undefined;
    await conditionally(async () => {
      const result = await this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: keys.campaign(id),
          // A campaign leaving MODERATION leaves the held index with the same write.
          UpdateExpression: `${sentAt === undefined ? 'SET #status = :status' : 'SET #status = :status, sentAt = if_not_exists(sentAt, :sentAt)'}${status === 'MODERATION' ? '' : ' REMOVE gsi1pk, gsi1sk'}`,
          ConditionExpression: `#status IN (${from.map((_, index) => `:from${index}`).join(', ')})`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      updated = result.Attributes && fromItem(result.Attributes);
    });
    if (!updated) {
      const now = await this.get(id);
      if (now) await this.#copyStatus(now.messageId, now.status);
    }
    return updated;
  }

  /** The first sending time stays: reports may finish a campaign in any order. */
  /** The message's copy of its campaign's status; nothing for a message not written yet (it is created with the campaign's). */
  async #copyStatus(messageId: number, status: CampaignStatus): Promise<void> {
    await this.messages.change(messageId, (item) =>
      item.campaignStatus === status && item.schema === MESSAGE_SCHEMA ? undefined : { campaignStatus: status },
    );
  }

  async noteSent(id: number, sentAt: string): Promise<void> {
    await conditionally(() =>
      this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: keys.campaign(id),
          UpdateExpression: 'SET sentAt = if_not_exists(sentAt, :sentAt)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':sentAt': sentAt },
        }),
      ),
    );
  }
}

/** The held index's keys for a campaign created in MODERATION; none otherwise. */
export function heldIndex(campaign: Pick<Campaign, 'status' | 'createdAt' | 'id'>): Record<string, string> {
  return campaign.status === 'MODERATION' ? keys.heldCampaignIndex(campaign.createdAt, campaign.id) : {};
}

export function fromItem(item: Record<string, NativeAttributeValue>): Campaign {
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
