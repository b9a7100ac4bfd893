import fc from 'fast-check';
import { isLate, lastSettledDay } from '../../shared/store/day-rollups';

const HOUR = 60 * 60_000;

describe('settled days', () => {
  it('are late for a writer whose clock is up to an hour behind the reader, so no change to a day a reader takes from the roll-ups goes uncopied', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2027-01-01T00:00:00Z') }),
        fc.integer({ min: 0, max: HOUR }),
        (reader, behind) => {
          const day = lastSettledDay(new Date(reader));
          expect(isLate(day, new Date(reader - behind))).toBe(true);
        },
      ),
    );
  });

  it('leave a day of margin: the day after the last settled one is late already at the reader time', () => {
    const reader = Date.parse('2026-12-06T23:30:00Z');
    const day = lastSettledDay(new Date(reader));
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 24 * HOUR).toISOString().slice(0, 10);
    expect(isLate(next, new Date(reader))).toBe(true);
    expect(day).toBe('2026-12-02');
  });
});
