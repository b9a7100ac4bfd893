import { parseArgs } from 'node:util';

/** What the CLI prints for --help and under a command line it does not understand. */
export const USAGE = `Usage: npm run admin -- <command> [options]

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
  operator token issue --name NAME        a token for the operator API (/admin/); printed
                                          once, only its hash is stored
  operator token list
  operator token revoke TOKEN_ID
  migrate [--segments N] [--restart]      bring items written by the previous version to
                                          the current layout; resumes a stopped run
                                          (--segments: parallel Scan segments, default 4;
                                          --restart: a new pass, ignoring a stopped run)
  rollups copy [--restart]                copy settled days onto their month items now, as
                                          the scheduled sweep does (--restart: every day
                                          again, mending months an upgrade left behind)

Options: --aws (use DynamoDB on AWS), --json (machine-readable output)`;

export const OPTIONS = {
  name: { type: 'string' },
  'time-zone': { type: 'string' },
  currency: { type: 'string' },
  comment: { type: 'string' },
  'rate-limit': { type: 'string' },
  segments: { type: 'string' },
  restart: { type: 'boolean', default: false },
  aws: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The command line as parsed: its options and its positional words. */
export type CommandLine = ReturnType<typeof parseArgs<{ allowPositionals: true; options: typeof OPTIONS }>>;

/** The options of a command line. */
export type Options = CommandLine['values'];

/** Exit status of a command line this CLI does not understand. */
export const USAGE_ERROR = 2;

/** A command line this CLI does not understand: answered with the usage, not a stack. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function printUsageError(error: UsageError): number {
  console.error(`Error: ${error.message}\n\n${USAGE}`);
  return USAGE_ERROR;
}

/** The parsed command line; an unknown option or a missing value exits with the usage. */
export function parseCommandLine(): CommandLine {
  try {
    return parseArgs({ allowPositionals: true, options: OPTIONS });
  } catch (error) {
    if (!String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS')) throw error;
    process.exit(printUsageError(new UsageError((error as Error).message)));
  }
}
