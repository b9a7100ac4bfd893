import { ulidAt } from '../../shared/ids';
import type { Store } from '../../shared/store/client';
import { CountedWrites, FORGET_AFTER_MS } from '../../shared/store/counted-writes';
import { isPending } from '../../shared/store/counter-items';
import { changeThing, countsOf, createThing, opsOf, tagsOf, thing, truthOf } from '../support/counted-things';
import { Crash, crashingStore } from '../support/crashing-store';
import { startTestStore } from '../support/dynamo';

let store: Store;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ store, close } = await startTestStore());
});
afterAll(() => close());

const STATES = ['a', 'b', 'c', 'd'];
// Short on a real clock so crashed changes get renewed within the test; 2 s allowed for a
// request in flight on a busy machine.
const TIMING = { leaseMs: 500, renewAfterMs: 2500 };
const newCounted = (on: Store = store) => new CountedWrites(on, () => ulidAt(new Date()), TIMING);

/** A seeded choice, so a failing run can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('CountedWrites under concurrency', () => {
  it('keeps the counters equal to the things when many writers change few things at once', async () => {
    // Prepare: 4 things; 12 writers (each its own CountedWrites, as separate containers are)
    const run = 'concurrent';
    const things = [1, 2, 3, 4];
    for (const n of things) await createThing(store, newCounted(), run, n, 'a');
    const pick = random(13);
    let conflicts = 0;
    let crashes = 0;

    // Act: each writer makes 10 changes (deletes among them, then re-creations), settling
    // and retrying whenever its conditional write meets another's mark or a changed state.
    // Four writers crash in one of their changes, after its 1st to 4th write (before its mark
    // is cleared), and go on as a new container: the others meet the leftovers and renew them.
    const writer = async (_: unknown, w: number) => {
      const crashing = w < 4 ? crashingStore(store, 1 + w) : undefined;
      for (let change = 0; change < 10; change++) {
        const n = things[Math.floor(pick() * things.length)] as number;
        const to = pick() < 0.1 ? undefined : (STATES[Math.floor(pick() * STATES.length)] as string);
        const key = { pk: `THING#${run}#${n}`, sk: '#THING' };
        for (;;) {
          const on = crashing && !crashing.crashed() && change >= 2 ? crashing : store;
          const counted = newCounted(on);
          const current = await thing(store, run, n);
          if (current?.cntOp === undefined && current?.state === to) break; // nothing to change
          const written =
            current?.cntOp === undefined &&
            (current === undefined
              ? await createThing(on, counted, run, n, to ?? 'a').catch(crashedOut)
              : await changeThing(on, counted, run, n, current.state, to).catch(crashedOut));
          if (written) break;
          conflicts++;
          await counted.settle(key).catch(crashedOut);
        }
      }
    };
    const crashedOut = (error: unknown) => {
      if (!(error instanceof Crash)) throw error;
      crashes++;
      return true; // the entity write landed: the change is made, its counting left over
    };
    const sweeper = async () => {
      for (let i = 0; i < 5; i++) await newCounted().recover(0);
    };
    await Promise.all([...Array.from({ length: 12 }, writer), sweeper()]);
    // What nobody met again is the scheduler's to finish.
    await new Promise((resolve) => setTimeout(resolve, TIMING.renewAfterMs));
    await newCounted().recover(0);

    // Assess: the truth is the things as they are
    const states = await Promise.all(things.map(async (n) => (await thing(store, run, n))?.state as string | undefined));
    expect(conflicts).toBeGreaterThan(0);
    expect(crashes).toBe(4);
    expect(await countsOf(newCounted(), run, STATES)).toEqual(truthOf(states));
    expect(await tagsOf(store, run)).toEqual(things.flatMap((n, i) => (states[i] === undefined ? [] : [`${n}#${states[i]}`])).sort());
    // A writer settles through its crashing store too, so a crash can fall among a
    // renewal's forgets of the old id: that id stays in a set, as the protocol allows
    // (docs/data-model.md 5.2), belonging to no unfinished change; the next add to the
    // counter an hour later drops it.
    const left = await opsOf(store, run, 'ALL');
    for (const id of left) expect(await isPending(store, id)).toBe(false);
    const anHourOn = () => new Date(Date.now() + FORGET_AFTER_MS);
    await createThing(store, new CountedWrites(store, () => ulidAt(anHourOn()), { ...TIMING, clock: anHourOn }), run, 99, 'a');
    expect(await opsOf(store, run, 'ALL')).toEqual([]);
  });
});
