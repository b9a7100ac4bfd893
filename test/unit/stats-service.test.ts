import type { Counts } from '../../shared/domain/clicks';
import type { StatsType } from '../../shared/domain/stats';
import { StatsService } from '../../shared/domain/stats-service';
import { MemoryClickStore } from '../support/memory-clicks';
import { aLink, anAccount } from './operations/fakes';

const NOW = new Date('2026-11-22T12:34:56Z');
const ACCOUNT = anAccount({ id: 1 });

/** A service over in-memory links and buckets, the clock at NOW, recording which buckets it reads. */
function harness() {
  const clicks = new MemoryClickStore();
  const asked: string[] = [];
  const service = new StatsService({
    links: clicks.links,
    buckets: {
      buckets: (linkId, type, fromParam, toParam) => {
        asked.push(`${linkId} ${type} ${fromParam}..${toParam}`);
        return clicks.buckets(linkId, type, fromParam, toParam);
      },
    },
    clock: () => NOW,
  });
  const link = (id: number, accountId = ACCOUNT.id) => clicks.links.items.set(id, aLink({ id, accountId }));
  let seeds = 0;
  const counted = (linkId: number, type: StatsType, param: string, counts: Counts) =>
    clicks.addToBucket(linkId, type, param, `seed-${seeds++}`, counts);
  return { service, clicks, asked, link, counted };
}

describe('StatsService.linkStats', () => {
  it('has an item for every day of the interval, zero-filled, with clicks and redirects per link in request order', async () => {
    // Prepare
    const { service, asked, link, counted } = harness();
    link(1);
    link(2);
    await counted(1, 'daily', '2026-11-02', { clicks: 4, redirects: 3 });
    await counted(2, 'daily', '2026-11-02', { clicks: 1, redirects: 1 });
    await counted(2, 'daily', '2026-11-04', { clicks: 2, redirects: 0 });
    await counted(2, 'daily', '2026-11-05', { clicks: 50, redirects: 50 }); // past the interval
    await counted(2, 'hourly', '2026-11-03 10:00', { clicks: 7, redirects: 7 }); // another type

    // Act
    const stats = await service.linkStats(ACCOUNT, [2, 1], 'daily', new Date('2026-11-02T00:00:00Z'), new Date('2026-11-04T23:59:59Z'));

    // Assess
    expect(stats).toEqual({
      items: [
        { param: '2026-11-02', clicks0: 1, redirects0: 1, clicks1: 4, redirects1: 3 },
        { param: '2026-11-03', clicks0: 0, redirects0: 0, clicks1: 0, redirects1: 0 },
        { param: '2026-11-04', clicks0: 2, redirects0: 0, clicks1: 0, redirects1: 0 },
      ],
      totals: '7',
    });
    expect(asked).toEqual(['2 daily 2026-11-02..2026-11-04', '1 daily 2026-11-02..2026-11-04']);
  });

  it('shows links of other accounts, unknown ids and ids that are no number as links without clicks, reading no buckets of them', async () => {
    // Prepare
    const { service, clicks, asked, link, counted } = harness();
    link(1);
    link(2, 99);
    await counted(1, 'monthly', '2026-10', { clicks: 3, redirects: 2 });
    await counted(2, 'monthly', '2026-10', { clicks: 8, redirects: 8 });

    // Act
    const stats = await service.linkStats(
      ACCOUNT,
      [2, undefined, 1, 404],
      'monthly',
      new Date('2026-10-01T00:00:00Z'),
      new Date('2026-11-01T00:00:00Z'),
    );

    // Assess
    expect(stats.items).toEqual([
      { param: '2026-10', clicks0: 0, redirects0: 0, clicks1: 0, redirects1: 0, clicks2: 3, redirects2: 2, clicks3: 0, redirects3: 0 },
      { param: '2026-11', clicks0: 0, redirects0: 0, clicks1: 0, redirects1: 0, clicks2: 0, redirects2: 0, clicks3: 0, redirects3: 0 },
    ]);
    expect(stats.totals).toBe('3');
    expect(asked).toEqual(['1 monthly 2026-10..2026-11']);
    // The links are read eventually consistent: half a read unit each
    expect(clicks.links.reads.sort()).toEqual(['get:1:false', 'get:2:false', 'get:404:false']);
  });

  it('takes the last three hours ending at the clock for minute stats when no dates are given', async () => {
    // Prepare
    const { service, link, counted } = harness();
    link(1);
    await counted(1, 'minute', '2026-11-22 09:34', { clicks: 1, redirects: 1 });
    await counted(1, 'minute', '2026-11-22 09:33', { clicks: 9, redirects: 9 }); // before the interval
    await counted(1, 'minute', '2026-11-22 12:34', { clicks: 2, redirects: 1 });

    // Act
    const stats = await service.linkStats(ACCOUNT, [1], 'minute', undefined, undefined);

    // Assess
    expect(stats.items).toHaveLength(181);
    expect(stats.items[0]).toEqual({ param: '2026-11-22 09:34', clicks0: 1, redirects0: 1 });
    expect(stats.items[1]).toEqual({ param: '2026-11-22 09:35', clicks0: 0, redirects0: 0 });
    expect(stats.items.at(-1)).toEqual({ param: '2026-11-22 12:34', clicks0: 2, redirects0: 1 });
    expect(stats.totals).toBe('3');
  });

  it('reads hours in the account zone', async () => {
    // Prepare: Tashkent is UTC+05:00
    const { service, asked, link, counted } = harness();
    const tashkent = anAccount({ id: 1, timeZone: 'Asia/Tashkent' });
    link(1);
    await counted(1, 'hourly', '2026-11-22 01:00', { clicks: 5, redirects: 4 });

    // Act
    const stats = await service.linkStats(tashkent, [1], 'hourly', new Date('2026-11-21T19:00:00Z'), new Date('2026-11-21T21:30:00Z'));

    // Assess
    expect(stats.items).toEqual([
      { param: '2026-11-22 00:00', clicks0: 0, redirects0: 0 },
      { param: '2026-11-22 01:00', clicks0: 5, redirects0: 4 },
      { param: '2026-11-22 02:00', clicks0: 0, redirects0: 0 },
    ]);
    expect(asked).toEqual(['1 hourly 2026-11-22 00:00..2026-11-22 02:00']);
  });

  it('answers no items and a total of 0 for an interval that ends before it starts', async () => {
    // Prepare
    const { service, asked, link } = harness();
    link(1);

    // Act
    const stats = await service.linkStats(ACCOUNT, [1], 'daily', new Date('2026-11-05T00:00:00Z'), new Date('2026-11-01T00:00:00Z'));

    // Assess
    expect(stats).toEqual({ items: [], totals: '0' });
    expect(asked).toEqual([]);
  });
});
