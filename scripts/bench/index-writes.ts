import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { INDEXES, type IndexShape, partitionKeyOf, sortKeyOf } from '../../shared/store/table';

/**
 * What DynamoDB charges the table's global secondary indexes for one write, which dynalite
 * does not report (it returns the table's units only). From the item before and after the
 * write, per index in `INDEXES` (shared/store/table.ts), as the DynamoDB developer guide
 * states it for GSIs:
 * - an item that enters the index (both index keys now present): one put of its entry;
 * - an item that leaves it (an index key removed, or the item deleted): one delete;
 * - an index key changed: a delete of the old entry and a put of the new one;
 * - the keys unchanged but a projected attribute changed: one update of the entry;
 * each ceil(entry size / 1 KB) write units, the entry being the index keys, the table's
 * keys and the projected attributes. The 100 bytes DynamoDB adds per index entry count
 * towards storage, not towards write units, and are left out.
 */
export type Item = Record<string, AttributeValue>;

/** Index write units of one write, in all and per index (only indexes that were written). */
export function indexWriteUnits(
  before: Item | undefined,
  after: Item | undefined,
  indexes = INDEXES,
): { units: number; byIndex: Map<string, number> } {
  const byIndex = new Map<string, number>();
  for (const index of indexes) {
    const old = before && indexEntry(index, before);
    const next = after && indexEntry(index, after);
    let units = 0;
    if (old && next) {
      const keyMoved = [partitionKeyOf(index), sortKeyOf(index)].some((name) => !sameValue(old[name], next[name]));
      if (keyMoved) units = writeUnits(old) + writeUnits(next);
      else if (!sameItem(old, next)) units = writeUnits(next);
    } else if (old) units = writeUnits(old);
    else if (next) units = writeUnits(next);
    if (units > 0) byIndex.set(index.name, units);
  }
  return { units: [...byIndex.values()].reduce((sum, units) => sum + units, 0), byIndex };
}

/** The item's entry in `index`: its projected attributes, or undefined when the index does not hold it (a key missing). */
export function indexEntry(index: IndexShape, item: Item): Item | undefined {
  const indexKeys = [partitionKeyOf(index), sortKeyOf(index)];
  if (indexKeys.some((name) => item[name] === undefined)) return undefined;
  if (index.projection === 'ALL') return item;
  const entry: Item = {};
  for (const name of ['pk', 'sk', ...indexKeys, ...index.projection]) if (item[name] !== undefined) entry[name] = item[name]!;
  return entry;
}

/** Write units of an item (or index entry) of this size: one per started kilobyte. */
export function writeUnits(item: Item): number {
  return Math.max(1, Math.ceil(itemSize(item) / 1024));
}

/** An item's size as DynamoDB counts it: every attribute's name and value, in bytes. */
export function itemSize(item: Item): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += Buffer.byteLength(name) + valueSize(value);
  return size;
}

function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, s) => sum + Buffer.byteLength(s), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, n) => sum + numberSize(n), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, b) => sum + b.byteLength, 0);
  // Lists and maps: 3 bytes, plus each element and one byte per element (and a map's names).
  if (value.L !== undefined) return 3 + value.L.reduce((sum, element) => sum + valueSize(element) + 1, 0);
  if (value.M !== undefined) return 3 + Object.entries(value.M).reduce((sum, [name, v]) => sum + Buffer.byteLength(name) + valueSize(v) + 1, 0);
  return 0;
}

/** One byte per two significant digits, plus one. */
function numberSize(text: string): number {
  const digits = text.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

function sameValue(a: AttributeValue | undefined, b: AttributeValue | undefined): boolean {
  return JSON.stringify(a, binaryAsText) === JSON.stringify(b, binaryAsText);
}

function sameItem(a: Item, b: Item): boolean {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const name of names) if (!sameValue(a[name], b[name])) return false;
  return true;
}

function binaryAsText(_key: string, value: unknown): unknown {
  return value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value;
}
