import { AppError } from '../shared/domain/errors';
import { run } from './admin/commands';
import { connect } from './admin/connect';
import { runMigrate } from './admin/migrate';
import { parseCommandLine, printUsageError, USAGE, USAGE_ERROR, UsageError } from './admin/usage';

// The SDK warns that its 2027 releases will need Node.js 22; Lambda runs 22 and the
// lockfile pins today's releases, so locally the notice is noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * The admin CLI: accounts, API keys, link moderation, operator tokens and the data migration,
 * straight on the store.
 *
 * Where the store is: DYNAMODB_ENDPOINT if set; with --aws, DynamoDB itself (TABLE_NAME,
 * AWS_REGION and the usual AWS credentials); otherwise the local data directory
 * (DATA_DIR, default ./.data): through the running local service's dynalite if there is
 * one, else by opening the directory itself.
 */
const { values, positionals } = parseCommandLine();

async function main(): Promise<number> {
  const [group, command, ...args] = positionals;
  if (group === 'migrate' && !command) {
    const connection = await connect(values.aws);
    try {
      await runMigrate(connection.runtime, values);
      return 0;
    } finally {
      await connection.close();
    }
  }
  if (values.help || !group || !command) {
    console.log(USAGE);
    return values.help ? 0 : USAGE_ERROR;
  }
  const connection = await connect(values.aws);
  try {
    await run(connection.runtime, values, group, command, args);
    return 0;
  } finally {
    await connection.close();
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
