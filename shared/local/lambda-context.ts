import type { Context } from 'aws-lambda';

/** The Lambda context the local runtime hands to handlers, as Lambda would (one per invocation, cheap to make). */
class LocalContext implements Context {
  callbackWaitsForEmptyEventLoop = false;
  readonly functionVersion = '$LATEST';
  readonly memoryLimitInMB = '1024';
  readonly logStreamName = 'local';

  constructor(
    readonly functionName: string,
    readonly awsRequestId: string,
  ) {}

  get invokedFunctionArn(): string {
    return `arn:aws:lambda:local:000000000000:function:${this.functionName}`;
  }

  get logGroupName(): string {
    return `/local/${this.functionName}`;
  }

  getRemainingTimeInMillis(): number {
    return 30_000;
  }

  done(): void {}
  fail(): void {}
  succeed(): void {}
}

export function lambdaContext(functionName: string, requestId: string): Context {
  return new LocalContext(functionName, requestId);
}
