import { endOfLocalDay, formatResponseTs, isCalendarDate, localDate, parseRequestTs } from '../../shared/domain/time';

describe('time', () => {
  const instant = new Date('2026-03-01T19:30:05Z');

  it('formats responses as YYYY-MM-DD HH-MM-SS in the account zone', () => {
    expect(formatResponseTs(instant, 'UTC')).toBe('2026-03-01 19-30-05');
    expect(formatResponseTs(instant, 'Asia/Tashkent')).toBe('2026-03-02 00-30-05');
    expect(formatResponseTs('2026-03-01T19:30:05.000Z', 'America/St_Johns')).toBe('2026-03-01 16-00-05');
  });

  it('parses request times in the account zone', () => {
    expect(parseRequestTs('2026-03-02 00:30:05', 'Asia/Tashkent')).toEqual(instant);
    expect(parseRequestTs('2026-03-02', 'Asia/Tashkent', { allowDate: true })).toEqual(new Date('2026-03-01T19:00:00Z'));
    expect(parseRequestTs('2026-03-02', 'UTC', { allowDate: true, bareDateAs: 'endOfDay' })).toEqual(new Date('2026-03-02T23:59:59.999Z'));
  });

  it('refuses other layouts and impossible dates', () => {
    expect(parseRequestTs('2026-03-02', 'UTC')).toBeUndefined();
    expect(parseRequestTs('2026-03-02 00-30-05', 'UTC')).toBeUndefined();
    expect(parseRequestTs('2026-02-30 00:00:00', 'UTC')).toBeUndefined();
    expect(parseRequestTs('2026-03-02T00:30:05', 'UTC')).toBeUndefined();
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2028-02-29')).toBe(true);
  });

  it('ends a calendar day at its last millisecond in the zone', () => {
    expect(endOfLocalDay('2026-11-22', 'Asia/Tashkent')).toEqual(new Date('2026-11-22T18:59:59.999Z'));
    expect(localDate(new Date('2026-11-22T20:00:00Z'), 'Asia/Tashkent')).toBe('2026-11-23');
  });
});
