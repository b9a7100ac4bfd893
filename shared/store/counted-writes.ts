import { DeleteCommand, GetCommand, type NativeAttributeValue, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { decodeTime, encodeTime } from 'ulid';
import type { Clock } from '../domain/time';
import type { Store } from './client';
import { conditionally } from './conditional';
import { addOnce, type CounterAdd, forget, isPending, mergedCounters, pendingBefore, readCounterRange, readCounters } from './counter-items';
import { countSettledDays, lateDays, rollUp } from './day-rollups';
import { type Key, keys, PENDING_SHARDS } from './keys';

export type Item = Record<string, NativeAttributeValue>;
export type { CounterAdd } from './counter-items';
export { mergedCounters } from './counter-items';
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

/** A change as it is stored on its entity (`cntOp`): everything needed to finish it. */
interface StoredOp {
  id: string;
  counters: CounterAdd[];
  puts: Item[];
  deletes: Key[];
  deleteEntity: boolean;
  /** Settled days' items it adds to (late: day-rollups.ts), rolled up onto their months after the adds; absent on older marks. */
  rollups?: Key[];
}

/** No unfinished counted change on the entity: AND it with the entity write's own condition. */
export const NOT_MARKED = 'attribute_not_exists(cntOp)';

/**
 * The change's owner (who marked it) sends its steps only this long after the change was
 * made; past it, the owner stops and leaves the change to be renewed. Its whole run takes
 * tens of milliseconds.
 */
export const LEASE_MS = 2_000;
/**
 * A change this old is renewed (given a fresh id) by whoever finds it unfinished: every
 * step sent under the lease has landed by then (6 s allowed for a request in flight, the
 * SDK's own retries with their back-off included). Waiting for it keeps a writer that meets
 * a crashed change under the API functions' 10 s timeout.
 */
export const RENEW_AFTER_MS = 8_000;
/** The scheduled sweep finishes changes older than this (a minute: their writers are long gone). */
export const COUNTED_RECOVERY_AGE_MS = 60_000;
/** Ids left in a counter's set by a crash between the last two steps are dropped after this. */
export const FORGET_AFTER_MS = 60 * 60_000;

/** Changes whose mark this process cleared. */
const cleared = new WeakSet<StoredOp>();

export interface CountedWritesOptions {
  clock?: Clock;
  /** How settle() waits for another writer's change to finish. */
  sleep?: (ms: number) => Promise<void>;
  /** LEASE_MS and RENEW_AFTER_MS, shortened by tests that crash writers on a real clock. */
  leaseMs?: number;
  renewAfterMs?: number;
}

/**
 * Exact counters kept with single-item writes (DynamoDB transactions are not used: the
 * local store has none). A counted change is marked on its entity in the entity's own
 * write (the whole change stored on it, and the entity put in gsi12), then finished:
 * each counter item gets `ADD cells, ops {id}` unless its `ops` set already holds the id,
 * side items are put and deleted, the mark is cleared (or the entity deleted), and the id
 * leaves the counters' sets. While an entity carries a mark no other change can mark it,
 * so changes of one entity are counted in order, each once. docs/data-model.md, section 5.
 */
export class CountedWrites {
  readonly #clock: Clock;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #leaseMs: number;
  readonly #renewAfterMs: number;

  constructor(
    private readonly store: Store,
    private readonly newOpId: () => string,
    options: CountedWritesOptions = {},
  ) {
    this.#clock = options.clock ?? (() => new Date());
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#leaseMs = options.leaseMs ?? LEASE_MS;
    this.#renewAfterMs = options.renewAfterMs ?? RENEW_AFTER_MS;
  }

  mark(op: CountedOp): Marked {
    const id = this.newOpId();
    const counters = mergedCounters(op.counters);
    const stored: StoredOp = {
      id,
      counters,
      ...lateDays(counters, this.#clock()),
      puts: op.puts ?? [],
      deletes: op.deletes ?? [],
      deleteEntity: op.deleteEntity ?? false,
    };
    return { opId: id, set: { cntOp: stored, ...keys.countedPending(id) }, condition: NOT_MARKED };
  }

  async finish(entityKey: Key, marked: Marked): Promise<void> {
    const op = marked.set.cntOp as StoredOp;
    // Once its mark is cleared a change's id leaves the counters' sets, and nothing else
    // would stop a second run from adding again.
    if (cleared.has(op)) return;
    await this.#run(entityKey, op);
  }

  async settle(entityKey: Key): Promise<boolean> {
    let target: string | undefined;
    let pause = 20;
    const started = performance.now();
    for (;;) {
      const op = await this.#markOn(entityKey);
      if (!op || (target !== undefined && op.id !== target)) return target !== undefined;
      target = op.id;
      const age = this.#ageOf(op.id);
      // Seen unfinished for that long is as good as that old, whatever the clocks say.
      if (age >= this.#renewAfterMs || performance.now() - started >= this.#renewAfterMs) {
        target = (await this.#renew(entityKey, op)) ?? target;
        continue;
      }
      // Young: its owner is most likely finishing it right now.
      await this.#sleep(Math.max(1, Math.min(pause, this.#renewAfterMs - age)));
      pause = Math.min(pause * 2, 1000);
    }
  }

  async recover(ageMs: number): Promise<number> {
    const before = encodeTime(Math.max(0, this.#clock().getTime() - ageMs), 10);
    let recovered = 0;
    for (let shard = 0; shard < PENDING_SHARDS; shard++) {
      for (const { key, opId } of await pendingBefore(this.store, shard, before)) {
        // The index lags the table: the entity says whether the change is still unfinished.
        if ((await this.#markOn(key))?.id !== opId) continue;
        if (await this.settle(key)) recovered++;
      }
    }
    return recovered;
  }

  /** The time by this store's clock (tests move it). */
  now(): Date {
    return this.#clock();
  }

  async read(counterKeys: Key[], consistent = false): Promise<Record<string, number>[]> {
    return (await readCounters(this.store, counterKeys, consistent)).map((state) => state.cells);
  }

  /** Counter items of one partition with sk in [fromSk, toSk] (one Query), with their cells. */
  async readRange(pk: string, fromSk: string, toSk: string, only?: readonly string[]): Promise<{ sk: string; cells: Record<string, number> }[]> {
    return (await readCounterRange(this.store, pk, fromSk, toSk, only)).map(({ sk, cells }) => ({ sk, cells }));
  }

  /** The cells `rests` (after `h<HH>`) summed over a long range's settled whole days, from the month roll-ups (day-rollups.ts). */
  countSettledDays(pk: string, prefix: string, fromDay: string, toDay: string, rests: readonly string[], minDays: number) {
    return countSettledDays(this.store, this.#clock(), pk, prefix, fromDay, toDay, rests, minDays);
  }

  /** Every step of a change, as its owner, while the lease lasts: true if it got to the end. */
  async #run(entityKey: Key, op: StoredOp): Promise<boolean> {
    // A step is sent only under the lease; one refused leaves the change to be renewed.
    const leased = async <T>(write: () => Promise<T>): Promise<{ done: boolean; result?: T }> =>
      this.#ageOf(op.id) < this.#leaseMs ? { done: true, result: await write() } : { done: false };
    const added = await Promise.all(op.counters.map(({ key, add }) => leased(() => addOnce(this.store, key, add, op.id))));
    if (added.some((step) => !step.done)) return false;
    const rolled = await Promise.all((op.rollups ?? []).map((key) => leased(() => rollUp(this.store, key))));
    if (rolled.some((step) => !step.done)) return false;
    const puts = await Promise.all(op.puts.map((item) => leased(() => this.#put(item))));
    if (puts.some((step) => !step.done)) return false;
    const deletes = await Promise.all(op.deletes.map((key) => leased(() => this.#delete(key))));
    if (deletes.some((step) => !step.done)) return false;
    // Every step has landed, so clearing needs no lease. Not cleared: renewed meanwhile,
    // and finished under the fresh id by whoever renewed it.
    if (!(await this.#clear(entityKey, op))) return true;
    cleared.add(op);
    // The id stays in the sets until the mark is gone: a renewal reads them to know what was added.
    await Promise.all(op.counters.map(({ key }) => forget(this.store, key, [op.id])));
    await this.#forgetOld(
      op.counters.map(({ key }) => key),
      added.map((step) => step.result ?? []),
    );
    return true;
  }

  /**
   * Gives an old unfinished change a fresh id and finishes it under that: the counters
   * whose set holds the old id were added to already and are left out. Nobody writes the
   * old id's steps any more (its lease is long over), so the sets say exactly what was done.
   * Returns the fresh id, or undefined when the entity changed meanwhile.
   */
  async #renew(entityKey: Key, op: StoredOp): Promise<string | undefined> {
    const counterKeys = op.counters.map(({ key }) => key);
    const states = await readCounters(this.store, counterKeys, true);
    const applied = counterKeys.filter((_, i) => states[i]?.ops.includes(op.id));
    const fresh: StoredOp = { ...op, id: this.newOpId(), counters: op.counters.filter((_, i) => !states[i]?.ops.includes(op.id)) };
    // A day that has settled since the change was marked: its add is late now.
    const late = lateDays(fresh.counters, this.#clock()).rollups ?? [];
    fresh.rollups = [...(op.rollups ?? []), ...late.filter((key) => !op.rollups?.some((k) => k.pk === key.pk && k.sk === key.sk))];
    const renewed = await conditionally(() =>
      this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: entityKey,
          UpdateExpression: 'SET cntOp = :op, gsi12pk = :pending, gsi12sk = :id',
          ConditionExpression: 'cntOp.id = :old',
          ExpressionAttributeValues: { ':op': fresh, ':pending': keys.countedPending(fresh.id).gsi12pk, ':id': fresh.id, ':old': op.id },
        }),
      ),
    );
    if (!renewed) return undefined;
    // Nobody adds the old id any more: it may leave the sets at once.
    await Promise.all(applied.map((key) => forget(this.store, key, [op.id])));
    await this.#run(entityKey, fresh);
    await this.#forgetOld(
      counterKeys,
      states.map((state) => state.ops),
    );
    return fresh.id;
  }

  /**
   * Drops ids older than FORGET_AFTER_MS from counters' sets (left by a crash after a
   * change's mark was cleared), unless gsi12 still shows the change unfinished.
   */
  async #forgetOld(counterKeys: Key[], sets: string[][]): Promise<void> {
    await Promise.all(
      counterKeys.map(async (key, i) => {
        const old = (sets[i] ?? []).filter((id) => this.#ageOf(id) >= FORGET_AFTER_MS);
        const done = [];
        for (const id of old) if (!(await isPending(this.store, id))) done.push(id);
        await forget(this.store, key, done);
      }),
    );
  }

  async #markOn(entityKey: Key): Promise<StoredOp | undefined> {
    const result = await this.store.db.send(
      new GetCommand({ TableName: this.store.tableName, Key: entityKey, ConsistentRead: true, ProjectionExpression: 'cntOp' }),
    );
    return result.Item?.cntOp as StoredOp | undefined;
  }

  /** Removes the mark, or deletes the entity for a delete; false if the mark is not this change's. */
  #clear(entityKey: Key, op: StoredOp): Promise<boolean> {
    const input = {
      TableName: this.store.tableName,
      Key: entityKey,
      ConditionExpression: 'cntOp.id = :id',
      ExpressionAttributeValues: { ':id': op.id },
    };
    return conditionally(() =>
      this.store.db.send(
        op.deleteEntity ? new DeleteCommand(input) : new UpdateCommand({ ...input, UpdateExpression: 'REMOVE cntOp, gsi12pk, gsi12sk' }),
      ),
    );
  }

  #put(item: Item): Promise<unknown> {
    return this.store.db.send(new PutCommand({ TableName: this.store.tableName, Item: item }));
  }

  #delete(key: Key): Promise<unknown> {
    return this.store.db.send(new DeleteCommand({ TableName: this.store.tableName, Key: key }));
  }

  #ageOf(opId: string): number {
    return this.#clock().getTime() - decodeTime(opId);
  }
}

/**
 * The mark as UpdateItem SET clauses, for an entity changed by UpdateItem:
 * `SET <yours>, ${update.set}` with `update.values` and `marked.condition`.
 */
export function markUpdate(marked: Marked): { set: string; values: Record<string, NativeAttributeValue> } {
  return {
    set: 'cntOp = :cntOp, gsi12pk = :cntPending, gsi12sk = :cntOpId',
    values: { ':cntOp': marked.set.cntOp, ':cntPending': marked.set.gsi12pk, ':cntOpId': marked.set.gsi12sk },
  };
}
