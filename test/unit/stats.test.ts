import { bucketsOf, statsInterval } from '../../shared/domain/stats';

describe('bucketsOf', () => {
  it('buckets a click by the account zone, including half-hour offsets', () => {
    const at = new Date('2026-11-30T20:10:30Z');
    expect(bucketsOf(at, 'UTC')).toEqual({ monthly: '2026-11', daily: '2026-11-30', hourly: '2026-11-30 20:00', minute: '2026-11-30 20:10' });
    expect(bucketsOf(at, 'Asia/Tashkent')).toEqual({
      monthly: '2026-12',
      daily: '2026-12-01',
      hourly: '2026-12-01 01:00',
      minute: '2026-12-01 01:10',
    });
    // UTC−03:30 (Newfoundland standard time): local hours start at half past UTC hours.
    expect(bucketsOf(new Date('2026-12-01T03:20:00Z'), 'America/St_Johns')).toEqual({
      monthly: '2026-11',
      daily: '2026-11-30',
      hourly: '2026-11-30 23:00',
      minute: '2026-11-30 23:50',
    });
  });
});

describe('statsInterval', () => {
  const now = new Date('2026-11-22T12:34:56Z');
  const at = (iso: string) => new Date(iso);

  it('uses the last maximum interval, ending now, when neither end is given', () => {
    const interval = statsInterval('minute', undefined, undefined, now, 'UTC');
    expect(interval.from).toEqual(at('2026-11-22T09:34:56Z'));
    expect(interval.to).toEqual(now);
    expect(interval.params[0]).toBe('2026-11-22 09:34');
    expect(interval.params.at(-1)).toBe('2026-11-22 12:34');
    expect(interval.params).toHaveLength(181);
  });

  it('uses the maximum interval from dateFrom when only dateFrom is given or the gap is too long', () => {
    const fromOnly = statsInterval('daily', at('2026-01-01T00:00:00Z'), undefined, now, 'UTC');
    expect(fromOnly.to).toEqual(at('2026-04-01T00:00:00Z'));
    expect(fromOnly.params).toHaveLength(91);
    const tooLong = statsInterval('hourly', at('2026-01-01T00:00:00Z'), at('2026-03-01T00:00:00Z'), now, 'UTC');
    expect(tooLong.to).toEqual(at('2026-01-08T00:00:00Z'));
    expect(tooLong.params).toHaveLength(169);
  });

  it('uses the maximum interval ending at dateTo when only dateTo is given', () => {
    const interval = statsInterval('monthly', undefined, at('2026-06-15T00:00:00Z'), now, 'UTC');
    expect(interval.from).toEqual(at('2023-06-15T00:00:00Z'));
    expect(interval.params[0]).toBe('2023-06');
    expect(interval.params.at(-1)).toBe('2026-06');
  });

  it('keeps an interval within the maximum as given, in the account zone', () => {
    const interval = statsInterval('hourly', at('2026-11-21T19:00:00Z'), at('2026-11-21T21:30:00Z'), now, 'Asia/Tashkent');
    expect(interval.params).toEqual(['2026-11-22 00:00', '2026-11-22 01:00', '2026-11-22 02:00']);
  });
});
