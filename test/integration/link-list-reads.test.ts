import { ulid } from 'ulid';
import { LinkCache } from '../../shared/domain/link-cache';
import { LinkCodec } from '../../shared/domain/link-code';
import type { LinkQuery } from '../../shared/domain/link-listing';
import { LinkService } from '../../shared/domain/link-service';
import { ClickRanks } from '../../shared/store/click-ranks';
import { ClicksRepository } from '../../shared/store/clicks-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import { LinkLists } from '../../shared/store/link-lists';
import { startTestStore } from '../support/dynamo';
import { aLink, anAccount } from '../support/fixtures';

/**
 * What a Link/List call reads follows the page, not the account: every item a call reads
 * (index entries a Query evaluates, items a GetItem or BatchGetItem returns) is counted on
 * a small and a ten times bigger account, and the big one may read only a little more.
 */

let store: Store;
let close: () => Promise<void>;
let itemsRead = 0;
/** The createdAt of each link entry a Query sent back (counter items have none). */
const entriesSent: string[] = [];
beforeAll(async () => {
  ({ store, close } = await startTestStore());
  store.db.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const output = result.output as {
        ScannedCount?: number;
        Item?: unknown;
        Items?: { createdAt?: string }[];
        Responses?: Record<string, unknown[]>;
      };
      entriesSent.push(...(output.Items ?? []).flatMap((entry) => (entry.createdAt ? [entry.createdAt] : [])));
      itemsRead +=
        (output.ScannedCount ?? 0) + (output.Item ? 1 : 0) + Object.values(output.Responses ?? {}).reduce((sum, items) => sum + items.length, 0);
      return result;
    },
    { step: 'initialize', name: 'countItemsRead' },
  );
  await seed(SMALL, 30);
  await seed(BIG, 300);
}, 300_000);
afterAll(() => close());

const codec = new LinkCodec('a-link-code-secret-of-32-characters!');
const SMALL = anAccount({ id: 1 });
const BIG = anAccount({ id: 2 });
let nextId = 1;

/** Links an hour apart from 1 October, every tenth inactive, one in fifty blocked, a few words in the comments. */
async function seed(account: typeof SMALL, count: number) {
  const links = new IndexedLinksRepository(store);
  const clicks = new ClicksRepository(store);
  const ranks = new ClickRanks(store);
  for (let i = 0; i < count; i++) {
    const id = nextId++;
    await links.create(
      aLink({
        id,
        accountId: account.id,
        code: codec.encode(id),
        fullLink: `https://example.com/${(i * 7919) % count}`,
        status: i % 10 === 0 ? 0 : 1,
        moderatorStatus: i % 50 === 7 ? 0 : 1,
        comment: i === 3 ? 'rare promo' : `batch ${i % 5} sale`,
        expirationDate: i % 3 === 0 ? null : `2027-0${1 + (i % 9)}-01`,
        trackingCode: i === 5 ? '01HZTRACK' : null,
        createdAt: new Date(Date.UTC(2026, 9, 1) + i * 3_600_000).toISOString(),
      }),
    );
    if (i % 4 === 0) {
      await clicks.addToLink(id, `b${id}`, { clicks: i % 13, redirects: 0, bots: 0 });
      await ranks.changed(`b${id}`, [{ accountId: account.id, linkId: id }]);
    }
  }
  await ranks.apply();
}

async function readsOf(account: typeof SMALL, fields: Partial<LinkQuery>, lastPage = false): Promise<{ read: number; found: number }> {
  const base: LinkQuery = { sort: [], pagination: { pageSize: 25, currentPage: 0 }, ...fields };
  const links = new LinkService({ ...serviceDeps(), links: new IndexedLinksRepository(store) });
  const total = (await links.list(account, base)).totalItemCount;
  const query = lastPage ? { ...base, pagination: { pageSize: 25 as const, currentPage: Math.max(0, Math.ceil(total / 25) - 1) } } : base;
  itemsRead = 0;
  const answer = await links.list(account, query);
  return { read: itemsRead, found: answer.items.length };
}

function serviceDeps() {
  return {
    ids: { next: async () => 0 },
    codec: async () => codec,
    cache: new LinkCache(0),
    shortLinkBase: 'https://s.test',
    clock: () => new Date('2026-11-22T12:00:00Z'),
  };
}

