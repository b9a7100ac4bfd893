import type { Context } from 'aws-lambda';

const remainingTime = () => 30_000;
const ignore = () => undefined;

/** The Lambda context the local runtime hands to handlers, as Lambda would. */
export function lambdaContext(functionName: string, requestId: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/local/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: remainingTime,
    done: ignore,
    fail: ignore,
    succeed: ignore,
  };
}
