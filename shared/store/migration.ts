import { GetCommand, type NativeAttributeValue, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import type { Key } from './keys';
import { MigrationProgress, type Tally } from './migration-progress';

export type Item = Record<string, NativeAttributeValue>;

/**
 * Which items of an entity may need its upgrade, as a DynamoDB condition (FilterExpression
 * syntax) on the item: `#name` placeholders in `names`, `:value` ones in `values`, local to
 * the declaration (migrate renames them apart). Wider than needed costs a read by the
 * client; narrower loses items, so it is the negation of the upgrade's "current" check.
 */
export interface UpgradeCandidates {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, NativeAttributeValue>;
}

/** How one entity type is brought to the current layout (shared/store/link-migration.ts, message-migration.ts, campaign-migration.ts). */
export interface ItemUpgrade {
  /** The item's `entity`: 'Link', 'Message', 'Campaign'. */
  entity: string;
  /** The items the Scan hands to `upgrade`; the others are passed over within DynamoDB. */
  candidates: UpgradeCandidates;
  /**
   * Upgrades one item written by the previous version: index attributes, side items and
   * counts, conditional on the item unchanged since `item` was read. 'skipped' if it has
   * them already; 'changed' if it changed meanwhile (the caller re-reads and retries).
   */
  upgrade(item: Item): Promise<'upgraded' | 'skipped' | 'changed'>;
}

export interface MigrateOptions {
  /** Parallel Scan segments of a new pass (a pass in progress keeps its own); 4 unless given. */
  segments?: number;
  /** Starts a new pass even if one is in progress. */
  restart?: boolean;
  /** Items read per Scan page (DynamoDB's Limit, counted before the filter); unset: 1 MB pages. */
  pageSize?: number;
  /** Items upgraded at once within a segment's page. */
  concurrency?: number;
  /** Stops after the page in progress; the next run resumes after it. */
  signal?: AbortSignal;
  /** After every page of any segment, with the totals so far in this run. */
  onPage?: (tally: Tally) => void;
  now?: () => Date;
}

export interface MigrationResult extends Tally {
  /** Every segment reached the end of the table (the pass is recorded as complete). */
  completed: boolean;
  segments: number;
  /** Whether this run went on from a stopped one. */
  resumed: boolean;
}

export const DEFAULT_SEGMENTS = 4;
/** 'changed' again and again means something rewrites the item all the time: give up loudly. */
const MAX_RETRIES = 20;

/**
 * `admin migrate`: a parallel Scan of the whole table whose filter keeps the items of an
 * entity in `upgrades` that its `candidates` name, each handed to its upgrade, which brings
 * it to the current layout unless it is there; the other items never reach the client.
 * Each segment saves its LastEvaluatedKey after each page (MigrationProgress), which
 * advances over filtered-out items too, so a stopped run resumes where it stopped; a page
 * cut off midway is read again, and its upgraded items are skipped. Once every segment is
 * done the pass is recorded as complete; a later run starts a new pass, which finds nothing to do.
 */
export async function migrate(store: Store, upgrades: readonly ItemUpgrade[], options: MigrateOptions = {}): Promise<MigrationResult> {
  const now = options.now ?? (() => new Date());
  const progress = new MigrationProgress(store);
  const byEntity = new Map(upgrades.map((upgrade) => [upgrade.entity, upgrade]));
  const filter = candidatesFilter(upgrades);
  const previous = await progress.run();
  const resumed = previous !== undefined && previous.completedAt === undefined && !options.restart;
  if (resumed && options.segments !== undefined && options.segments !== previous.segments) {
    throw new Error(`A pass over ${previous.segments} segments is in progress: resume it with as many, or start again with --restart`);
  }
  const segments = resumed ? previous.segments : (options.segments ?? DEFAULT_SEGMENTS);
  if (!Number.isInteger(segments) || segments < 1 || segments > 1_000_000) throw new Error('Segments must be a whole number from 1');
  if (!resumed) await progress.begin(segments, now().toISOString());

  const total: Tally = { seen: 0, upgraded: 0, skipped: 0 };
  const upgradeOne = async (item: Item): Promise<'upgraded' | 'skipped'> => {
    let current: Item | undefined = item;
    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      const upgrade = current && byEntity.get(String(current.entity));
      if (!current || !upgrade) return 'skipped';
      const outcome = await upgrade.upgrade(current);
      if (outcome !== 'changed') return outcome;
      const key: Key = { pk: String(current.pk), sk: String(current.sk) };
      current = (await store.db.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true }))).Item;
    }
    throw new Error(`${item.pk} kept changing while it was upgraded (${MAX_RETRIES} tries)`);
  };

  // A segment that fails stops the others after their pages in progress; the run then fails with its error.
  const failed = new AbortController();
  const runSegment = async (segment: number): Promise<boolean> => {
    const state = await progress.segment(segment);
    while (!state.done) {
      if (options.signal?.aborted || failed.signal.aborted) return false;
      const page = await store.db.send(
        new ScanCommand({
          TableName: store.tableName,
          ...(segments > 1 && { Segment: segment, TotalSegments: segments }),
          ExclusiveStartKey: state.lastKey,
          Limit: options.pageSize,
          ...filter,
        }),
      );
      const outcomes = await inBatches(page.Items ?? [], options.concurrency ?? 8, upgradeOne);
      const upgraded = outcomes.filter((outcome) => outcome === 'upgraded').length;
      const tally = { seen: page.ScannedCount ?? 0, upgraded, skipped: outcomes.length - upgraded };
      for (const name of ['seen', 'upgraded', 'skipped'] as const) {
        state[name] += tally[name];
        total[name] += tally[name];
      }
      state.lastKey = page.LastEvaluatedKey;
      state.done = page.LastEvaluatedKey === undefined;
      await progress.save(segment, state);
      options.onPage?.({ ...total });
    }
    return true;
  };

  const outcomes = await Promise.allSettled(
    Array.from({ length: segments }, (_, segment) =>
      runSegment(segment).catch((error: unknown) => {
        failed.abort();
        throw error;
      }),
    ),
  );
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  const completed = outcomes.every((outcome) => outcome.status === 'fulfilled' && outcome.value);
  if (completed) await progress.complete(now().toISOString());
  return { ...total, completed, segments, resumed };
}

/**
 * The Scan's filter: `entity = <entity> AND (<its candidates>)` for each upgrade, OR-ed,
 * each declaration's placeholders prefixed with its place so that they cannot collide.
 */
export function candidatesFilter(upgrades: readonly ItemUpgrade[]): {
  FilterExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, NativeAttributeValue>;
} {
  if (upgrades.length === 0) throw new Error('Nothing to migrate: no upgrades given');
  const names: Record<string, string> = { '#entity': 'entity' };
  const values: Record<string, NativeAttributeValue> = {};
  const terms = upgrades.map(({ entity, candidates }, n) => {
    const local = (placeholder: string) => `${placeholder[0]}u${n}_${placeholder.slice(1)}`;
    for (const [name, attribute] of Object.entries(candidates.names ?? {})) names[local(name)] = attribute;
    for (const [name, value] of Object.entries(candidates.values ?? {})) values[local(name)] = value;
    values[`:u${n}`] = entity;
    return `(#entity = :u${n} AND (${candidates.expression.replace(/[#:]\w+/g, local)}))`;
  });
  return { FilterExpression: terms.join(' OR '), ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

/** `work` over every item, at most `width` at a time; the results in the items' order. */
async function inBatches<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += width) {
    results.push(...(await Promise.all(items.slice(start, start + width).map(work))));
  }
  return results;
}
