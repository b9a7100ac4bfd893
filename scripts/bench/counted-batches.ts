import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { deltasOfPacked } from '../../shared/domain/click-batches';
import { utcMinuteOf } from '../../shared/domain/time';
import { ClicksRepository } from '../../shared/store/clicks-repo';
import type { Store } from '../../shared/store/client';
import { keys } from '../../shared/store/keys';
import { queryAll } from '../../shared/store/query';

/**
 * The clicks counted so far, from the click batches' claims: a claim packs its batch's
 * clicks, and they are in the links' totals once the batch's done marker is written
 * (after its counter writes). One claim stands for up to 1,000 clicks, so this can be
 * read every half second during a drain without slowing it, where reading every link's
 * totals (two items a link) would compete with the counting it waits for. Each batch's
 * claim is read once, when it is found done.
 */
export class CountedBatches {
  readonly #clicks: ClicksRepository;
  /** Clicks of each batch found done. */
  readonly #done = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly since: Date,
  ) {
    this.#clicks = new ClicksRepository(store);
  }

  async counted(now = new Date()): Promise<number> {
    for (let minute = Math.floor(this.since.getTime() / 60_000) * 60_000; minute <= now.getTime(); minute += 60_000) {
      const claims = await queryAll(this.store, {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.clickBatchesAt(utcMinuteOf(new Date(minute))) },
        ProjectionExpression: 'gsi1sk',
      });
      for (const claim of claims) {
        const batchKey = String(claim.gsi1sk);
        if (this.#done.has(batchKey) || !(await this.#clicks.isBatchDone(batchKey))) continue;
        const { Item: item } = await this.store.db.send(
          new GetCommand({ TableName: this.store.tableName, Key: keys.clickBatch(batchKey), ProjectionExpression: 'clicks' }),
        );
        this.#done.set(
          batchKey,
          deltasOfPacked(String(item?.clicks ?? '')).reduce((sum, delta) => sum + delta.clicks, 0),
        );
      }
    }
    let counted = 0;
    for (const clicks of this.#done.values()) counted += clicks;
    return counted;
  }
}
