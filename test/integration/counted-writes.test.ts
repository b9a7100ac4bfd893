import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { keys } from '../../shared/store/keys';
import { changeThing, countsOf, createThing, opsOf, tagsOf, thing, thingKey, truthOf } from '../support/counted-things';
import { Crash, crashingStore } from '../support/crashing-store';
import { startTestStore } from '../support/dynamo';

let store: Store;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ store, close } = await startTestStore());
});
afterAll(() => close());

// A fake clock: changes get ids (ULIDs) of its time, and it moves only when a test moves it.
let now = Date.parse('2026-11-24T10:00:00Z');
const clock = () => new Date(now);
const counted = (on: Store = store) =>
  new CountedWrites(on, () => ulid(now), { clock, sleep: () => new Promise((resolve) => setTimeout(resolve, 1)) });

let runs = 0;
const newRun = () => `r${++runs}`;
const STATES = ['a', 'b', 'c'];

/** Entities still marked in gsi12 for a run. */
async function pendingOf(run: string): Promise<number> {
  const result = await store.db.send(new ScanCommand({ TableName: store.tableName, IndexName: 'gsi12' }));
  return (result.Items ?? []).filter((item) => String(item.pk).startsWith(`THING#${run}#`)).length;
}

/** Runs `work` in a "process" that dies right after its k-th write; returns the store it used. */
async function crashAfter(k: number, work: (on: Store, writes: CountedWrites) => Promise<unknown>) {
  const crashed = crashingStore(store, k);
  try {
    await work(crashed, counted(crashed));
  } catch (error) {
    if (!(error instanceof Crash)) throw error;
  }
  return crashed;
}

