import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import type { Store } from '../../shared/store/client';
import { startTestStore } from './dynamo';

export interface StoreCall {
  /** The DynamoDB operation, e.g. `GetItemCommand`. */
  command: string;
  /** The partition key it names (Key, Item or a query's `:pk`), '' when none. */
  pk: string;
}

/**
 * Records every call the store's client makes from now on (the list only grows; empty
 * it to start a count), through the SDK's middleware stack, so the calls still happen.
 */
export function observeStore(store: Store): StoreCall[] {
  const calls: StoreCall[] = [];
  store.db.middlewareStack.add(
    (next, context) => (args) => {
      const input = args.input as { Key?: { pk?: unknown }; Item?: { pk?: unknown }; ExpressionAttributeValues?: Record<string, unknown> };
      calls.push({ command: String(context.commandName), pk: text(input.Key?.pk ?? input.Item?.pk ?? input.ExpressionAttributeValues?.[':pk']) });
      return next(args);
    },
    { step: 'initialize', name: 'observeStoreCalls' },
  );
  return calls;
}

/**
 * Counts, from now on, the index entries the store's Queries read (those a condition left out too) and the items its
 * BatchGetItems ask for: what a list call reads beside its counters.
 */
export function observeListReads(store: Store): { entries: number; messages: number } {
  const seen = { entries: 0, messages: 0 };
  store.db.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === 'QueryCommand') seen.entries += (result.output as { ScannedCount?: number }).ScannedCount ?? 0;
      if (/^BatchGet(Item)?Command$/.test(context.commandName ?? '')) {
        const requests = Object.values((args.input as { RequestItems: Record<string, { Keys: unknown[] }> }).RequestItems);
        seen.messages += requests.reduce((sum, request) => sum + request.Keys.length, 0);
      }
      return result;
    },
    { step: 'initialize', name: 'observeListReads' },
  );
  return seen;
}

/** A key value as the document client takes it, or marshalled (`{S: …}`). */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'S' in value) return String(value.S);
  return '';
}

/**
 * Sums, from now on, the read units the store's Gets and Queries consume, as DynamoDB (here
 * dynalite) reports them; set `units` to 0 to start a count.
 */
export function observeReadUnits(store: Store): { units: number } {
  const seen = { units: 0 };
  store.db.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
      if (/Get|Query/.test(String(context.commandName))) for (const each of [consumed ?? []].flat()) seen.units += each.CapacityUnits ?? 0;
      return result;
    },
    { step: 'initialize', name: 'observeReadUnits' },
  );
  return seen;
}

/**
 * A test store for the file's tests: started before them, its read units observed from then
 * on (observeReadUnits), closed after them; `use` receives both once started.
 */
export function useObservedStore(use: (started: { store: Store; reads: { units: number } }) => void): void {
  let close = async () => {};
  beforeAll(async () => {
    const started = await startTestStore();
    close = started.close;
    use({ store: started.store, reads: observeReadUnits(started.store) });
  });
  afterAll(() => close());
}
