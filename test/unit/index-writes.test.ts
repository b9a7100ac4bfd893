import { type Item, indexWriteUnits, itemSize } from '../../scripts/bench/index-writes';
import type { IndexShape } from '../../shared/store/table';

const S = (text: string) => ({ S: text });
const N = (value: number) => ({ N: String(value) });

/** One index projecting everything, one projecting a single attribute, one keys only. */
const INDEXES: IndexShape[] = [
  { name: 'gsi1', sortKeyType: 'S', projection: 'ALL' },
  { name: 'gsi3', sortKeyType: 'N', projection: ['id'] },
  { name: 'gsi12', sortKeyType: 'S', projection: [] },
];

const link: Item = {
  pk: S('LINK#1'),
  sk: S('#LINK'),
  id: N(1),
  clickCnt: N(0),
  gsi1pk: S('ACCOUNT#1'),
  gsi1sk: S('2026'),
  gsi3pk: S('A#1'),
  gsi3sk: N(1),
};

describe('indexWriteUnits', () => {
  it('charges one put per index an item enters, and nothing for an index whose keys it lacks', () => {
    const { units, byIndex } = indexWriteUnits(undefined, link, INDEXES);
    expect(Object.fromEntries(byIndex)).toEqual({ gsi1: 1, gsi3: 1 });
    expect(units).toBe(2);
  });

  it('charges an update of the entry when a projected attribute changes, and nothing where it is not projected', () => {
    const { byIndex } = indexWriteUnits(link, { ...link, clickCnt: N(1) }, INDEXES);
    expect(Object.fromEntries(byIndex)).toEqual({ gsi1: 1 });
  });

  it('charges a delete and a put when an index key moves', () => {
    const { byIndex } = indexWriteUnits(link, { ...link, clickCnt: N(1), gsi3sk: N(1_000_000_000_000_001) }, INDEXES);
    expect(Object.fromEntries(byIndex)).toEqual({ gsi1: 1, gsi3: 2 });
  });

  it('charges one delete per index an item leaves, by key removed or by the item deleted', () => {
    const { gsi3pk: _removed, ...withoutGsi3 } = link;
    expect(Object.fromEntries(indexWriteUnits(link, withoutGsi3, INDEXES).byIndex)).toEqual({ gsi1: 1, gsi3: 1 });
    expect(indexWriteUnits(link, undefined, INDEXES).units).toBe(2);
  });

  it('charges nothing when the write changed nothing (a failed condition)', () => {
    expect(indexWriteUnits(link, { ...link }, INDEXES).units).toBe(0);
  });

  it('charges a unit per started kilobyte of the entry, which for a partial projection is its keys and attributes', () => {
    const big = { ...link, messages: S('x'.repeat(2_500)) };
    const { byIndex } = indexWriteUnits(undefined, big, INDEXES);
    expect(Object.fromEntries(byIndex)).toEqual({ gsi1: 3, gsi3: 1 });
  });
});

describe('itemSize', () => {
  it('counts names and values as DynamoDB does: strings in UTF-8, numbers by significant digits', () => {
    expect(itemSize({ a: S('é') })).toBe(1 + 2);
    expect(itemSize({ n: N(12345) })).toBe(1 + 4);
    expect(itemSize({ n: { N: '1000' } })).toBe(1 + 2);
    expect(itemSize({ l: { L: [S('ab'), N(1)] } })).toBe(1 + 3 + 3 + 3);
  });
});
