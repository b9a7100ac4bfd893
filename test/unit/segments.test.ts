import { countSegments, encodingOf, splitSegments } from '../../shared/domain/segments';

describe('countSegments', () => {
  it.each([
    ['', 'GSM-7', 0],
    ['a'.repeat(160), 'GSM-7', 1],
    ['a'.repeat(161), 'GSM-7', 2],
    ['a'.repeat(306), 'GSM-7', 2],
    ['a'.repeat(307), 'GSM-7', 3],
    ['€'.repeat(80), 'GSM-7', 1],
    ['€'.repeat(81), 'GSM-7', 2],
    ['я'.repeat(70), 'UCS-2', 1],
    ['я'.repeat(71), 'UCS-2', 2],
    ['я'.repeat(134), 'UCS-2', 2],
    ['я'.repeat(135), 'UCS-2', 3],
  ])('counts %j as %s in %i segments', (text, encoding, segments) => {
    expect(countSegments(text)).toMatchObject({ encoding, segments });
  });

  it('counts extension characters as two septets', () => {
    expect(countSegments('[]{}').units).toBe(8);
    expect(countSegments('Price: 5€').units).toBe(10);
  });

  it('never splits an escape sequence across parts', () => {
    // 152 plain septets then a 2-septet character: it cannot end part one, so it opens part two.
    expect(countSegments(`${'a'.repeat(152)}€${'a'.repeat(151)}`).segments).toBe(2);
    expect(countSegments(`${'a'.repeat(152)}€${'a'.repeat(152)}`).segments).toBe(3);
  });

  it('never splits a surrogate pair across parts', () => {
    expect(countSegments(`${'я'.repeat(66)}😀${'я'.repeat(65)}`)).toMatchObject({ encoding: 'UCS-2', units: 133, segments: 2 });
    expect(countSegments(`${'я'.repeat(66)}😀${'я'.repeat(66)}`).segments).toBe(3);
  });

  it('switches to UCS-2 for any character outside both GSM tables', () => {
    expect(encodingOf('Hello ç')).toBe('UCS-2'); // only capital Ç is in GSM 03.38
    expect(encodingOf('Hello Ç')).toBe('GSM-7');
    expect(encodingOf('Tab\there')).toBe('UCS-2');
  });
});

describe('splitSegments', () => {
  it('keeps a text that fits one message whole, and gives nothing for an empty one', () => {
    expect(splitSegments('a'.repeat(160))).toEqual(['a'.repeat(160)]);
    expect(splitSegments('я'.repeat(70))).toEqual(['я'.repeat(70)]);
    expect(splitSegments('')).toEqual([]);
  });

  it('cuts GSM-7 texts at 153 septets, moving an escaped character whole to the next part', () => {
    expect(splitSegments('a'.repeat(307))).toEqual(['a'.repeat(153), 'a'.repeat(153), 'a']);
    expect(splitSegments(`${'a'.repeat(152)}€${'b'.repeat(10)}`)).toEqual(['a'.repeat(152), `€${'b'.repeat(10)}`]);
  });

  it('cuts UCS-2 texts at 67 code units, never inside a surrogate pair', () => {
    expect(splitSegments('я'.repeat(135))).toEqual(['я'.repeat(67), 'я'.repeat(67), 'я']);
    expect(splitSegments(`${'я'.repeat(66)}😀${'ю'.repeat(5)}`)).toEqual(['я'.repeat(66), `😀${'ю'.repeat(5)}`]);
  });

  it.each(['a'.repeat(1530), `${'x€'.repeat(200)}`, 'Привет, мир! '.repeat(30), `${'😀'.repeat(100)}`])(
    'gives back the text and as many parts as countSegments counts (%#)',
    (text) => {
      const parts = splitSegments(text);
      expect(parts.join('')).toBe(text);
      expect(parts).toHaveLength(countSegments(text).segments);
    },
  );
});
