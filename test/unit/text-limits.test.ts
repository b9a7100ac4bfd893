import fc from 'fast-check';
import { characterCount, isLongerThan, lengthProblem, maxBytes } from '../../shared/domain/text-limits';

describe('text limits', () => {
  const ACUTE = '\u0301';

  it.each([
    ['plain letters', 'abc', 3],
    ['an emoji, two UTF-16 code units', '😀', 1],
    ['a letter with 1,600 combining marks, one grapheme', `a${ACUTE.repeat(1600)}`, 1601],
    ['a decomposed é', `e${ACUTE}`, 2],
    ['a lone surrogate', '\ud800', 1],
    ['nothing', '', 0],
  ])('counts code points: %s', (_, value, count) => {
    expect(characterCount(value)).toBe(count);
  });

  it('refuses more than the limit, counted in code points', () => {
    expect(isLongerThan('😀'.repeat(255), 255)).toBe(false);
    expect(isLongerThan('😀'.repeat(256), 255)).toBe(true);
    expect(isLongerThan(`a${ACUTE.repeat(1600)}`, 255)).toBe(true);
    expect(isLongerThan(`e${ACUTE}`.repeat(128), 255)).toBe(true);
    expect(isLongerThan(`e${ACUTE}`.repeat(127).concat('e'), 255)).toBe(false);
  });

  it('agrees with counting for any text, whatever its length against the limit', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 80 }),
        fc.nat(100),
        (value, max) => isLongerThan(value, max) === characterCount(value) > max,
      ),
    );
  });

  it('bounds the UTF-8 size of any text within a limit, lone surrogates included', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(fc.constant('\ud83d'), fc.constant('\udc00'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })),
          maxLength: 80,
        }),
        (value) => Buffer.byteLength(value, 'utf8') <= maxBytes(characterCount(value)),
      ),
    );
  });

  it('says what is too long in words', () => {
    expect(lengthProblem('Comment', 'x'.repeat(256), 255)).toBe('Comment must be at most 255 characters');
    expect(lengthProblem('Comment', 'x'.repeat(255), 255)).toBeUndefined();
  });
});
