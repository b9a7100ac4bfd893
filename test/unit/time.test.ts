import {
  calendarDateProblem,
  endOfLocalDay,
  formatResponseTs,
  isCalendarDate,
  isSupportedDate,
  localDate,
  parseRequestTs,
} from '../../shared/domain/time';

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

  it('refuses other layouts and impossible dates, in words that follow the parameter name', () => {
    const layout = 'must be YYYY-MM-DD HH:MM:SS';
    expect(parseRequestTs('2026-03-02', 'UTC')).toBe(layout);
    expect(parseRequestTs('2026-03-02 00-30-05', 'UTC')).toBe(layout);
    expect(parseRequestTs('2026-02-30 00:00:00', 'UTC')).toBe(layout);
    expect(parseRequestTs('2026-03-02T00:30:05', 'UTC')).toBe(layout);
    expect(parseRequestTs('2026-02-29', 'UTC', { allowDate: true })).toBe('must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS');
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2028-02-29')).toBe(true);
  });

  it.each([
    ['hour 24, which luxon would read as the next midnight', '2026-03-01 24:00:00'],
    ['minute 60', '2026-03-01 10:60:00'],
    ['second 60', '2026-03-01 10:00:60'],
    ['month 13', '2026-13-01 10:00:00'],
    ['an expanded year', '+275760-09-13 00:00:00'],
    ['two spaces', '2026-03-01  10:00:00'],
  ])('refuses %s', (_, value) => {
    expect(parseRequestTs(value, 'UTC', { allowDate: true })).toBe('must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS');
  });

  describe('the supported range, 1970-01-01 through 9990-12-31', () => {
    const outside = 'must lie between 1970-01-01 00:00:00 and 9990-12-31 23:59:59';

    it('holds its edges and nothing past them', () => {
      expect([isSupportedDate('1970-01-01'), isSupportedDate('9990-12-31')]).toEqual([true, true]);
      expect([isSupportedDate('1969-12-31'), isSupportedDate('9991-01-01'), isSupportedDate('0000-01-01')]).toEqual([false, false, false]);
    });

    it('is read on the wall clock of the account zone, whatever day it is in UTC', () => {
      // Prepare: 1970-01-01 00:00 at UTC+14 is 1969 in UTC; 9990-12-31 23:59:59 at UTC-12 is 9991 in UTC.
      const east = parseRequestTs('1970-01-01 00:00:00', 'Etc/GMT-14');
      const west = parseRequestTs('9990-12-31 23:59:59', 'Etc/GMT+12');

      // Assess
      expect(east).toEqual(new Date('1969-12-31T10:00:00Z'));
      expect(west).toEqual(new Date('9991-01-01T11:59:59Z'));
      expect(parseRequestTs('1969-12-31 23:59:59', 'Etc/GMT+12')).toBe(outside);
      expect(parseRequestTs('9991-01-01 00:00:00', 'Etc/GMT-14')).toBe(outside);
      expect(parseRequestTs('9999-12-31', 'UTC', { allowDate: true, bareDateAs: 'endOfDay' })).toBe(outside);
      expect(parseRequestTs('0000-01-01 00:00:00', 'UTC')).toBe(outside);
    });

    it('bounds calendar-date inputs too', () => {
      expect(calendarDateProblem('9990-12-31')).toBeUndefined();
      expect(calendarDateProblem('2028-02-29')).toBeUndefined();
      expect(calendarDateProblem('9991-01-01')).toBe('must lie between 1970-01-01 and 9990-12-31');
      expect(calendarDateProblem('0000-01-01')).toBe('must lie between 1970-01-01 and 9990-12-31');
      expect(calendarDateProblem('2027-02-29')).toBe('must be a date, YYYY-MM-DD');
      expect(calendarDateProblem('+275760-09-13')).toBe('must be a date, YYYY-MM-DD');
    });
  });

  it('ends a calendar day at its last millisecond in the zone', () => {
    expect(endOfLocalDay('2026-11-22', 'Asia/Tashkent')).toEqual(new Date('2026-11-22T18:59:59.999Z'));
    expect(localDate(new Date('2026-11-22T20:00:00Z'), 'Asia/Tashkent')).toBe('2026-11-23');
  });
});
