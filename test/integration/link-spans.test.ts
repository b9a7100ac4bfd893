import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../../shared/store/client';
import { readMerged } from '../../shared/store/index-reader';
import { countBefore, readSpan } from '../../shared/store/link-spans';
import { startTestStore } from '../support/dynamo';

let store: Store;
let close: () => Promise<void>;

/**
 * 1,002 keys of one partition of a string-keyed index (gsi5, the fullLink order) in UTF-8
 * order: 999 plain ones, then `…/ﬀ` (U+FB00), `…/𝒜` (U+1D49C) and `…/𝒞` (U+1D49E): UTF-16
 * puts the last two before `ﬀ`. A read's first page is 1,000 entries: it ends on `ﬀ`.
 */
const PARTITION = 'ACCOUNT#1#LINKS#0';
const PLAIN = Array.from({ length: 999 }, (_, i) => `URL#https://b.test/a${String(i).padStart(4, '0')}`);
const KEYS = [...PLAIN, 'URL#https://b.test/ﬀ', 'URL#https://b.test/𝒜', 'URL#https://b.test/𝒞'];

beforeAll(async () => {
  ({ store, close } = await startTestStore());
  for (let start = 0; start < KEYS.length; start += 25) {
    await store.db.send(
      new BatchWriteCommand({
        RequestItems: {
          [store.tableName]: KEYS.slice(start, start + 25).map((key, i) => ({
            PutRequest: { Item: { pk: `LINK#${start + i}`, sk: '#LINK', gsi5pk: PARTITION, gsi5sk: key } },
          })),
        },
      }),
    );
  }
}, 120_000);
afterAll(() => close());

const range = { index: 'gsi5' as const, pk: PARTITION };
const keysOf = (entries: Record<string, unknown>[]) => entries.map((entry) => entry.gsi5sk);

describe('reads between sort keys that UTF-16 and UTF-8 order differently', () => {
  it('are refused by dynalite as key conditions once a page starts between them (why readSpan does not send them)', async () => {
    // The 1,000th key (ﬀ) lies below 𝒜 in UTF-8, above it in UTF-16: the second page's start key fails dynalite's check.
    const between = { ...range, sk: { between: [KEYS[0] as string, 'URL#https://b.test/𝒜'] as [string, string] } };
    await expect(readMerged(store, [between], { forward: true, skip: 0, take: Number.MAX_SAFE_INTEGER })).rejects.toThrow(
      'does not match the range key predicate',
    );
  });

  it('read every key of the span in UTF-8 order, both ways, across the page the refused read broke on', async () => {
    const span: [string, string] = [KEYS[0] as string, 'URL#https://b.test/𝒜'];
    const forward = await readSpan(store, [range], span, true);
    const backward = await readSpan(store, [range], span, false);

    expect(keysOf(forward)).toEqual(KEYS.slice(0, 1001));
    expect(keysOf(backward)).toEqual(KEYS.slice(0, 1001).reverse());
  });

  it('count the keys before a bound that UTF-16 and UTF-8 order differently, both ways', async () => {
    expect(await countBefore(store, [range], 'URL#https://b.test/𝒜', true)).toBe(1000);
    expect(await countBefore(store, [range], 'URL#https://b.test/ﬀ', false)).toBe(2);
  });
});