describe('CountedWrites', () => {
  // Changes a test leaves unfinished are finished before the next one, which counts its own.
  beforeEach(async () => {
    now += 61_000;
    await counted().recover(60_000);
  });

  it('counts creations, changes and deletes, with their side items, and clears the mark', async () => {
    // Prepare
    const run = newRun();

    // Act
    await createThing(store, counted(), run, 1, 'a');
    await createThing(store, counted(), run, 2, 'a');
    await changeThing(store, counted(), run, 1, 'a', 'b');
    await changeThing(store, counted(), run, 2, 'a');

    // Assess
    expect(await countsOf(counted(), run, STATES)).toEqual(truthOf(['b']));
    expect(await tagsOf(store, run)).toEqual(['1#b']);
    expect(await thing(store, run, 1)).toEqual({ ...thingKey(run, 1), state: 'b' });
    expect(await thing(store, run, 2)).toBeUndefined();
    expect(await opsOf(store, run, 'ALL')).toEqual([]);
    expect(await pendingOf(run)).toBe(0);
  });

  it('counts a change once when finish() runs again', async () => {
    // Prepare
    const run = newRun();
    await createThing(store, counted(), run, 1, 'a');
    const writes = counted();
    const marked = writes.mark({ counters: [{ key: { pk: `COUNTS#${run}`, sk: 'ALL' }, add: { n_a: 1 } }] });
    await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...thingKey(run, 2), state: 'a', ...marked.set } }));

    // Act: the owner's finish, and a retry of it
    await writes.finish(thingKey(run, 2), marked);
    await writes.finish(thingKey(run, 2), marked);

    // Assess
    expect((await counted().read([{ pk: `COUNTS#${run}`, sk: 'ALL' }], true))[0]).toEqual({ n_a: 2 });
  });

  it('counts a change once when finish() is tried again after a step failed', async () => {
    // Prepare: a store whose first put of a side item fails (throttled, say)
    const run = newRun();
    let failed = false;
    const flaky = {
      tableName: store.tableName,
      db: {
        send: (command: { constructor: { name: string } }) => {
          if (command.constructor.name === 'PutCommand' && !failed) {
            failed = true;
            return Promise.reject(new Error('throttled'));
          }
          return store.db.send(command as never);
        },
      },
    } as unknown as Store;
    const writes = counted(flaky);
    const marked = writes.mark({
      counters: [{ key: { pk: `COUNTS#${run}`, sk: 'ALL' }, add: { n_a: 1 } }],
      puts: [{ pk: `TAGS#${run}`, sk: '1#a' }],
    });
    await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...thingKey(run, 1), state: 'a', ...marked.set } }));

    // Act
    await expect(writes.finish(thingKey(run, 1), marked)).rejects.toThrow('throttled');
    await writes.finish(thingKey(run, 1), marked);

    // Assess
    expect((await counted().read([{ pk: `COUNTS#${run}`, sk: 'ALL' }], true))[0]).toEqual({ n_a: 1 });
    expect(await tagsOf(store, run)).toEqual(['1#a']);
  });

  it('reads missing counter items as empty and leaves bookkeeping out of the cells', async () => {
    // Prepare
    const run = newRun();
    await createThing(store, counted(), run, 1, 'a');
    await crashAfter(2, (on, writes) => changeThing(on, writes, run, 1, 'a', 'b'));

    // Act
    const [all, missing] = await counted().read(
      [
        { pk: `COUNTS#${run}`, sk: 'ALL' },
        { pk: `COUNTS#${run}`, sk: 'NONE' },
      ],
      true,
    );

    // Assess: the crash left the change's id in the set, which is no cell
    expect(await opsOf(store, run, 'ALL')).toHaveLength(1);
    expect(all).toEqual({ n_a: 0, n_b: 1 });
    expect(missing).toEqual({});
  });

  it('refuses a cell named like its bookkeeping', () => {
    expect(() => counted().mark({ counters: [{ key: { pk: 'X', sk: 'Y' }, add: { ops: 1 } }] })).toThrow('reserved');
  });

  it('settle() says false for an entity without a mark', async () => {
    const run = newRun();
    await createThing(store, counted(), run, 1, 'a');
    expect(await counted().settle(thingKey(run, 1))).toBe(false);
  });

  it('settle() waits for a young change its owner is finishing, without writing a step of it', async () => {
    // Prepare: the owner has written the entity and not yet finished
    const run = newRun();
    const owner = counted();
    const marked = owner.mark({ counters: [{ key: { pk: `COUNTS#${run}`, sk: 'ALL' }, add: { n_a: 1 } }] });
    await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...thingKey(run, 1), state: 'a', ...marked.set } }));
    const settler = counted(crashingStore(store, 1));

    // Act: a settler that would crash on its first write, and the owner finishing meanwhile
    const settled = settler.settle(thingKey(run, 1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await owner.finish(thingKey(run, 1), marked);

    // Assess
    expect(await settled).toBe(true);
    expect((await counted().read([{ pk: `COUNTS#${run}`, sk: 'ALL' }], true))[0]).toEqual({ n_a: 1 });
  });

  // A full change a→b writes: the entity, 3 counter adds (ALL, D#a, D#b), put tag b, delete tag a,
  // clear the mark, take the id out of 3 sets: 10 writes. Crash after each.
  it.each(Array.from({ length: 10 }, (_, i) => i + 1))('recovers a change crashed after its write %i, counting it once', async (k) => {
    // Prepare
    const run = newRun();
    await createThing(store, counted(), run, 1, 'a');
    await createThing(store, counted(), run, 2, 'c');

    // Act: the crash, then a recovery too early, then one a minute later
    const crashed = await crashAfter(k, (on, writes) => changeThing(on, writes, run, 1, 'a', 'b'));
    const leftover = await countsOf(counted(), run, STATES);
    const early = await counted().recover(60_000);
    const leftoverAfterEarly = await countsOf(counted(), run, STATES);
    now += 61_000;
    const recovered = await counted().recover(60_000);

    // Assess
    expect(crashed.crashed()).toBe(true);
    expect(early).toBe(0);
    expect(leftoverAfterEarly).toEqual(leftover);
    expect(recovered).toBe(k < 7 ? 1 : 0);
    expect(await countsOf(counted(), run, STATES)).toEqual(truthOf(['b', 'c']));
    expect(await tagsOf(store, run)).toEqual(['1#b', '2#c']);
    expect(await thing(store, run, 1)).toEqual({ ...thingKey(run, 1), state: 'b' });
    expect(await pendingOf(run)).toBe(0);
    // And the thing takes its next change as usual.
    expect(await changeThing(store, counted(), run, 1, 'b', 'c')).toBe(true);
    expect(await countsOf(counted(), run, STATES)).toEqual(truthOf(['c', 'c']));
  });

  it.each([1, 2, 3, 5, 7])('recovers a delete crashed after its write %i', async (k) => {
    // Prepare
    const run = newRun();
    await createThing(store, counted(), run, 1, 'a');
    await createThing(store, counted(), run, 2, 'a');

    // Act
    await crashAfter(k, (on, writes) => changeThing(on, writes, run, 1, 'a'));
    now += 61_000;
    await counted().recover(60_000);

    // Assess
    expect(await countsOf(counted(), run, STATES)).toEqual(truthOf(['a']));
    expect(await tagsOf(store, run)).toEqual(['2#a']);
    expect(await thing(store, run, 1)).toBeUndefined();
  });

  // A renewal of the change crashed after its entity write and one counter: re-mark, 1 forget
  // of the old id, 2 adds, put, delete, clear, 2 forgets of the new id: 9 writes. Crash after each.
  it.each(Array.from({ length: 9 }, (_, i) => i + 1))('recovers a recovery crashed after its write %i', async (k) => {
    // Prepare
    const run = newRun();
    await createThing(store, counted(), run, 1, 'a');
    await crashAfter(2, (on, writes) => changeThing(on, writes, run, 1, 'a', 'b'));
    now += 61_000;

    // Act
    const crashed = await crashAfter(k, (_, writes) => writes.recover(60_000));
    now += 61_000;
    await counted().recover(60_000);

    // Assess
    expect(crashed.crashed()).toBe(true);
    expect(await countsOf(counted(), run, STATES)).toEqual(truthOf(['b']));
    expect(await tagsOf(store, run)).toEqual(['1#b']);
    expect(await pendingOf(run)).toBe(0);
  });

  it('settle() finishes an old change left by a crash, as a writer meeting it does', async () => {
    // Prepare
    const run = newRun();
    await createThing(store, counted(), run, 1, 'a');
    await crashAfter(3, (on, writes) => changeThing(on, writes, run, 1, 'a', 'b'));
    now += 16_000;

    // Act: the next writer's conditional write fails on the mark; it settles and retries
    const first = await changeThing(store, counted(), run, 1, 'b', 'c');
    const settled = await counted().settle(thingKey(run, 1));
    const retried = await changeThing(store, counted(), run, 1, 'b', 'c');

    // Assess
    expect([first, settled, retried]).toEqual([false, true, true]);
    expect(await countsOf(counted(), run, STATES)).toEqual(truthOf(['c']));
  });

  it('forgets ids an old crash left in a set when the counter is next added to, but not those of unfinished changes', async () => {
    // Prepare: thing 1's change crashed after clearing its mark (id left in ALL's set);
    // thing 2's crashed after its first counter (still marked, id in ALL's set too)
    const run = newRun();
    await createThing(store, counted(), run, 1, 'a');
    await createThing(store, counted(), run, 2, 'a');
    await crashAfter(7, (on, writes) => changeThing(on, writes, run, 1, 'a', 'b'));
    await crashAfter(2, (on, writes) => changeThing(on, writes, run, 2, 'a', 'c'));
    const unfinishedId = (await thing(store, run, 2))?.cntOp.id;
    const ids = await opsOf(store, run, 'ALL');
    now += 2 * 60 * 60_000;

    // Act: another thing's change adds to ALL
    await createThing(store, counted(), run, 3, 'a');

    // Assess
    expect(ids).toHaveLength(2);
    expect(ids).toContain(unfinishedId);
    expect(await opsOf(store, run, 'ALL')).toEqual([unfinishedId]);
    await counted().recover(60_000);
    expect(await countsOf(counted(), run, STATES)).toEqual(truthOf(['b', 'c', 'a']));
  });

  it('leaves alone an index entry whose entity no longer carries the change (the index lags)', async () => {
    // Prepare: an entity as the index may still show it after its mark was cleared
    const run = newRun();
    const opId = ulid(now);
    await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...thingKey(run, 1), state: 'a', ...keys.countedPending(opId) } }));

    // Act
    now += 61_000;
    const recovered = await counted().recover(60_000);

    // Assess
    expect(recovered).toBe(0);
    expect(await thing(store, run, 1)).toEqual({ ...thingKey(run, 1), state: 'a', ...keys.countedPending(opId) });
  });
});
