import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readConfig } from '../shared/config';
import type { SendingSettings } from '../shared/domain/accounts';
import { AppError } from '../shared/domain/errors';
import { ensureTable, startDynalite } from '../shared/local/dynalite';
import { ENDPOINT_FILE } from '../shared/local/runtime';
import { createRuntime, type Runtime } from '../shared/runtime';

// The SDK warns that its 2027 releases will need Node.js 22; Lambda runs 22 and the
// lockfile pins today's releases, so locally the notice is noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * The admin CLI: accounts, API keys and link moderation, straight on the store.
 *
 * Where the store is: DYNAMODB_ENDPOINT if set; with --aws, DynamoDB itself (TABLE_NAME,
 * AWS_REGION and the usual AWS credentials); otherwise the local data directory
 * (DATA_DIR, default ./.data): through the running local service's dynalite if there is
 * one, else by opening the directory itself.
 */
const USAGE = `Usage: npm run admin -- <command> [options]

  account create --name NAME [--time-zone ZONE] [--currency CODE]
  account list
  account show ID
  account update ID [--name NAME] [--time-zone ZONE] [--currency CODE]
                 [--rate-limit N|default]  API requests per second (N = 0: unlimited;
                                           default: API_RATE_LIMIT of the service)
  account block ID | account unblock ID
  key issue ACCOUNT_ID          prints the new key once; only its hash is stored
  key list ACCOUNT_ID
  key revoke ACCOUNT_ID KEY_ID
  link block LINK_ID [--comment TEXT]     moderator block (redirect answers 451)
  link approve LINK_ID [--comment TEXT]
  signature add ACCOUNT_ID NAME           register a sender signature (usable once approved)
  signature approve ACCOUNT_ID NAME
  signature default ACCOUNT_ID NAME|-     the signature used when a send names none
  signature list ACCOUNT_ID
  tariff set ACCOUNT_ID COUNTRY|* PRICE|- price of one segment (- removes it)
  tariff show ACCOUNT_ID
  moderation set ACCOUNT_ID none|all      whether campaigns wait for approval
  campaign approve CAMPAIGN_ID            send a campaign held for moderation
  campaign decline CAMPAIGN_ID            decline it (its message becomes REJECTD)
  campaign show CAMPAIGN_ID
  message show MESSAGE_ID                 a message with its gateway id and submitState
                                          (ambiguous: it may or may not have gone out)
  message ambiguous                       every message flagged ambiguous, to reconcile
                                          with the gateway's records
  webhook add ACCOUNT_ID URL [SECRET]     delivery-report webhook; prints its secret (a new
                                          one unless given, 16+ characters) once
  webhook list ACCOUNT_ID
  webhook remove ACCOUNT_ID WEBHOOK_ID

Options: --aws (use DynamoDB on AWS), --json (machine-readable output)`;

