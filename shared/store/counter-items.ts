import { BatchGetCommand, type BatchGetCommandOutput, type NativeAttributeValue, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { conditionally } from './conditional';
import { type Key, keys } from './keys';
import { queryAll } from './query';

/** Cells to add to one counter item; cell names are any string but `pk`, `sk`, `entity`, `ops`. */
export interface CounterAdd {
  key: Key;
  add: Record<string, number>;
}

/**
 * The counter items of counted writes (shared/store/counted-writes.ts): cells of numbers,
 * plus `ops`, the string set of the changes already added to them, which makes each
 * change's ADD happen once however often it is tried.
 */
export type Cells = Record<string, number>;

/** Attributes of a counter item that are not cells. */
export const BOOKKEEPING = new Set(['pk', 'sk', 'entity', 'ops', 'rv' /* a day item's roll-up version, day-rollups.ts */]);
const ENTITY = 'Count';

export interface CounterState {
  cells: Cells;
  /** Ids of the changes added to it and not yet forgotten. */
  ops: string[];
}

/**
 * Adds the cells once for change `opId`. Returns the ids the item's set holds afterwards,
 * or undefined when the change was added before (its id is in the set).
 */
export async function addOnce(store: Store, key: Key, add: Cells, opId: string): Promise<string[] | undefined> {
  const names: Record<string, string> = {};
  const values: Record<string, NativeAttributeValue> = { ':op': opId, ':opSet': new Set([opId]), ':entity': ENTITY };
  const adds = Object.entries(add).map(([cell, delta], i) => {
    names[`#c${i}`] = cell;
    values[`:d${i}`] = delta;
    return `#c${i} :d${i}`;
  });
  let ops: string[] | undefined;
  await conditionally(async () => {
    const result = await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: key,
        UpdateExpression: `ADD ${[...adds, 'ops :opSet'].join(', ')} SET entity = :entity`,
        // Already in the set: this change was added here before (a retry, or a crash after it).
        ConditionExpression: 'attribute_not_exists(ops) OR NOT contains(ops, :op)',
        ...(adds.length > 0 ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    ops = [...((result.Attributes?.ops as Set<string> | undefined) ?? [])];
  });
  return ops;
}

/** Takes change ids out of a counter item's set (no-op for ids not in it, or a missing item). */
export async function forget(store: Store, key: Key, opIds: string[]): Promise<void> {
  if (opIds.length === 0) return;
  await conditionally(() =>
    store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: key,
        UpdateExpression: 'DELETE ops :ids',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':ids': new Set(opIds) },
      }),
    ),
  );
}

/** Whether a change is still marked on some entity, as gsi12 shows it. */
export async function isPending(store: Store, opId: string): Promise<boolean> {
  const { gsi12pk, gsi12sk } = keys.countedPending(opId);
  const result = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: 'gsi12',
      KeyConditionExpression: 'gsi12pk = :pk AND gsi12sk = :sk',
      ExpressionAttributeValues: { ':pk': gsi12pk, ':sk': gsi12sk },
      Limit: 1,
    }),
  );
  return (result.Items?.length ?? 0) > 0;
}

/** Entities (their keys) whose counted change is older than `before` (a ULID time prefix), in one shard. */
export async function pendingBefore(store: Store, shard: number, before: string): Promise<{ key: Key; opId: string }[]> {
  const entries = await queryAll(store, {
    IndexName: 'gsi12',
    KeyConditionExpression: 'gsi12pk = :pk AND gsi12sk < :before',
    ExpressionAttributeValues: { ':pk': keys.countedPendingShard(shard), ':before': before },
  });
  return entries.map((entry) => ({ key: { pk: entry.pk, sk: entry.sk }, opId: entry.gsi12sk as string }));
}

/** Counter items by key, in the order asked; a missing item has no cells and no ops. */
export async function readCounters(store: Store, itemKeys: Key[], consistent: boolean): Promise<CounterState[]> {
  const found = new Map<string, Record<string, NativeAttributeValue>>();
  const unique = [...new Map(itemKeys.map((key) => [idOf(key), key])).values()];
  for (let start = 0; start < unique.length; start += 100) {
    let request: BatchGetCommandOutput['UnprocessedKeys'] = {
      [store.tableName]: { Keys: unique.slice(start, start + 100), ConsistentRead: consistent },
    };
    while (request && Object.keys(request).length > 0) {
      const result: BatchGetCommandOutput = await store.db.send(new BatchGetCommand({ RequestItems: request }));
      for (const item of result.Responses?.[store.tableName] ?? []) found.set(idOf(item as Key), item);
      request = result.UnprocessedKeys;
    }
  }
  return itemKeys.map((key) => stateOf(found.get(idOf(key))));
}

/** Counter items of one partition with sk in [fromSk, toSk]: one Query (paged). */
export async function readCounterRange(
  store: Store,
  pk: string,
  fromSk: string,
  toSk: string,
  only?: readonly string[],
): Promise<(CounterState & { sk: string })[]> {
  // Only the cells asked for are sent (the read units are the whole items' all the same).
  const names = only && Object.fromEntries(['sk', ...only].map((name, i) => [`#c${i}`, name]));
  const items = await queryAll(store, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': pk, ':from': fromSk, ':to': toSk },
    ...(names && { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names }),
  });
  return items.map((item) => ({ sk: item.sk as string, ...stateOf(item) }));
}

function stateOf(item: Record<string, NativeAttributeValue> | undefined): CounterState {
  const cells: Cells = {};
  for (const [name, value] of Object.entries(item ?? {})) {
    if (!BOOKKEEPING.has(name) && (typeof value === 'number' || typeof value === 'bigint')) cells[name] = Number(value);
  }
  return { cells, ops: [...((item?.ops as Set<string> | undefined) ?? [])] };
}

function idOf(key: Key): string {
  return `${key.pk}\u0000${key.sk}`;
}

/** One add per counter item (an item's set takes the change's id once), zero cells and items left out. */
export function mergedCounters(counters: CounterAdd[]): CounterAdd[] {
  const merged = new Map<string, CounterAdd>();
  for (const { key, add } of counters) {
    const id = `${key.pk}\u0000${key.sk}`;
    const into = merged.get(id) ?? { key: { pk: key.pk, sk: key.sk }, add: {} };
    for (const [cell, delta] of Object.entries(add)) {
      if (BOOKKEEPING.has(cell)) throw new Error(`Counter cell name "${cell}" is reserved`);
      if (!Number.isInteger(delta)) throw new Error(`Counter cell "${cell}" gets a non-integer ${delta}`);
      into.add[cell] = (into.add[cell] ?? 0) + delta;
    }
    merged.set(id, into);
  }
  return [...merged.values()]
    .map(({ key, add }) => ({ key, add: Object.fromEntries(Object.entries(add).filter(([, delta]) => delta !== 0)) }))
    .filter(({ add }) => Object.keys(add).length > 0);
}
