import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { keys } from './keys';

/**
 * Hands out unique integer ids from a counter item without touching it per id: each
 * container reserves a block with one atomic ADD and serves ids from it. The block
 * grows while the container drains blocks quickly and shrinks again when it is idle, so
 * a quiet container burns few ids and a busy one rarely writes the counter.
 */
export class IdAllocator {
  readonly #store: Store;
  readonly #counter: string;
  readonly #maxBlock: number;
  #next = 0;
  #end = 0; // exclusive
  #blockSize = 1;
  #lastReservedAt = 0;
  #pending: Promise<void> | undefined;

  constructor(store: Store, counter: string, options: { maxBlock?: number } = {}) {
    this.#store = store;
    this.#counter = counter;
    this.#maxBlock = options.maxBlock ?? 256;
  }

  async next(): Promise<number> {
    while (this.#next >= this.#end) {
      // Concurrent callers share one reservation instead of each reserving a block.
      this.#pending ??= this.#reserve().finally(() => {
        this.#pending = undefined;
      });
      await this.#pending;
    }
    return this.#next++;
  }

  async #reserve(): Promise<void> {
    const now = Date.now();
    const drainedFast = now - this.#lastReservedAt < 1000;
    this.#blockSize = drainedFast ? Math.min(this.#blockSize * 2, this.#maxBlock) : 1;
    this.#lastReservedAt = now;
    const result = await this.#store.db.send(
      new UpdateCommand({
        TableName: this.#store.tableName,
        Key: keys.counter(this.#counter),
        UpdateExpression: 'ADD #value :block SET entity = :entity',
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: { ':block': this.#blockSize, ':entity': 'Counter' },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const last = Number(result.Attributes?.value);
    this.#next = last - this.#blockSize + 1;
    this.#end = last + 1;
  }
}
