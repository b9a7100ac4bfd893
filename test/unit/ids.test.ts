import { decodeTime, isValid } from 'ulid';
import { keyedUlid } from '../../shared/ids';

describe('keyedUlid', () => {
  const at = new Date('2031-05-06T07:08:09.010Z');

  it('gives the same ULID for the same key and instant, and another for another key', () => {
    // Act
    const first = keyedUlid(at, 'w1:52:DELIVRD');
    const again = keyedUlid(new Date(at), 'w1:52:DELIVRD');
    const other = keyedUlid(at, 'w2:52:DELIVRD');

    // Assess
    expect(isValid(first)).toBe(true);
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect(other.slice(0, 10)).toBe(first.slice(0, 10));
  });

  it('sorts by the instant it is given', () => {
    // Act
    const earlier = keyedUlid(at, 'zzz');
    const later = keyedUlid(new Date(at.getTime() + 1), 'aaa');

    // Assess
    expect(decodeTime(earlier)).toBe(at.getTime());
    expect(earlier < later).toBe(true);
  });
});
