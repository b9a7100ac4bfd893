import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type NativeAttributeValue, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mapLimited } from '../domain/concurrency';
import { batchGetAll } from './batch';
import type { Store } from './client';
import { conditionally } from './conditional';
import { type Key, keys } from './keys';
import { clickKey, LINK_SCHEMA } from './link-keys';
import { moveWordRanks, wordKeysOfItem } from './link-word-ranks';

export interface ClickRankChange {
  accountId: number;
  linkId: number;
}

/** Pending items read per round: each lists up to a batch's links (1,000), so a round reads at most this many thousand links. */
const PENDING_PER_ROUND = 25;
/** How long one scheduled pass works at most (the sweep function has 50 s); what is left waits for the next. */
export const RANK_PASS_BUDGET_MS = 30_000;
/** Writes in flight at once while moving keys. */
const MOVES_IN_FLIGHT = 16;

/**
 * Keeps Link/List's clickCnt order (gsi3 on the link item, `clicks × 10^15 + id`) up to
 * date after counting, off the click path: counting writes only the link's click item,
 * which no index sees, and tells this which links a batch changed; a pass run by the sweep
 * moves each changed link's key once, however many batches counted it meanwhile.
 *
 * - `changed` puts one pending item per batch (`RANKS#PENDING` / batch key) listing the
 *   batch's link ids as a number set: a few bytes a link, and a batch finished again
 *   writes the same item again.
 * - `apply` reads the pending items, reads each listed link's totals (link item `clickCnt`
 *   + click item `clicks`, consistently: every count written before its pending item is
 *   seen), moves `gsi3sk` where it is behind, then deletes the pending items it read.
 *
 * A move only ever goes forward (`gsi3sk < new key` in its condition), so two passes at
 * once, a pass that read an older total, or a counter that still moves the key itself
 * never move a link back. Deleted links and links not yet at schema 2 are left alone (the
 * migration gives those their key). A pass stopped anywhere leaves its pending items for
 * the next: the moves it made are not made again, as the keys are already there.
 *
 * After the links' keys, each moved link's comment word items get the same key (gsi14's
 * order, link-word-ranks.ts), forward only, the words taken from the link item as the move
 * left it. A link with a counted change unfinished is not moved until the change is done
 * (its word items are being put with the key the writer read): it waits for the next pass.
 */
export class ClickRanks {
  constructor(private readonly store: Store) {}

  async changed(batchKey: string, changes: ClickRankChange[]): Promise<void> {
    if (changes.length === 0) return;
    await this.store.db.send(
      new PutCommand({
        TableName: this.store.tableName,
        Item: {
          ...keys.clickRankPending(batchKey),
          entity: 'ClickRankPending',
          links: new Set(changes.map((change) => change.linkId)),
          // What this write put: a pass deletes the item only as it read it (see apply).
          written: randomUUID(),
        },
      }),
    );
  }

  /**
   * Moves the keys of every link a pending item lists, round after round, until none is
   * left or `budgetMs` has passed (the rest waits for the next pass). Returns the links
   * whose key moved.
   */
  async apply(budgetMs = Number.POSITIVE_INFINITY): Promise<number> {
    const started = performance.now();
    let moved = 0;
    let startKey: Record<string, NativeAttributeValue> | undefined;
    const deferred: ClickRankChange[] = [];
    // Forgotten once the links they list that must wait are told to the next pass: a pass stopped before that leaves them all.
    const read: Record<string, NativeAttributeValue>[] = [];
    do {
      const page = await this.store.db.send(
        new QueryCommand({
          TableName: this.store.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.clickRanksPending() },
          Limit: PENDING_PER_ROUND,
          ExclusiveStartKey: startKey,
        }),
      );
      const pending = page.Items ?? [];
      const linkIds = new Set<number>();
      for (const item of pending) for (const id of item.links as Set<number | bigint>) linkIds.add(Number(id));
      moved += await this.refresh([...linkIds], deferred);
      read.push(...pending);
      startKey = page.LastEvaluatedKey;
    } while (startKey && performance.now() - started < budgetMs);
    // Told once the pass is over, so this pass does not read them again.
    await this.changed(`deferred#${randomUUID()}`, deferred);
    await mapLimited(read, MOVES_IN_FLIGHT, (item) => this.#forget(String(item.sk), String(item.written)));
    return moved;
  }

