import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface StoreSettings {
  tableName: string;
  region: string;
  /** Set for dynalite; unset on AWS. */
  dynamoEndpoint?: string | undefined;
}

/** The table name and a document client: what every repository is built on. */
export interface Store {
  tableName: string;
  db: DynamoDBDocumentClient;
}

/**
 * `client`: settings of the SDK client beyond these; the local runtime gives its own for
 * dynalite (shared/local/store-client.ts), which the Lambda functions' bundles then leave out.
 */
export function createStore(settings: StoreSettings, client: Partial<DynamoDBClientConfig> = {}): Store {
  const endpoint = settings.dynamoEndpoint;
  const dynamo = new DynamoDBClient({
    region: settings.region,
    ...(endpoint !== undefined && {
      endpoint,
      // dynalite accepts any credentials; fixed ones keep the SDK from searching for some.
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    maxAttempts: 3,
    ...client,
  });
  const db = DynamoDBDocumentClient.from(dynamo, {
    marshallOptions: { removeUndefinedValues: true },
    // Numeric index keys (a link's click count and id in one number) outgrow a double:
    // whole numbers beyond 2^53 come back as bigint, every other number as a number.
    unmarshallOptions: { wrapNumbers: readNumber },
  });
  return { tableName: settings.tableName, db };
}

function readNumber(text: string): number | bigint {
  const value = Number(text);
  return Number.isSafeInteger(value) || !/^-?\d+$/.test(text) ? value : BigInt(text);
}
