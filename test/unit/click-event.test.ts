import fc from 'fast-check';
import { deltasOfPacked, type LinkDelta, packClicks, sumClicks } from '../../shared/domain/click-batches';
import { type ClickEvent, clickEventBody } from '../../shared/domain/clicks';
import { isoInstant } from '../../shared/domain/time';

describe('click events on the queue', () => {
  it.each<ClickEvent>([
    { linkId: 1, accountId: 2, at: '2026-11-23T10:00:00.000Z', visitor: 'human', redirected: true },
    { linkId: 9_007_199_254_740_991, accountId: 77, at: '2026-01-01T00:00:00.001Z', visitor: 'bot', redirected: false },
  ])('writes %j as the JSON it is', (click) => {
    expect(JSON.parse(clickEventBody(click))).toEqual(click);
  });

  it('gives the ISO time of each instant, also when instants repeat and alternate', () => {
    const instants = [0, 1, 1, 999, 1_000, 1, 1_764_000_000_123, 1_764_000_000_123, 1_764_000_000_124].map((ms) => new Date(ms));
    expect(instants.map(isoInstant)).toEqual(instants.map((date) => date.toISOString()));
  });
});

describe('a batch packed in its claim', () => {
  const ZONES = ['UTC', 'Asia/Tashkent', 'America/St_Johns', 'Etc/GMT+3', 'Asia/Kathmandu'];
  const event = fc.record<ClickEvent>({
    linkId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    accountId: fc.integer({ min: 1, max: 1_000_000 }),
    // Clicks of one batch lie within minutes of each other; any second of those minutes
    at: fc.integer({ min: 0, max: 3 * 3600_000 }).map((ms) => new Date(Date.UTC(2026, 10, 30, 22) + ms).toISOString()),
    visitor: fc.constantFrom('human', 'bot'),
    redirected: fc.boolean(),
  });
  /** Deltas in one order: by link, buckets by type and param. */
  const normal = (deltas: LinkDelta[]) =>
    [...deltas]
      .sort((a, b) => a.linkId - b.linkId)
      .map((delta) => ({ ...delta, buckets: [...delta.buckets].sort((a, b) => (`${a[0]}${a[1]}` < `${b[0]}${b[1]}` ? -1 : 1)) }));

  it('gives back what each link and bucket adds, in the zones it was packed with', () => {
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 60 }), (events) => {
        const zoneOf = (accountId: number) => ZONES[accountId % ZONES.length] ?? 'UTC';
        expect(normal(deltasOfPacked(packClicks(events, zoneOf)))).toEqual(normal(sumClicks(events, zoneOf)));
      }),
    );
  });

  it('takes a few bytes a click', () => {
    const events = Array.from(
      { length: 1000 },
      (_, i): ClickEvent => ({
        linkId: 5_000_000 + i,
        accountId: 42,
        at: new Date(Date.UTC(2026, 10, 30) + i * 90).toISOString(),
        visitor: 'human',
        redirected: true,
      }),
    );
    expect(Buffer.byteLength(packClicks(events, () => 'Europe/London'))).toBeLessThanOrEqual(8 * events.length);
  });
});