  /**
   * Brings each link's key up to its total clicks as counted now; the number of keys moved.
   * A link with a counted change unfinished (its word items being written) is not moved:
   * it goes to `deferred`, or, without it, into a pending item of its own for the next pass.
   */
  async refresh(linkIds: number[], deferred?: ClickRankChange[]): Promise<number> {
    const items = await batchGetAll(
      this.store,
      linkIds.flatMap((id) => [keys.link(id), keys.linkClicks(id)]),
      true,
    );
    const links = new Map<string, Record<string, NativeAttributeValue>>();
    const clicks = new Map<string, number>();
    for (const item of items) {
      if (item.sk === keys.link(0).sk) links.set(String(item.pk), item);
      else clicks.set(String(item.pk), Number(item.clicks ?? 0));
    }
    const moves: { id: number; key: number | bigint }[] = [];
    const waiting: ClickRankChange[] = [];
    const current: { words: Key[]; key: NativeAttributeValue }[] = [];
    const wait = (item: Record<string, NativeAttributeValue>) => waiting.push({ accountId: Number(item.accountId), linkId: Number(item.id) });
    for (const id of linkIds) {
      const link = links.get(keys.link(id).pk);
      if (!link || link.deleted || link.schema !== LINK_SCHEMA || link.gsi3sk === undefined) continue;
      const key = clickKey(Number(link.clickCnt ?? 0) + (clicks.get(keys.link(id).pk) ?? 0), id);
      if (BigInt(link.gsi3sk) >= BigInt(key)) {
        // Moved already, by a pass that may have stopped before its word items: they follow (forward only, a no-op when there).
        if (BigInt(link.gsi3sk) === BigInt(key) && !link.cntOp) current.push({ words: wordKeysOfItem(link), key: link.gsi3sk });
        continue;
      }
      if (link.cntOp) wait(link);
      else moves.push({ id, key });
    }
    const done = await mapLimited(moves, MOVES_IN_FLIGHT, ({ id, key }) => this.#moveKey(id, key));
    const moved = moves.flatMap(({ key }, i) => {
      const words = done[i];
      return words ? [{ words, key }] : [];
    });
    // Not moved: another pass moved it, it went, or a change was marked on it since it was read.
    const refused = moves.filter((_, i) => !done[i]).map(({ id }) => keys.link(id));
    for (const item of refused.length ? await batchGetAll(this.store, refused, true) : []) if (item.cntOp && !item.deleted) wait(item);
    await moveWordRanks(this.store, [...moved, ...current]);
    if (deferred) deferred.push(...waiting);
    else await this.changed(`deferred#${randomUUID()}`, waiting);
    return moved.length;
  }

  /** The keys of the link's word items as the move left it; undefined when the key is already there or further, or the link went meanwhile. */
  async #moveKey(linkId: number, key: number | bigint): Promise<Key[] | undefined> {
    try {
      const result = await this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: keys.link(linkId),
          UpdateExpression: 'SET gsi3sk = :key',
          // Forward only; a deleted link has no gsi3sk, so it fails `<` as well.
          // Never while a counted change is unfinished on it: the word items it puts carry the key it read.
          ConditionExpression: 'gsi3sk < :key AND #schema = :schema AND attribute_not_exists(deleted) AND attribute_not_exists(cntOp)',
          ExpressionAttributeNames: { '#schema': 'schema' },
          ExpressionAttributeValues: { ':key': key, ':schema': LINK_SCHEMA },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return wordKeysOfItem(result.Attributes ?? {});
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  /** Deletes a pending item unless it was written again since it was read (its links are then seen next pass). */
  #forget(batchKey: string, written: string): Promise<boolean> {
    return conditionally(() =>
      this.store.db.send(
        new DeleteCommand({
          TableName: this.store.tableName,
          Key: keys.clickRankPending(batchKey),
          ConditionExpression: '#written = :written',
          ExpressionAttributeNames: { '#written': 'written' },
          ExpressionAttributeValues: { ':written': written },
        }),
      ),
    );
  }
}
