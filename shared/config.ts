import { readFileSync } from 'node:fs';
import { DEFAULT_API_RATE_LIMIT } from './domain/rate-limit';
import { secretSetting } from './secrets';
import type { AwsSmsSettings } from './sms/aws';
import type { KannelSettings } from './sms/kannel';

/**
 * Settings every process reads from its environment, once, at start. Missing required
 * settings fail here, at cold start, rather than on the first request.
 */
export interface Config {
  tableName: string;
  /** DynamoDB endpoint override (dynalite locally); unset on AWS. */
  dynamoEndpoint: string | undefined;
  region: string;
  /**
   * `{short_link_base}`: short links are `${shortLinkBase}/${code}`. Every API function
   * needs it (apiHandler refuses to start without); the redirect does not.
   */
  shortLinkBase: string | undefined;
  /** How long a container trusts what it read about an API key and its account. */
  authCacheTtlMs: number;
  /** API requests per second an account may make unless it has its own limit; 0: unlimited. */
  apiRateLimit: number;
  /** How long the redirect trusts a cached link (and a cached "no such code"). */
  linkCacheTtlMs: number;
  /** SQS queue URLs on AWS; unset locally, where queues are in-process. */
  clickQueueUrl: string | undefined;
  smsQueueUrl: string | undefined;
  webhookQueueUrl: string | undefined;
  /** The signature sends use when an account has no usable one of its own. */
  serviceSignature: string;
  /** Delay of the simulator gateway's delivery reports. */
  simulatorLatencyMs: number;
  simulatorSubmitDelayMs: number;
  /** Which gateway sends: the built-in simulator (default) or Kannel. */
  smsGateway: 'simulator' | 'kannel' | 'aws';
  kannel: KannelSettings | undefined;
  aws: AwsSmsSettings | undefined;
  /** Webhooks may point at loopback, private, link-local and reserved addresses (off by default). */
  webhookAllowPrivateTargets: boolean;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const shortLinkBase = env.SHORT_LINK_BASE ? env.SHORT_LINK_BASE.replace(/\/+$/, '') : undefined;
  if (shortLinkBase !== undefined && !URL.canParse(shortLinkBase)) throw new Error(`SHORT_LINK_BASE is not a URL: ${shortLinkBase}`);
  return {
    tableName: env.TABLE_NAME ?? 'shortsms',
    dynamoEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    shortLinkBase,
    authCacheTtlMs: integer(env, 'AUTH_CACHE_TTL_MS', 5000),
    apiRateLimit: integer(env, 'API_RATE_LIMIT', DEFAULT_API_RATE_LIMIT),
    linkCacheTtlMs: integer(env, 'LINK_CACHE_TTL_MS', 5000),
    clickQueueUrl: env.CLICK_QUEUE_URL || undefined,
    smsQueueUrl: env.SMS_QUEUE_URL || undefined,
    webhookQueueUrl: env.WEBHOOK_QUEUE_URL || undefined,
    serviceSignature: env.SERVICE_SIGNATURE || 'SMSService',
    simulatorLatencyMs: integer(env, 'SIMULATOR_LATENCY_MS', 500),
    simulatorSubmitDelayMs: integer(env, 'SIMULATOR_SUBMIT_DELAY_MS', 0),
    webhookAllowPrivateTargets: flag(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'),
    ...gatewaySettings(env, shortLinkBase),
  };
}

function gatewaySettings(env: NodeJS.ProcessEnv, shortLinkBase: string | undefined): Pick<Config, 'smsGateway' | 'kannel' | 'aws'> {
  const gateway = env.SMS_GATEWAY || 'simulator';
  if (gateway === 'simulator') return { smsGateway: 'simulator', kannel: undefined, aws: undefined };
  if (gateway === 'aws') {
    const configurationSetName = env.AWS_SMS_CONFIGURATION_SET;
    if (!configurationSetName) throw new Error('Missing required setting AWS_SMS_CONFIGURATION_SET (SMS_GATEWAY=aws)');
    const messageType = env.AWS_SMS_MESSAGE_TYPE || 'TRANSACTIONAL';
    if (messageType !== 'TRANSACTIONAL' && messageType !== 'PROMOTIONAL')
      throw new Error(`AWS_SMS_MESSAGE_TYPE must be TRANSACTIONAL or PROMOTIONAL: ${messageType}`);
    return {
      smsGateway: 'aws',
      kannel: undefined,
      aws: {
        region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
        configurationSetName,
        originationIdentity: env.AWS_SMS_ORIGINATION_IDENTITY || undefined,
        messageType,
      },
    };
  }
  if (gateway !== 'kannel') throw new Error(`SMS_GATEWAY must be simulator, kannel or aws: ${gateway}`);
  const required = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`Missing required setting ${name} (SMS_GATEWAY=kannel)`);
    return value;
  };
  const reportBaseUrl = env.DLR_BASE_URL || shortLinkBase;
  if (!reportBaseUrl) throw new Error('Missing required setting DLR_BASE_URL (SMS_GATEWAY=kannel)');
  const secret = (name: string) => {
    const setting = secretSetting(env, name);
    if (!setting) throw new Error(`Missing required setting ${name} or ${name}_PARAMETER (SMS_GATEWAY=kannel)`);
    return setting;
  };
  const reportSecret = secret('DLR_SECRET');
  if ('value' in reportSecret && reportSecret.value.length < 16) throw new Error('DLR_SECRET must be at least 16 characters');
  return {
    smsGateway: 'kannel',
    aws: undefined,
    kannel: {
      sendsmsUrl: required('KANNEL_SENDSMS_URL'),
      username: required('KANNEL_USERNAME'),
      password: secret('KANNEL_PASSWORD'),
      smsc: env.KANNEL_SMSC || undefined,
      reportBaseUrl,
      reportSecret,
      timeoutMs: integer(env, 'KANNEL_TIMEOUT_MS', 10_000),
      region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    },
  };
}

