import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';

/** The Authorization header dynalite wants: it checks the header's form, never its signature. */
const LOCAL_AUTHORIZATION = 'AWS4-HMAC-SHA256 Credential=local/20000101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0';

/**
 * The store client for dynalite (the local runtime gives it to `createStore`): what it can
 * skip, and how it treats its connections. Locally every item of every operation, the
 * redirect's reads and the aggregator's writes included, is a request to dynalite on
 * this machine, and the SDK's own work per request (signing, resolving the endpoint)
 * took about a fifth of the main thread under load:
 * - the endpoint is the one given, without the endpoint rules;
 * - requests carry a fixed Authorization header of the SigV4 form rather than a
 *   signature (dynalite checks that the header is there, not what it says);
 * - up to 256 connections, where the SDK's default is 50: the redirects' reads and the
 *   aggregator's writes in flight together exceed 50, and waiting for a socket would
 *   queue one behind the other here rather than at dynalite;
 * - a connection idle for 2 s is closed by the client, well before dynalite's server
 *   closes it (5 s, which the client otherwise takes as its own bound less a second):
 *   a busy machine runs the client's timers late, and a request sent on a connection
 *   the server is closing fails with ECONNRESET ('socket hang up');
 * - such a failure is retried at once, up to LOCAL_ATTEMPTS, without the SDK's retry
 *   quota. The quota (500 tokens, 5 a retry) keeps a client from piling retries on a
 *   remote service in trouble; here a burst of connections reset after a pause (all of
 *   them idle together) spent it, and every call after it failed on its first reset.
 */
export function localStoreClient(endpoint: string): Partial<DynamoDBClientConfig> {
  const url = new URL(endpoint);
  return {
    endpointProvider: () => ({ url }),
    httpAuthSchemes: [
      {
        schemeId: 'aws.auth#sigv4',
        identityProvider: (config) => config.getIdentityProvider('aws.auth#sigv4'),
        signer: {
          sign: async (request) => {
            request.headers.authorization = LOCAL_AUTHORIZATION;
            request.headers['x-amz-date'] = '20000101T000000Z';
            return request;
          },
        },
      },
    ],
    requestHandler: { httpAgent: { keepAlive: true, maxSockets: 256, timeout: LOCAL_IDLE_MS } },
    retryStrategy: localRetries,
  };
}

const LOCAL_IDLE_MS = 2_000;
/** Attempts of a local request (the first included) that fails with a reset connection or a throttle. */
export const LOCAL_ATTEMPTS = 5;

type RetryStrategyV2 = Extract<NonNullable<DynamoDBClientConfig['retryStrategy']>, { acquireInitialRetryToken: unknown }>;
type RetryToken = Awaited<ReturnType<RetryStrategyV2['acquireInitialRetryToken']>>;

const retryToken = (count: number): RetryToken => ({ getRetryCount: () => count, getRetryDelay: () => 0 });

/** Retries what the SDK deems transient (a reset connection, a 5xx) or a throttle, at once and without a quota. */
const localRetries: RetryStrategyV2 = {
  acquireInitialRetryToken: async () => retryToken(0),
  refreshRetryTokenForRetry: async (token, error) => {
    const attempts = token.getRetryCount() + 1;
    if (attempts >= LOCAL_ATTEMPTS || (error.errorType !== 'TRANSIENT' && error.errorType !== 'THROTTLING')) {
      throw new Error('No retry token available');
    }
    return retryToken(attempts);
  },
  recordSuccess: () => {},
};
