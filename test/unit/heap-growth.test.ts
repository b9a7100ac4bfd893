import { boundHeapGrowth, DEFAULT_HEAP_GROWTH_PERCENT, heapGrowthPercent } from '../../shared/local/heap-growth';

describe('heapGrowthPercent', () => {
  it('bounds the growth at 100 % unless LOCAL_HEAP_GROWTH_PERCENT says otherwise', () => {
    expect(DEFAULT_HEAP_GROWTH_PERCENT).toBe(100);
    expect(heapGrowthPercent({})).toBe(100);
    expect(heapGrowthPercent({ LOCAL_HEAP_GROWTH_PERCENT: '' })).toBe(100);
    expect(heapGrowthPercent({ LOCAL_HEAP_GROWTH_PERCENT: '25' })).toBe(25);
    expect(heapGrowthPercent({ LOCAL_HEAP_GROWTH_PERCENT: '0' })).toBe(0);
  });

  it('refuses a value that is not a whole percentage from 0 to 300', () => {
    for (const value of ['-1', '301', '12.5', 'half']) {
      expect(() => heapGrowthPercent({ LOCAL_HEAP_GROWTH_PERCENT: value })).toThrow(
        `LOCAL_HEAP_GROWTH_PERCENT must be an integer from 0 to 300: ${value}`,
      );
    }
  });
});

describe('boundHeapGrowth', () => {
  it("sets V8's heap growing factor to the percentage", () => {
    // Prepare
    const flags: string[] = [];

    // Act
    boundHeapGrowth(DEFAULT_HEAP_GROWTH_PERCENT, (flag) => flags.push(flag));

    // Assess
    expect(flags).toEqual(['--heap-growing-percent=100']);
  });

  it('leaves V8 its own factor at 0', () => {
    const flags: string[] = [];
    boundHeapGrowth(0, (flag) => flags.push(flag));
    expect(flags).toEqual([]);
  });
});
