import { GetCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { Counts } from '../domain/clicks';
import type { Link } from '../domain/links';
import type { StatsType } from '../domain/stats';
import type { BucketReader } from '../domain/stats-service';
import { batchGetAll } from './batch';
import type { Store } from './client';
import { keys } from './keys';
import { fromItem } from './link-writes';
import { queryAll } from './query';

type Item = Record<string, NativeAttributeValue>;

/**
 * A link's click item (`LINK#<id>` / `#CLICKS`), written by the click aggregator and by
 * nothing else, beside the link item so that counting writes no index entry:
 * - `clicks`, `redirects`, `bots`: what was counted since counts moved here. The link item
 *   keeps what earlier versions counted on it, frozen, so a link's totals are the sum of both.
 * - the cells of the buckets its clicks fell in: `c<digits>` clicks and `r<digits>`
 *   redirects (absent when 0), the digits of the bucket's param (an hour's without its
 *   `00` minutes), so that their number names the type: 6 monthly, 8 daily, 10 hourly,
 *   12 minute. `c202611241005` is the minute 2026-11-24 10:05 in the account's zone.
 * - `touches`: cells written so far. Past MAX_CELL_TOUCHES a batch writes the link's buckets
 *   to their own items (`STATS#<type>#<param>`), so the item stays under 1 KB (one write
 *   unit): about 100 bytes of keys and totals and at most 24 × 2 cells of ≤ 15 bytes.
 * - `lastBatch`: the last batch applied, so a batch finished again skips the item.
 */
export const MAX_CELL_TOUCHES = 24;

const DIGITS: Record<StatsType, number> = { monthly: 6, daily: 8, hourly: 10, minute: 12 };

/** The cell names of a bucket: its clicks and its redirects. */
export function cellNames(type: StatsType, param: string): { clicks: string; redirects: string } {
  const digits = param.replace(/\D/g, '').slice(0, DIGITS[type]);
  return { clicks: `c${digits}`, redirects: `r${digits}` };
}

/** The item's cells of one type from `fromParam` to `toParam` inclusive, by param. */
export function cellsOf(item: Item | undefined, type: StatsType, fromParam: string, toParam: string): Map<string, Counts> {
  const cells = new Map<string, Counts>();
  const from = cellNames(type, fromParam).clicks;
  const to = cellNames(type, toParam).clicks;
  for (const [name, clicks] of Object.entries(item ?? {})) {
    // Names of one type have one length, so they compare as their params do.
    if (name.length !== from.length || !/^c\d+$/.test(name) || name < from || name > to) continue;
    cells.set(paramOf(type, name.slice(1)), { clicks: Number(clicks), redirects: Number(item?.[`r${name.slice(1)}`] ?? 0) });
  }
  return cells;
}

function paramOf(type: StatsType, digits: string): string {
  const [year, month, day, hour, minute] = [digits.slice(0, 4), digits.slice(4, 6), digits.slice(6, 8), digits.slice(8, 10), digits.slice(10, 12)];
  if (type === 'monthly') return `${year}-${month}`;
  if (type === 'daily') return `${year}-${month}-${day}`;
  return `${year}-${month}-${day} ${hour}:${type === 'hourly' ? '00' : minute}`;
}

/**
 * Links by id with their totals: the link item and the click item of each, in one
 * BatchGetItem per 50 links. Links whose item `keep` refuses (deleted ones by default) are absent.
 */
export async function readLinks(store: Store, ids: number[], keep = (item: Item) => !item.deleted): Promise<Map<number, Link>> {
  const items = await batchGetAll(
    store,
    [...new Set(ids)].flatMap((id) => [keys.link(id), keys.linkClicks(id)]),
  );
  const clicks = new Map(items.filter((item) => item.sk === '#CLICKS').map((item) => [item.pk, item]));
  return new Map(items.filter((item) => item.sk === '#LINK' && keep(item)).map((item) => [Number(item.id), fromItem(item, clicks.get(item.pk))]));
}

/** Link items already read (whole entries of an index) with their totals: one BatchGetItem of their click items. */
export async function withClickItems(store: Store, items: Item[]): Promise<Link[]> {
  const clicks = await batchGetAll(
    store,
    items.map((item) => keys.linkClicks(Number(item.id))),
  );
  const byPk = new Map(clicks.map((item) => [item.pk, item]));
  return items.map((item) => fromItem(item, byPk.get(keys.link(Number(item.id)).pk)));
}

/** Link/GetStats' buckets: a link's bucket items and its click item's cells. */
export class ClickBuckets implements BucketReader {
  constructor(protected readonly store: Store) {}

  /**
   * A link's buckets of one type from `fromParam` to `toParam` inclusive, by param: its
   * bucket items and its click item's cells (a bucket may have both: cells until the item
   * was full, an item after).
   */
  async buckets(linkId: number, type: StatsType, fromParam: string, toParam: string): Promise<Map<string, Counts>> {
    const [items, clickItem] = await Promise.all([
      queryAll(this.store, {
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': keys.link(linkId).pk,
          ':from': keys.clickBucket(linkId, type, fromParam).sk,
          ':to': keys.clickBucket(linkId, type, toParam).sk,
        },
      }),
      this.store.db.send(new GetCommand({ TableName: this.store.tableName, Key: keys.linkClicks(linkId) })),
    ]);
    const result = cellsOf(clickItem.Item, type, fromParam, toParam);
    for (const item of items) {
      const param = String(item.sk).slice(`STATS#${type}#`.length);
      const cells = result.get(param);
      result.set(param, {
        clicks: Number(item.clicks ?? 0) + (cells?.clicks ?? 0),
        redirects: Number(item.redirects ?? 0) + (cells?.redirects ?? 0),
      });
    }
    return new Map([...result].sort(([a], [b]) => (a < b ? -1 : 1)));
  }
}
