import { GetCommand, type NativeAttributeValue, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { keys } from './keys';

/** Items the Scan passed over, the candidates among them upgraded, and those found current (or gone meanwhile). */
export interface Tally {
  seen: number;
  upgraded: number;
  skipped: number;
}

/** One Scan segment's place: where the next page starts, and whether it has reached the end. */
export interface SegmentProgress extends Tally {
  lastKey?: Record<string, NativeAttributeValue>;
  done: boolean;
}

/** A pass of the migration over the whole table, in `segments` parallel Scan segments. */
export interface MigrationRun {
  segments: number;
  startedAt: string;
  completedAt?: string;
}

/** Whether a pass of this version's migration has finished: one consistent GetItem. */
export async function migrationCompleted(store: Store): Promise<boolean> {
  const result = await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.migration(), ConsistentRead: true }));
  return result.Item?.completedAt !== undefined;
}

/**
 * Where the migration stands, in Setting items (`migrate-v13` for the run, `migrate-v13#<n>`
 * for each segment), so a stopped run resumes at the page after the last one finished.
 */
export class MigrationProgress {
  constructor(private readonly store: Store) {}

  async run(): Promise<MigrationRun | undefined> {
    const item = await this.#get(keys.migration());
    return item && { segments: Number(item.segments), startedAt: String(item.startedAt), ...(item.completedAt && { completedAt: item.completedAt }) };
  }

  /** Whether a pass has finished (the local runtime migrates at start until one has). */
  completed(): Promise<boolean> {
    return migrationCompleted(this.store);
  }

  /** Starts a new pass: every segment back at the table's start. */
  async begin(segments: number, at: string): Promise<void> {
    for (let segment = 0; segment < segments; segment++) await this.save(segment, { done: false, seen: 0, upgraded: 0, skipped: 0 });
    await this.#put(keys.migration(), { segments, startedAt: at });
  }

  /** Records a pass that had nothing to do: a table created with every index holds no old items. */
  async markCompleted(at: string): Promise<void> {
    await this.#put(keys.migration(), { segments: 0, startedAt: at, completedAt: at });
  }

  async complete(at: string): Promise<void> {
    await this.store.db.send(
      new UpdateCommand({
        TableName: this.store.tableName,
        Key: keys.migration(),
        UpdateExpression: 'SET completedAt = :at',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
  }

  async segment(segment: number): Promise<SegmentProgress> {
    const item = await this.#get(keys.migrationSegment(segment));
    return {
      done: item?.done === true,
      seen: Number(item?.seen ?? 0),
      upgraded: Number(item?.upgraded ?? 0),
      skipped: Number(item?.skipped ?? 0),
      ...(item?.lastKey && { lastKey: item.lastKey }),
    };
  }

  async save(segment: number, progress: SegmentProgress): Promise<void> {
    await this.#put(keys.migrationSegment(segment), { ...progress });
  }

  async #get(key: { pk: string; sk: string }): Promise<Record<string, NativeAttributeValue> | undefined> {
    return (await this.store.db.send(new GetCommand({ TableName: this.store.tableName, Key: key, ConsistentRead: true }))).Item;
  }

  async #put(key: { pk: string; sk: string }, attributes: Record<string, NativeAttributeValue>): Promise<void> {
    await this.store.db.send(new PutCommand({ TableName: this.store.tableName, Item: { ...key, entity: 'Setting', ...attributes } }));
  }
}
