import { BatchWriteCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { Account } from '../../shared/domain/accounts';
import { LinkCache } from '../../shared/domain/link-cache';
import { LinkCodec } from '../../shared/domain/link-code';
import type { LinkQuery } from '../../shared/domain/link-listing';
import { LinkService, type LinkStore } from '../../shared/domain/link-service';
import type { Link } from '../../shared/domain/links';
import type { Store } from '../../shared/store/client';
import { linkCreation } from '../../shared/store/links-repo';
import { aLink } from './fixtures';

/** The code secret the store tests encode links with. */
export const testCodec = new LinkCodec('a-link-code-secret-of-32-characters!');

/**
 * A LinkService over `links` as the store tests use it: no id allocation (ids come with the
 * links they write), no cache, a fixed clock and short link base.
 */
export function testLinkService(links: LinkStore): LinkService {
  return new LinkService({
    links,
    ids: { next: async () => 0 },
    codec: async () => testCodec,
    cache: new LinkCache(0),
    shortLinkBase: 'https://s.test',
    clock: () => new Date('2026-11-22T12:00:00Z'),
  });
}

type Item = Record<string, NativeAttributeValue>;

/**
 * Writes links as their creation does (link item, side items, counters), 25 items a
 * BatchWriteItem, the counters summed and written once: many links quickly. `asBefore`
 * may reshape each link's items (to write them as an older version did).
 */
export async function seedLinks(store: Store, made: Link[], asBefore = (items: Item[]) => items): Promise<void> {
  const items: Item[] = [];
  const counters = new Map<string, Item>();
  for (const link of made) {
    const { item, op } = linkCreation(link);
    items.push(...asBefore([item, ...(op.puts ?? [])]));
    for (const { key, add } of op.counters) {
      const counter = counters.get(`${key.pk}|${key.sk}`) ?? { ...key, entity: 'Count' };
      for (const [cell, n] of Object.entries(add)) counter[cell] = (counter[cell] ?? 0) + n;
      counters.set(`${key.pk}|${key.sk}`, counter);
    }
  }
  items.push(...counters.values());
  for (let i = 0; i < items.length; i += 25) {
    const chunk = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    await store.db.send(new BatchWriteCommand({ RequestItems: { [store.tableName]: chunk } }));
  }
}

/** `count` links of an account made a minute apart from 1 October 2026, ids from `nextId`, `fields(i)` over the defaults. */
export function linksByMinute(nextId: () => number, accountId: number, count: number, fields: (i: number) => Partial<Link>): Link[] {
  return Array.from({ length: count }, (_, i) => {
    const id = nextId();
    return aLink({ id, accountId, code: testCodec.encode(id), createdAt: new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString(), ...fields(i) });
  });
}

/** The read units `service` consumes answering Link/List, as `reads` (observeReadUnits) sums them. */
export async function listUnits(service: LinkService, reads: { units: number }, account: Account, query: LinkQuery): Promise<number> {
  reads.units = 0;
  await service.list(account, query);
  return reads.units;
}
