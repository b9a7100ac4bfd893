import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { INDEXES, partitionKeyOf, sortKeyOf } from '../shared/store/table';

export interface StorageProps {
  /**
   * Declares only the first `indexes` of INDEXES (default: all). CloudFormation adds at
   * most one global secondary index per table update, so a table of the previous version
   * (gsi1 only) reaches the full set by deploying 2, 3, … in turn (docs/data-model.md §9).
   */
  readonly indexes?: number;
}

/** `-c tableIndexes=N` (how many of the table's indexes to declare), if given. */
export function tableIndexesFromContext(scope: Construct): Pick<StorageProps, 'indexes'> {
  const value: unknown = scope.node.tryGetContext('tableIndexes');
  if (value === undefined || value === '') return {};
  const indexes = Number(value);
  if (!Number.isInteger(indexes) || indexes < 1 || indexes > INDEXES.length) {
    throw new Error(`Context tableIndexes must be a whole number from 1 to ${INDEXES.length}: ${String(value)}`);
  }
  return { indexes };
}

/**
 * The single table: generic keys and the indexes declared in shared/store/table.ts, the
 * same shape the local runtime creates (the infra test holds the two together).
 */
export class Storage extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: StorageProps = {}) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Links and accounts outlive any stack: deleting the stack must not delete them.
      removalPolicy: RemovalPolicy.RETAIN,
      // Bookkeeping items (click batch claims) carry an epoch-seconds `ttl` to expire by.
      timeToLiveAttribute: 'ttl',
    });
    for (const index of INDEXES.slice(0, props.indexes ?? INDEXES.length)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: partitionKeyOf(index), type: AttributeType.STRING },
        sortKey: { name: sortKeyOf(index), type: index.sortKeyType === 'N' ? AttributeType.NUMBER : AttributeType.STRING },
        ...(index.projection === 'ALL'
          ? { projectionType: ProjectionType.ALL }
          : index.projection.length === 0
            ? { projectionType: ProjectionType.KEYS_ONLY }
            : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection] }),
      });
    }
  }
}