/** The short-link base, for processes that build short links; a clear failure at cold start otherwise. */
export function requireShortLinkBase(config: Config): string {
  if (config.shortLinkBase === undefined) throw new Error('Missing required setting SHORT_LINK_BASE');
  return config.shortLinkBase;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer: ${value}`);
  return parsed;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name];
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new Error(`${name} must be 1 or 0: ${value}`);
}

/** The local runtime's HTTP front (bin/serve.ts); on AWS, API Gateway and CloudFront play this part. */
export interface ServerSettings {
  host: string;
  port: number;
  /** Open connections one client address may hold; 0 for no limit (behind a proxy, every client has its address). */
  maxConnectionsPerIp: number;
  /** Open connections in all, kept below the process's file limit so the store and logs still get descriptors. */
  maxConnections: number;
  /** How long a request's headers and body may take to arrive; answering takes what it takes. */
  requestTimeoutMs: number;
}

export function readServerSettings(env: NodeJS.ProcessEnv = process.env): ServerSettings {
  const port = integer(env, 'PORT', 8080);
  if (port > 65535) throw new Error(`PORT is not a port number: ${env.PORT}`);
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 30_000);
  if (requestTimeoutMs === 0) throw new Error('REQUEST_TIMEOUT_MS must be positive');
  const maxConnections = integer(env, 'MAX_CONNECTIONS', connectionsWithinFileLimit());
  if (maxConnections === 0) throw new Error('MAX_CONNECTIONS must be positive');
  return {
    host: env.HOST || '127.0.0.1',
    port,
    maxConnectionsPerIp: integer(env, 'MAX_CONNECTIONS_PER_IP', 256),
    maxConnections,
    requestTimeoutMs,
  };
}

/**
 * The open-file limit less what the rest of the process needs: dynalite's LevelDB files,
 * the store client's sockets and dynalite's ends of them, logs. Node raises its soft limit
 * to the hard one at start, so this is the limit in force. Where /proc is missing, a
 * ceiling that fits the usual 4096 descriptors.
 */
function connectionsWithinFileLimit(): number {
  let limit: number;
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    limit = line?.[1] === undefined ? 4096 : line[1] === 'unlimited' ? 1_048_576 : Number(line[1]);
  } catch {
    limit = 4096;
  }
  return limit - Math.min(1024, Math.floor(limit / 2));
}