const OPTIONS = {
  name: { type: 'string' },
  'time-zone': { type: 'string' },
  currency: { type: 'string' },
  comment: { type: 'string' },
  'rate-limit': { type: 'string' },
  aws: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Exit status of a command line this CLI does not understand. */
const USAGE_ERROR = 2;

/** A command line this CLI does not understand: answered with the usage, not a stack. */
class UsageError extends Error {
  override name = 'UsageError';
}

function printUsageError(error: UsageError): number {
  console.error(`Error: ${error.message}\n\n${USAGE}`);
  return USAGE_ERROR;
}

/** The parsed command line; an unknown option or a missing value exits with the usage. */
function parseCommandLine(): ReturnType<typeof parseArgs<{ allowPositionals: true; options: typeof OPTIONS }>> {
  try {
    return parseArgs({ allowPositionals: true, options: OPTIONS });
  } catch (error) {
    if (!String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS')) throw error;
    process.exit(printUsageError(new UsageError((error as Error).message)));
  }
}

const { values, positionals } = parseCommandLine();

async function main(): Promise<number> {
  const [group, command, ...args] = positionals;
  if (values.help || !group || !command) {
    console.log(USAGE);
    return values.help ? 0 : USAGE_ERROR;
  }
  const connection = await connect();
  try {
    await run(connection.runtime, group, command, args);
    return 0;
  } finally {
    await connection.close();
  }
}

async function run(rt: Runtime, group: string, command: string, args: string[]): Promise<void> {
  const id = (position: number, what: string) => {
    const value = args[position];
    if (!value || !/^\d+$/.test(value)) throw new AppError('invalid', `Expected ${what} (a number)`);
    return Number(value);
  };
  const print = (human: string, data: unknown) => console.log(values.json ? JSON.stringify(data, null, 2) : human);
  const settings = () => ({ name: values.name, timeZone: values['time-zone'], currency: values.currency?.toUpperCase() });

  switch (`${group} ${command}`) {
    case 'account create': {
      if (!values.name) throw new AppError('invalid', 'account create needs --name');
      const account = await rt.accounts.createAccount({ ...settings(), name: values.name });
      return print(`Account ${account.id} created (${account.timeZone}, ${account.currency})`, account);
    }
    case 'account list': {
      const accounts = await rt.accounts.listAccounts();
      const lines = accounts.map((a) => `${a.id}\t${a.status}\t${a.timeZone}\t${a.currency}\t${describeRateLimit(a.rateLimit)}\t${a.name}`);
      return print(lines.join('\n') || 'No accounts', accounts);
    }
    case 'account show': {
      const account = await rt.accounts.getAccount(id(0, 'an account id'));
      return print(JSON.stringify(account, null, 2), account);
    }
    case 'account update': {
      const account = await rt.accounts.updateAccount(id(0, 'an account id'), { ...settings(), rateLimit: rateLimitOption(values['rate-limit']) });
      return print(`Account ${account.id} updated (rate limit: ${describeRateLimit(account.rateLimit)})`, account);
    }
    case 'account block':
    case 'account unblock': {
      const account = await rt.accounts.updateAccount(id(0, 'an account id'), { status: command === 'block' ? 'blocked' : 'active' });
      return print(`Account ${account.id} is ${account.status}`, account);
    }
    case 'key issue': {
      const { key, apiKey } = await rt.accounts.issueKey(id(0, 'an account id'));
      return print(`API key ${key} (key id ${apiKey.keyId}); it is shown only now`, { ...apiKey, key });
    }
    case 'key list': {
      const keys = await rt.accounts.listKeys(id(0, 'an account id'));
      return print(
        keys.map((k) => `${k.keyId}\t${k.prefix}…\t${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}\t${k.createdAt}`).join('\n') || 'No keys',
        keys,
      );
    }
    case 'key revoke': {
      const keyId = args[1];
      if (!keyId) throw new AppError('invalid', 'key revoke needs ACCOUNT_ID KEY_ID');
      await rt.accounts.revokeKey(id(0, 'an account id'), keyId);
      return print(`Key ${keyId} revoked`, { keyId, revoked: true });
    }
    case 'link block':
    case 'link approve': {
      const link = await rt.links.moderate(id(0, 'a link id'), command === 'block' ? 0 : 1, values.comment ?? null);
      return print(`Link ${link.id} is ${link.moderatorStatus === 0 ? 'blocked' : 'approved'}`, link);
    }
    case 'signature add':
    case 'signature approve':
    case 'signature default': {
      const name = args[1];
      if (!name) throw new AppError('invalid', `signature ${command} needs ACCOUNT_ID NAME`);
      const accountId = id(0, 'an account id');
      const account =
        command === 'add'
          ? await rt.accounts.addSignature(accountId, name)
          : command === 'approve'
            ? await rt.accounts.approveSignature(accountId, name)
            : await rt.accounts.setDefaultSignature(accountId, name === '-' ? null : name);
      return print(`Signatures of account ${account.id}: ${describeSignatures(account.sending)}`, account.sending);
    }
    case 'signature list': {
      const { sending } = await rt.accounts.getAccount(id(0, 'an account id'));
      return print(describeSignatures(sending), sending);
    }
    case 'tariff set': {
      const [, country, price] = args;
      if (!country || price === undefined) throw new AppError('invalid', 'tariff set needs ACCOUNT_ID COUNTRY|* PRICE|-');
      const value = price === '-' ? null : Number(price);
      const account = await rt.accounts.setPrice(id(0, 'an account id'), country, value === null || Number.isFinite(value) ? value : NaN);
      return print(`Tariff of account ${account.id} (${account.currency}): ${describeTariff(account.sending.tariff)}`, account.sending.tariff);
    }
    case 'tariff show': {
      const account = await rt.accounts.getAccount(id(0, 'an account id'));
      return print(`${account.currency}: ${describeTariff(account.sending.tariff)}`, account.sending.tariff);
    }
    case 'moderation set': {
      const account = await rt.accounts.setModeration(id(0, 'an account id'), args[1] as 'none' | 'all');
      return print(`Moderation of account ${account.id}: ${account.sending.moderation}`, { moderation: account.sending.moderation });
    }
    case 'campaign approve':
    case 'campaign decline': {
      const campaignId = id(0, 'a campaign id');
      const campaign = command === 'approve' ? await rt.moderation.approve(campaignId) : await rt.moderation.decline(campaignId);
      return print(`Campaign ${campaign.id} is ${campaign.status}`, campaign);
    }
    case 'message show': {
      const message = await rt.messageStore.get(id(0, 'a message id'));
      if (!message) throw new AppError('notFound', 'No such message');
      return print(JSON.stringify(message, null, 2), message);
    }
    case 'message ambiguous': {
      const messages = await rt.messageStore.listAmbiguous();
      const lines = messages.map(
        (m) => `${m.id}\tcampaign ${m.campaignId}\tto ${m.to}\t${m.status}\tclaimed ${m.statusUpdatedAt ?? m.createdAt}\t${m.submitProblem ?? ''}`,
      );
      return print(lines.length ? lines.join('\n') : 'No ambiguous messages', messages);
    }
    case 'webhook add': {
      const accountId = id(0, 'an account id');
      await rt.accounts.getAccount(accountId);
      if (!args[1]) throw new AppError('invalid', 'webhook add needs ACCOUNT_ID URL [SECRET]');
      const webhook = await rt.webhooks.register(accountId, args[1], args[2]);
      return print(
        `Webhook ${webhook.id} of account ${accountId}: ${webhook.url}\nSecret (events are signed with it; shown once): ${webhook.secret}`,
        webhook,
      );
    }
    case 'webhook list': {
      const webhooks = await rt.webhooks.list(id(0, 'an account id'));
      const listed = webhooks.map(({ secret: _secret, ...webhook }) => webhook);
      return print(listed.length ? listed.map((w) => `${w.id}\t${w.url}\tsince ${w.createdAt}`).join('\n') : 'No webhooks', listed);
    }
    case 'webhook remove': {
      const accountId = id(0, 'an account id');
      if (!args[1]) throw new AppError('invalid', 'webhook remove needs ACCOUNT_ID WEBHOOK_ID');
      await rt.webhooks.remove(accountId, args[1]);
      return print(`Webhook ${args[1]} removed`, { removed: args[1] });
    }
    case 'campaign show': {
      const campaign = await rt.campaigns.get(id(0, 'a campaign id'));
      if (!campaign) throw new AppError('notFound', 'No such campaign');
      return print(JSON.stringify(campaign, null, 2), campaign);
    }
    default:
      throw new UsageError(`Unknown command: ${group} ${command}`);
  }
}

function describeSignatures(sending: SendingSettings): string {
  const names = Object.entries(sending.signatures).map(
    ([name, signature]) => `${name} (${signature.approved ? 'approved' : 'pending'}${name === sending.defaultSignature ? ', default' : ''})`,
  );
  return names.join(', ') || 'none';
}

/** `--rate-limit`: a number of requests per second, or `default`; undefined when not given. */
function rateLimitOption(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'default') return null;
  if (!/^\d+$/.test(value)) throw new AppError('invalid', '--rate-limit takes a number of requests per second (0: unlimited) or default');
  return Number(value);
}

function describeRateLimit(rateLimit: number | null): string {
  if (rateLimit === null) return 'default rate';
  return rateLimit === 0 ? 'unlimited' : `${rateLimit} req/s`;
}

function describeTariff(tariff: Record<string, number>): string {
  return (
    Object.entries(tariff)
      .map(([country, price]) => `${country} ${price}`)
      .join(', ') || 'no prices'
  );
}

async function connect(): Promise<{ runtime: Runtime; close(): Promise<void> }> {
  const base = { SHORT_LINK_BASE: process.env.SHORT_LINK_BASE ?? 'http://127.0.0.1:8080', AUTH_CACHE_TTL_MS: '0' };
  if (values.aws || process.env.DYNAMODB_ENDPOINT) {
    const rt = createRuntime(readConfig({ ...process.env, ...base }));
    return { runtime: rt, close: async () => rt.store.db.destroy() };
  }
  const dataDir = process.env.DATA_DIR || '.data';
  const tableName = process.env.TABLE_NAME ?? 'shortsms';
  const endpointFile = join(dataDir, ENDPOINT_FILE);
  let endpoint = existsSync(endpointFile) ? readFileSync(endpointFile, 'utf8').trim() : undefined;
  if (endpoint && !(await reachable(endpoint))) endpoint = undefined;
  let own: Awaited<ReturnType<typeof startDynalite>> | undefined;
  if (!endpoint) {
    own = await startDynalite({ path: join(dataDir, 'dynamodb') });
    endpoint = own.endpoint;
  }
  await ensureTable(endpoint, tableName);
  const rt = createRuntime(readConfig({ ...process.env, ...base, TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint }));
  return {
    runtime: rt,
    close: async () => {
      rt.store.db.destroy();
      await own?.close();
    },
  };
}

async function reachable(endpoint: string): Promise<boolean> {
  try {
    await fetch(endpoint, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof UsageError) process.exit(printUsageError(error));
    console.error(error instanceof AppError ? `Error: ${error.message}` : error);
    process.exit(1);
  },
);
