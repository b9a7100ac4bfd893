import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { LinkCodec } from '../../shared/domain/link-code';
import type { Link } from '../../shared/domain/links';
import type { Store } from '../../shared/store/client';
import { IdAllocator } from '../../shared/store/id-allocator';
import { linkCreation } from '../../shared/store/links-repo';
import { SettingsRepository } from '../../shared/store/settings-repo';

/**
 * Makes `count` active links of one account straight in the table, as Link/Create writes
 * them (`linkCreation`: the item with every index attribute), ids from the link counter
 * and codes from the service's code secret, by BatchWriteItem: ten thousand in seconds
 * rather than minutes through the API. The account's list counters are left as they
 * were (the benches that seed this way measure clicks, not lists).
 */
export async function seedLinks(store: Store, accountId: number, count: number, prefix: string): Promise<{ id: number; code: string }[]> {
  const codec = new LinkCodec(await new SettingsRepository(store).linkCodeSecret());
  const ids = new IdAllocator(store, 'link', { maxBlock: 1024 });
  const createdAt = new Date().toISOString();
  const links: Link[] = [];
  for (let i = 0; i < count; i++) {
    const id = await ids.next();
    links.push({
      id,
      accountId,
      code: codec.encode(id),
      fullLink: `https://example.com/${prefix}/${i}`,
      status: 1,
      moderatorStatus: 1,
      moderatorComment: null,
      comment: null,
      expirationDate: null,
      expiresAt: null,
      clickCnt: 0,
      redirectCnt: 0,
      createdAt,
      campaignId: null,
      trackingCode: null,
    });
  }
  const items = links.flatMap((link) => {
    const { item, op } = linkCreation(link);
    return [item, ...(op.puts ?? [])];
  });
  const chunks: (typeof items)[] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  const worker = async () => {
    for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
      let request: Record<string, { PutRequest: { Item: Record<string, unknown> } }[]> | undefined = {
        [store.tableName]: chunk.map((Item) => ({ PutRequest: { Item } })),
      };
      while (request && Object.keys(request).length > 0) {
        const result = await store.db.send(new BatchWriteCommand({ RequestItems: request }));
        request = result.UnprocessedItems as typeof request;
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return links.map(({ id, code }) => ({ id, code }));
}
