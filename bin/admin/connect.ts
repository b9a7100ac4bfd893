import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readConfig } from '../../shared/config';
import { ensureTable, startDynalite } from '../../shared/local/dynalite';
import { ENDPOINT_FILE } from '../../shared/local/runtime';
import { createRuntime, type Runtime } from '../../shared/runtime';
import { indexedLists } from '../../shared/store/indexed-lists';

/** The runtime on the store the CLI works on (see bin/admin.ts for which store that is). */
export async function connect(aws: boolean): Promise<{ runtime: Runtime; close(): Promise<void> }> {
  const base = { SHORT_LINK_BASE: process.env.SHORT_LINK_BASE ?? 'http://127.0.0.1:8080', AUTH_CACHE_TTL_MS: '0' };
  if (aws || process.env.DYNAMODB_ENDPOINT) {
    const rt = createRuntime(readConfig({ ...process.env, ...base }), { lists: indexedLists });
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
  const rt = createRuntime(readConfig({ ...process.env, ...base, TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint }), { lists: indexedLists });
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
