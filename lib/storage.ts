import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { GSI1 } from '../shared/store/keys';

/**
 * The single table: generic keys and one account-scoped index, the same shape the local
 * runtime creates from shared/store/table.ts (the infra test holds the two together).
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
    this.table.addGlobalSecondaryIndex({
      indexName: GSI1,
      partitionKey: { name: 'gsi1pk', type: AttributeType.STRING },
      sortKey: { name: 'gsi1sk', type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
  }
}
