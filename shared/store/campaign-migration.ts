import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { conditionally } from './conditional';
import { keys } from './keys';
import type { ItemUpgrade } from './migration';

/**
 * A Campaign held in MODERATION by a version before the held index (`admin migrate`) gets
 * the index's keys, so the operator API lists it with the ones held since. The write's
 * condition is the state read: a campaign decided meanwhile is reported 'changed', read
 * again and skipped (it is held no more); one that has the keys is skipped.
 */
export function campaignUpgrade(store: Store): ItemUpgrade {
  return {
    entity: 'Campaign',
    // Those the check below does not skip: held, without the index's keys.
    candidates: {
      expression: '#status = :held AND attribute_not_exists(gsi1pk)',
      names: { '#status': 'status' },
      values: { ':held': 'MODERATION' },
    },
    async upgrade(item) {
      if (item.status !== 'MODERATION' || item.gsi1pk !== undefined) return 'skipped';
      const index = keys.heldCampaignIndex(String(item.createdAt), Number(item.id));
      const written = await conditionally(() =>
        store.db.send(
          new UpdateCommand({
            TableName: store.tableName,
            Key: keys.campaign(Number(item.id)),
            UpdateExpression: 'SET gsi1pk = :pk, gsi1sk = :sk',
            ConditionExpression: '#status = :held AND attribute_not_exists(gsi1pk)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':pk': index.gsi1pk, ':sk': index.gsi1sk, ':held': 'MODERATION' },
          }),
        ),
      );
      return written ? 'upgraded' : 'changed';
    },
  };
}
