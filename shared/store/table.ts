import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The table's indexes (docs/data-model.md, section 3): one declaration the local runtime
 * creates the table from and the CDK storage construct mirrors (the infra test holds the
 * two together). Each index has generic key attributes `gsiNpk` / `gsiNsk`, shared by
 * entity types. Only key attributes are declared; everything else is schemaless.
 */
export interface IndexShape {
  name: string;
  sortKeyType: 'S' | 'N';
  /** The partition key attribute, when the index is partitioned by another index's (default `<name>pk`). */
  partitionKey?: string;
  /** The sort key attribute, when the index orders by another index's (default `<name>sk`). */
  sortKey?: string;
  /** ALL, or the non-key attributes copied into the index (none: KEYS_ONLY). */
  projection: 'ALL' | readonly string[];
}

/**
 * Attributes the list indexes carry besides their keys: those that never change after an
 * item is made and that the lists filter on, so that a status change rewrites only the
 * indexes whose keys move.
 */
export const LIST_INDEX_ATTRIBUTES = ['id', 'accountId', 'createdAt', 'from', 'to', 'campaignId', 'textHash'] as const;

const list = (n: number, sortKeyType: 'S' | 'N' = 'S'): IndexShape => ({ name: `gsi${n}`, sortKeyType, projection: LIST_INDEX_ATTRIBUTES });

export const INDEXES: readonly IndexShape[] = [
  { name: 'gsi1', sortKeyType: 'S', projection: 'ALL' },
  list(2),
  list(3, 'N'),
  list(4),
  list(5),
  list(6),
  list(7),
  list(8, 'N'),
  list(9),
  list(10),
  list(11),
  // Items whose counted change is not finished yet (shared/store/counted-writes.ts).
  { name: 'gsi12', sortKeyType: 'S', projection: [] },
  // A link's clickCnt order within its distinct comment: gsi3's key, so the rank pass moves both.
  { ...list(13, 'N'), sortKey: 'gsi3sk' },
  // A comment word's links (its word items, by flags) in clickCnt order: a copy of the link's gsi3sk the rank pass moves.
  { ...list(14, 'N'), sortKey: 'gsi3sk' },
  // A link's creation order within its distinct comment: gsi13's partitions, gsi7's key, no attribute of its own;
  // read for counts and ids only (the page's links are fetched), so the keys alone.
  { name: 'gsi15', sortKeyType: 'S', partitionKey: 'gsi13pk', sortKey: 'gsi7sk', projection: [] },
  // A comment word's links (its word items, by flags) in expirationDate, code and fullLink order: copies of the
  // link's gsi2sk, gsi4sk and gsi5sk on each word item, in gsi14's partitions; the item's sk gives the link, so the keys alone.
  ...[2, 4, 5].map((n, i): IndexShape => ({ name: `gsi${16 + i}`, sortKeyType: 'S', partitionKey: 'gsi14pk', sortKey: `gsi${n}sk`, projection: [] })),
  // A link's clickCnt order within its flags and UTC month of creation: gsi3's key, so the rank pass moves both.
  { ...list(19, 'N'), sortKey: 'gsi3sk' },
];

export const partitionKeyOf = (index: IndexShape) => index.partitionKey ?? `${index.name}pk`;
export const sortKeyOf = (index: IndexShape) => index.sortKey ?? `${index.name}sk`;
/** The sort key attribute of the index named. */
export const sortKeyNamed = (name: string) => sortKeyOf(INDEXES.find((index) => index.name === name) ?? { name, sortKeyType: 'S', projection: [] });

export function tableDefinition(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: 'S' },
      // An index that shares another's partition or sort key declares it once.
      ...INDEXES.flatMap((index) => [
        ...(index.partitionKey ? [] : [{ AttributeName: partitionKeyOf(index), AttributeType: 'S' as const }]),
        ...(index.sortKey ? [] : [{ AttributeName: sortKeyOf(index), AttributeType: index.sortKeyType }]),
      ]),
    ],
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: INDEXES.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: partitionKeyOf(index), KeyType: 'HASH' },
        { AttributeName: sortKeyOf(index), KeyType: 'RANGE' },
      ],
      Projection:
        index.projection === 'ALL'
          ? { ProjectionType: 'ALL' }
          : index.projection.length === 0
            ? { ProjectionType: 'KEYS_ONLY' }
            : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection] },
    })),
  };
}
