import { ulid } from 'ulid';
import { CountedWrites } from '../../shared/store/counted-writes';
import { changeThing, countsOf, createThing, thing, truthOf } from '../support/counted-things';
import { Crash, crashingStore } from '../support/crashing-store';
import { startService, type TestService } from '../support/local-service';

/** The scheduled sweep (functions/deferred-sweeper.ts) finishes counted changes a crash left unfinished. */
describe('deferred sweeper', () => {
  let service: TestService;
  let sweep: typeof import('../../functions/deferred-sweeper').handler;

  beforeAll(async () => {
    service = await startService();
    sweep = (await import('../../functions/deferred-sweeper')).handler;
  });
  afterAll(() => service.close());

  it('finishes a counted change crashed after its entity write, once it is a minute old', async () => {
    // Prepare: the runtime on a fake clock; a change that crashed after its entity write
    let now = Date.now();
    service.runtime.clock = () => new Date(now);
    const { store } = service.runtime;
    const run = 'sweep';
    await createThing(store, service.runtime.counted, run, 1, 'a');
    const crashed = crashingStore(store, 1);
    await changeThing(crashed, new CountedWrites(crashed, () => ulid(now), { clock: () => new Date(now) }), run, 1, 'a', 'b').catch((error) => {
      if (!(error instanceof Crash)) throw error;
    });

    // Act: a sweep right away, and one a minute later
    const early = await sweep();
    const leftover = await countsOf(service.runtime.counted, run, ['a', 'b']);
    now += 61_000;
    const late = await sweep();

    // Assess
    expect(early.recovered).toBe(0);
    expect(leftover).toEqual(truthOf(['a']));
    expect(late.recovered).toBe(1);
    expect(await countsOf(service.runtime.counted, run, ['a', 'b'])).toEqual(truthOf(['b']));
    expect((await thing(store, run, 1))?.cntOp).toBeUndefined();
  });
});