const CALLS: [string, Partial<LinkQuery>, boolean][] = [
  ['no criteria', {}, false],
  ['no criteria, last page', {}, true],
  ['createTs ASC', { sort: [{ field: 'createTs', direction: 'ASC' }] }, false],
  ['expirationDate DESC', { sort: [{ field: 'expirationDate', direction: 'DESC' }] }, false],
  ['clickCnt DESC', { sort: [{ field: 'clickCnt', direction: 'DESC' }] }, false],
  ['clickCnt ASC, last page', { sort: [{ field: 'clickCnt', direction: 'ASC' }] }, true],
  ['code ASC', { sort: [{ field: 'code', direction: 'ASC' }] }, false],
  ['fullLink DESC', { sort: [{ field: 'fullLink', direction: 'DESC' }] }, false],
  ['status 0', { status: 0 }, false],
  ['moderatorStatus 0 (rare)', { moderatorStatus: 0 }, false],
  ['createTs range of a day', { createdFrom: new Date('2026-10-02T00:00:00Z'), createdTo: new Date('2026-10-02T23:59:59Z') }, false],
  [
    'status 1, a day, clickCnt DESC',
    {
      status: 1,
      createdFrom: new Date('2026-10-02T00:00:00Z'),
      createdTo: new Date('2026-10-02T23:59:59Z'),
      sort: [{ field: 'clickCnt', direction: 'DESC' }],
    },
    false,
  ],
  ['query: a rare word', { query: 'PROMO' }, false],
  // Every link has it: counted, and read from creation order.
  ['query: a common word start', { query: 'SAL' }, false],
  ['query: a common word start, last page', { query: 'bat' }, true],
  ['query: a common word, status 1, oldest first', { query: 'sale', status: 1, sort: [{ field: 'createTs', direction: 'ASC' }] }, false],
  ['query: a tracking code', { query: '01hztrack' }, false],
  // Every link has the words: their items are read within the day only.
  [
    'query: a common word, a day',
    { query: 'sale', createdFrom: new Date('2026-10-02T00:00:00Z'), createdTo: new Date('2026-10-02T23:59:59Z') },
    false,
  ],
  [
    'query: two words of a repeated comment, a day, oldest first',
    {
      query: 'batch sale',
      createdFrom: new Date('2026-10-02T00:00:00Z'),
      createdTo: new Date('2026-10-02T23:59:59Z'),
      sort: [{ field: 'createTs', direction: 'ASC' }],
    },
    false,
  ],
];

describe('Link/List reads', () => {
  it.each(CALLS)('%s: about the page on a ten times bigger account', async (_, fields, lastPage) => {
    // Act
    const small = await readsOf(SMALL, fields, lastPage);
    const big = await readsOf(BIG, fields, lastPage);

    // Assess: the page (each link with its click item) plus a look-ahead per flag partition and the counters
    expect(big.found).toBeGreaterThan(0);
    expect(big.read).toBeLessThanOrEqual(Math.max(small.read, 3 * big.found) * 1.5 + 10);
  });

  it('asks each flag partition of a filtered read for its share, and at least for what finding one kept entry takes', () => {
    // Prepare
    const lists = new LinkLists(store, new CountedWrites(store, ulid));
    const ranges = [
      { index: 'gsi3', pk: 'S1M1' },
      { index: 'gsi3', pk: 'S1M0' },
    ];

    // Act: 1,000 entries expected from 10,000 links, 9,900 and 100 in the partitions; one kept entry takes 40
    const expected = lists.expecting(ranges, [9_900, 100], 1_000, 40);

    // Assess: the big partition its share, the small one the floor, not its share of 11
    expect(expected.map((range) => range.expect)).toEqual([991, 40]);
  });

  it('reads a creation range in clickCnt order checking the range in the Query: entries outside it are read, not sent', async () => {
    // Prepare: two days, most of the big account's links outside them, so that its clickCnt order is read and filtered
    const from = new Date('2026-10-03T00:00:00Z');
    const to = new Date('2026-10-04T23:59:59Z');
    entriesSent.length = 0;

    // Act
    const { read, found } = await readsOf(BIG, { status: 1, createdFrom: from, createdTo: to, sort: [{ field: 'clickCnt', direction: 'DESC' }] });

    // Assess: more entries read than sent, and every entry sent within the week
    expect(found).toBe(25);
    expect(entriesSent.length).toBeGreaterThan(0);
    expect(read).toBeGreaterThan(entriesSent.length + found);
    expect(entriesSent.filter((at) => at < from.toISOString() || at > to.toISOString())).toEqual([]);
  });
});
