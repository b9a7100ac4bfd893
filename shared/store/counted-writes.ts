import { BatchGetCommand, DeleteCommand, GetCommand, type NativeAttributeValue, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { conditionally } from './conditional';
import type { Key } from './keys';

// Stand-in for the counted-writes contract, replaced by the real module on merge.
export type Item = Record<string, NativeAttributeValue>;
export interface CounterAdd {
  key: Key;
  add: Record<string, number>;
}
export interface CountedOp {
  counters: CounterAdd[];
  puts?: Item[];
  deletes?: Key[];
  deleteEntity?: boolean;
}
export interface Marked {
  opId: string;
  set: Record<string, NativeAttributeValue>;
  condition: string;
}

export class CountedWrites {
  constructor(
    private readonly store: Store,
    private readonly newOpId: () => string,
  ) {}

  mark(op: CountedOp): Marked {
    const opId = this.newOpId();
    return { opId, set: { cntOp: opId, cntOpData: JSON.stringify(op) }, condition: 'attribute_not_exists(cntOp)' };
  }

  async finish(entityKey: Key, marked: Marked): Promise<void> {
    const op = JSON.parse(String(marked.set.cntOpData)) as CountedOp;
    const { tableName, db } = this.store;
    for (const counter of op.counters) {
      const names = Object.keys(counter.add);
      if (names.length === 0) continue;
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: counter.key,
          UpdateExpression: `ADD ${names.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#c${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:c${i}`, counter.add[name]])),
        }),
      );
    }
    for (const item of op.puts ?? []) await db.send(new PutCommand({ TableName: tableName, Item: item }));
    for (const key of op.deletes ?? []) await db.send(new DeleteCommand({ TableName: tableName, Key: key }));
    await conditionally(() =>
      db.send(
        op.deleteEntity
          ? new DeleteCommand({
              TableName: tableName,
              Key: entityKey,
              ConditionExpression: 'cntOp = :op',
              ExpressionAttributeValues: { ':op': marked.opId },
            })
          : new UpdateCommand({
              TableName: tableName,
              Key: entityKey,
              UpdateExpression: 'REMOVE cntOp, cntOpData',
              ConditionExpression: 'cntOp = :op',
              ExpressionAttributeValues: { ':op': marked.opId },
            }),
      ),
    );
  }

  async settle(entityKey: Key): Promise<boolean> {
    const { Item } = await this.store.db.send(new GetCommand({ TableName: this.store.tableName, Key: entityKey, ConsistentRead: true }));
    if (!Item?.cntOp) return false;
    await this.finish(entityKey, { opId: String(Item.cntOp), set: { cntOp: Item.cntOp, cntOpData: Item.cntOpData }, condition: '' });
    return true;
  }

  async recover(_ageMs: number): Promise<number> {
    return 0;
  }

  async read(counterKeys: Key[], consistent = false): Promise<Record<string, number>[]> {
    if (counterKeys.length === 0) return [];
    const result = await this.store.db.send(
      new BatchGetCommand({ RequestItems: { [this.store.tableName]: { Keys: counterKeys, ConsistentRead: consistent } } }),
    );
    const found = result.Responses?.[this.store.tableName] ?? [];
    return counterKeys.map((key) => {
      const item = found.find((candidate) => candidate.pk === key.pk && candidate.sk === key.sk) ?? {};
      return Object.fromEntries(Object.entries(item).filter(([, value]) => typeof value === 'number')) as Record<string, number>;
    });
  }
}
