import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { INDEXES, partitionKeyOf, sortKeyOf } from '../shared/store/table';

/**
 * The single table: generic keys and the indexes declared in shared/store/table.ts, the
 * same shape the local runtime creates (the infra test holds the two together).
 */
export class Storage extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string) {
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
    for (const index of INDEXES) {
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
