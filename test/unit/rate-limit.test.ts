import { AppError } from '../../shared/domain/errors';
import { RateLimiter } from '../../shared/domain/rate-limit';

/** A clock the test moves by hand. */
function fakeClock(start = Date.parse('2026-11-23T10:00:00Z')) {
  let now = start;
  return { clock: () => new Date(now), advance: (ms: number) => (now += ms) };
}

/** How many of `count` requests made at once are admitted. */
function admitted(limiter: RateLimiter, account: { id: number; rateLimit: number | null }, count: number): number {
  let admitted = 0;
  for (let i = 0; i < count; i++) {
    try {
      limiter.admit(account);
      admitted++;
    } catch (error) {
      if (!(error instanceof AppError) || error.kind !== 'rateLimited') throw error;
    }
  }
  return admitted;
}

describe('RateLimiter', () => {
  it('admits a burst of twice the rate at once, then refuses with code 30 (rateLimited) and says when to try again', () => {
    // Prepare
    const { clock } = fakeClock();
    const limiter = new RateLimiter({ clock, defaultPerSecond: 5 });
    const account = { id: 1, rateLimit: null };

    // Act
    const first = admitted(limiter, account, 10);

    // Assess
    expect(first).toBe(10);
    expect(() => limiter.admit(account)).toThrow(
      expect.objectContaining({
        kind: 'rateLimited',
        message: 'Rate limit exceeded: this account may make 5 requests a second (10 at once); try again in 0.2 s',
      }),
    );
  });

  it('refills at the rate, never beyond the burst', () => {
    // Prepare
    const { clock, advance } = fakeClock();
    const limiter = new RateLimiter({ clock, defaultPerSecond: 5 });
    const account = { id: 1, rateLimit: null };
    admitted(limiter, account, 10);

    // Act + Assess: 400 ms at 5 a second is 2 requests; a 199 ms wait is not yet one
    advance(400);
    expect(admitted(limiter, account, 5)).toBe(2);
    advance(199);
    expect(admitted(limiter, account, 1)).toBe(0);
    advance(1);
    expect(admitted(limiter, account, 1)).toBe(1);
    // An hour idle fills the bucket to the burst only.
    advance(3_600_000);
    expect(admitted(limiter, account, 20)).toBe(10);
  });

  it('keeps a sustained rate at the limit admitted, and refuses what goes beyond it', () => {
    // Prepare: 20 a second, steady, after the burst is spent
    const { clock, advance } = fakeClock();
    const limiter = new RateLimiter({ clock, defaultPerSecond: 20 });
    const account = { id: 1, rateLimit: null };
    admitted(limiter, account, 40);

    // Act: one request every 50 ms for 10 s, then two every 50 ms for 1 s
    let steady = 0;
    for (let i = 0; i < 200; i++) {
      advance(50);
      steady += admitted(limiter, account, 1);
    }
    let doubled = 0;
    for (let i = 0; i < 20; i++) {
      advance(50);
      doubled += admitted(limiter, account, 2);
    }

    // Assess
    expect(steady).toBe(200);
    expect(doubled).toBe(20);
  });

  it("uses the account's own limit over the default; 0 is unlimited and keeps no state", () => {
    // Prepare
    const { clock } = fakeClock();
    const limiter = new RateLimiter({ clock, defaultPerSecond: 5 });

    // Act + Assess
    expect(admitted(limiter, { id: 1, rateLimit: 1 }, 5)).toBe(2);
    expect(admitted(limiter, { id: 2, rateLimit: 0 }, 1000)).toBe(1000);
    expect(admitted(limiter, { id: 3, rateLimit: null }, 20)).toBe(10);
    expect(limiter.size).toBe(2);
    expect(admitted(new RateLimiter({ clock, defaultPerSecond: 0 }), { id: 1, rateLimit: null }, 1000)).toBe(1000);
  });

  it('keeps accounts apart', () => {
    const { clock } = fakeClock();
    const limiter = new RateLimiter({ clock, defaultPerSecond: 1 });
    expect(admitted(limiter, { id: 1, rateLimit: null }, 3)).toBe(2);
    expect(admitted(limiter, { id: 2, rateLimit: null }, 3)).toBe(2);
  });

  it('stays within its bound, forgetting the least recently used account first', () => {
    // Prepare: room for three accounts, each with its bucket spent
    const { clock } = fakeClock();
    const limiter = new RateLimiter({ clock, defaultPerSecond: 1, maxAccounts: 3 });
    for (const id of [1, 2, 3]) admitted(limiter, { id, rateLimit: null }, 2);
    admitted(limiter, { id: 1, rateLimit: null }, 1);

    // Act: a fourth account pushes out account 2, the least recently used
    admitted(limiter, { id: 4, rateLimit: null }, 1);

    // Assess: 2 starts over with a full bucket; 1 and 3 are still spent
    expect(limiter.size).toBe(3);
    expect(admitted(limiter, { id: 2, rateLimit: null }, 2)).toBe(2);
    expect(admitted(limiter, { id: 1, rateLimit: null }, 1)).toBe(0);
    expect(limiter.size).toBe(3);
    for (let id = 100; id < 1_100; id++) admitted(limiter, { id, rateLimit: null }, 1);
    expect(limiter.size).toBe(3);
  });

  it('takes a smaller limit at once: the bucket holds no more than the new burst', () => {
    const { clock } = fakeClock();
    const limiter = new RateLimiter({ clock, defaultPerSecond: 50 });
    expect(admitted(limiter, { id: 1, rateLimit: null }, 1)).toBe(1);
    expect(admitted(limiter, { id: 1, rateLimit: 2 }, 10)).toBe(4);
  });
});
