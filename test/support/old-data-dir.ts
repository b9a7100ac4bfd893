import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTable, startDynalite } from '../../shared/local/dynalite';
import { createStore, type Store } from '../../shared/store/client';
import { oldData, writeOldData } from './old-layout';

/**
 * A data directory as an earlier version left it, for `npm start` to come up on: the old
 * layout's accounts and keys, then whatever `write` puts in its table (messages as that
 * version wrote them, its migration record). The caller removes the directory.
 */
export async function oldDataDir(prefix: string, write: (store: Store) => Promise<void>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const dynamo = await startDynalite({ path: join(dir, 'dynamodb') });
  await ensureTable(dynamo.endpoint, 'shortsms');
  const store = createStore({ tableName: 'shortsms', region: 'us-east-1', dynamoEndpoint: dynamo.endpoint });
  try {
    await writeOldData(store, { ...oldData(), items: [] });
    await write(store);
  } finally {
    store.db.destroy();
    await dynamo.close();
  }
  return dir;
}
