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

  /** A change of thing `n` from a to b, crashed right after its entity write, made `ageMs` ago. */
  async function crashedChange(run: string, n: number, ageMs: number): Promise<void> {
    const { store, counted } = service.runtime;
    await createThing(store, counted, run, n, 'a');
    const crashed = crashingStore(store, 1);
    const writes = new CountedWrites(crashed, () => ulid(Date.now() - ageMs));
    await changeThing(crashed, writes, run, n, 'a', 'b').catch((error) => {
      if (!(error instanceof Crash)) throw error;
    });
  }

  it('finishes counted changes crashed over a minute ago, and leaves younger ones to their writers', async () => {
    // Prepare
    await crashedChange('old', 1, 61_000);
    await crashedChange('young', 1, 0);

    // Act
    const { recovered } = await sweep();

    // Assess
    const { counted, store } = service.runtime;
    expect(recovered).toBe(1);
    expect(await countsOf(counted, 'old', ['a', 'b'])).toEqual(truthOf(['b']));
    expect((await thing(store, 'old', 1))?.cntOp).toBeUndefined();
    expect(await countsOf(counted, 'young', ['a', 'b'])).toEqual(truthOf(['a']));
    expect((await thing(store, 'young', 1))?.cntOp).toBeDefined();
  });
});
