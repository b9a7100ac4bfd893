import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { INDEXES, type IndexShape, partitionKeyOf, sortKeyOf } from './table';

/** The ranges the index readers (index-reader.ts) read, and the Query of one. */

/** An index entry: the table's pk and sk, the index keys and the projected attributes. */
export type Entry = Record<string, NativeAttributeValue>;
export type SortValue = string | number | bigint;

export interface IndexRange {
  /** A GSI's name, or TABLE for the table's own keys (pk, sk). */
  index: string;
  /** The index partition key's value. */
  pk: string;
  /** Sort key condition; bounds are inclusive. None: the whole partition. */
  sk?: { beginsWith: string } | { between: [SortValue, SortValue] } | { from: SortValue } | { to: SortValue };
  /** The entries a filtered read is expected to need from this range: its first Limit (else up to FIRST_LIMIT_CAP). */
  expect?: number;
  /** What the merge orders this range's entries by, when not their sort key itself (their order within the range must follow it). */
  order?: (entry: Entry) => SortValue;
  /** Conditions on projected attributes the read itself checks (all of them): see Condition. */
  where?: Condition[];
}

/**
 * A condition on a projected attribute that the index read checks itself (a
 * FilterExpression): the entries it leaves out cost their read units all the same, but are
 * neither sent nor parsed, which is most of a filtered read's time. It only spares the
 * transfer: a read's `keep` still decides, so a condition must hold for every entry `keep`
 * would take (it may let others through).
 */
export type Condition =
  | { attribute: string; equals: NativeAttributeValue }
  | { attribute: string; contains: string }
  | { attribute: string; from?: string; to?: string };

/**
 * Instants in [from, to] as a condition on an attribute of ISO instants, a second wider at
 * each end (to the second, and all of its last second): an instant written without its
 * milliseconds still passes, and the read's `keep` decides the edges.
 */
export function instantCondition(attribute: string, from?: Date, to?: Date): Condition {
  return { attribute, from: from?.toISOString().slice(0, 19), to: to && `${to.toISOString().slice(0, 19)}~` };
}

/** IndexRange.index for a range of the table's own keys. */
export const TABLE = 'table';

/** The Query input of a range (without Limit and start key). */
export function queryOf(store: Store, range: IndexRange, forward: boolean) {
  const shape = indexShape(range.index);
  const names: Record<string, string> = { '#pk': keyOf(shape) };
  const values: Record<string, NativeAttributeValue> = { ':pk': range.pk };
  let condition = '#pk = :pk';
  const sk = range.sk;
  if (sk) {
    names['#sk'] = rangeKeyOf(shape);
    if ('beginsWith' in sk) {
      condition += ' AND begins_with(#sk, :prefix)';
      values[':prefix'] = sk.beginsWith;
    } else if ('between' in sk) {
      condition += ' AND #sk BETWEEN :low AND :high';
      [values[':low'], values[':high']] = sk.between;
    } else if ('from' in sk) {
      condition += ' AND #sk >= :low';
      values[':low'] = sk.from;
    } else {
      condition += ' AND #sk <= :high';
      values[':high'] = sk.to;
    }
  }
  const filter = range.where && filterOf(range.where, names, values);
  return {
    TableName: store.tableName,
    IndexName: shape === TABLE_SHAPE ? undefined : shape.name,
    KeyConditionExpression: condition,
    ...(filter && { FilterExpression: filter }),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: forward,
  };
}

/** The FilterExpression of `conditions` (none: undefined), their names and values added to the query's. */
function filterOf(conditions: Condition[], names: Record<string, string>, values: Record<string, NativeAttributeValue>): string | undefined {
  const terms: string[] = [];
  conditions.forEach((condition, i) => {
    const name = `#w${i}`;
    names[name] = condition.attribute;
    const value = (suffix: string, v: NativeAttributeValue) => {
      values[`:w${i}${suffix}`] = v;
      return `:w${i}${suffix}`;
    };
    if ('equals' in condition) terms.push(`${name} = ${value('', condition.equals)}`);
    else if ('contains' in condition) terms.push(`contains(${name}, ${value('', condition.contains)})`);
    else {
      if (condition.from !== undefined) terms.push(`${name} >= ${value('a', condition.from)}`);
      if (condition.to !== undefined) terms.push(`${name} <= ${value('b', condition.to)}`);
    }
  });
  return terms.length > 0 ? terms.join(' AND ') : undefined;
}

const TABLE_SHAPE: IndexShape = { name: TABLE, sortKeyType: 'S', projection: 'ALL' };
const keyOf = (shape: IndexShape) => (shape === TABLE_SHAPE ? 'pk' : partitionKeyOf(shape));
export const rangeKeyOf = (shape: IndexShape) => (shape === TABLE_SHAPE ? 'sk' : sortKeyOf(shape));

export function indexShape(name: string): IndexShape {
  if (name === TABLE) return TABLE_SHAPE;
  const shape = INDEXES.find((index) => index.name === name);
  if (!shape) throw new Error(`No index ${name}`);
  return shape;
}
