import { isCodeShaped, LinkCodec } from '../../shared/domain/link-code';

describe('LinkCodec', () => {
  const codec = new LinkCodec('k'.repeat(64));

  it('gives the first 36^4 ids distinct 4-character codes that decode back', () => {
    // Prepare: a sample across the whole 4-character tier
    const ids = [1, 2, 3, 1000, 65_536, 1_679_615, 1_679_616];
    const seen = new Set<string>();
    for (let id = 1; id <= 50_000; id++) seen.add(codec.encode(id));

    // Assess
    expect(seen.size).toBe(50_000);
    for (const id of ids) {
      const code = codec.encode(id);
      expect(code).toMatch(/^[0-9a-z]{4}$/);
      expect(codec.decode(code)).toBe(id);
    }
  });

  it('moves to 5 characters once the 4-character space is used up', () => {
    expect(codec.encode(1_679_617)).toMatch(/^[0-9a-z]{5}$/);
    expect(codec.decode(codec.encode(1_679_617))).toBe(1_679_617);
    expect(codec.decode(codec.encode(10 ** 12))).toBe(10 ** 12);
  });

  it('does not hand out neighbouring codes to neighbouring ids', () => {
    const codes = Array.from({ length: 100 }, (_, i) => parseInt(codec.encode(i + 1), 36));
    const steps = codes.slice(1).map((code, i) => Math.abs(code - codes[i]!));
    // Sequential codes would step by 1; a permutation scatters them across the tier.
    expect(steps.filter((step) => step < 1000).length).toBeLessThan(5);
  });

  it('depends on the secret', () => {
    const other = new LinkCodec('z'.repeat(64));
    const same = Array.from({ length: 50 }, (_, i) => i + 1).filter((id) => other.encode(id) === codec.encode(id));
    expect(same.length).toBeLessThan(3);
  });

  it('decodes every 4-character string to some id and rejects what cannot be a code', () => {
    expect(codec.decode('zzzz')).toBeGreaterThanOrEqual(1);
    expect(codec.decode('abc')).toBeUndefined();
    expect(codec.decode('ABCD')).toBeUndefined();
    expect(codec.decode('ab-d')).toBeUndefined();
    expect(isCodeShaped('a'.repeat(11))).toBe(false);
  });

  it('refuses a short secret and ids outside its range', () => {
    expect(() => new LinkCodec('short')).toThrow('at least 32');
    expect(() => codec.encode(0)).toThrow(RangeError);
    expect(() => codec.encode(1.5)).toThrow(RangeError);
  });
});
