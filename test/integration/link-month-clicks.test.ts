import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { LinkCodec } from '../../shared/domain/link-code';
import { type LinkQuery, listLinks } from '../../shared/domain/link-listing';
import type { Link } from '../../shared/domain/links';
import type { PageSize } from '../../shared/domain/paging';
import { ClickRanks } from '../../shared/store/click-ranks';
import { ClicksRepository } from '../../shared/store/clicks-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import { keys } from '../../shared/store/keys';
import { flagsOf, MONTH_RANKED, monthPartition } from '../../shared/store/link-keys';
import { LIST_PLAN, LinkLists, type ListPlan } from '../../shared/store/link-lists';
import { linkUpgrade } from '../../shared/store/link-migration';
import { migrate } from '../../shared/store/migration';
import { MigrationProgress } from '../../shared/store/migration-progress';
import { startTestStore } from '../support/dynamo';
import { aLink } from '../support/fixtures';
import { seedLinks } from '../support/link-service';
import { observeListReads } from '../support/store-calls';

/**
 * `sort[clickCnt]` with a createTs range from gsi19 (shared/store/link-month-clicks.ts): the
 * range's months in clickCnt order, not the account's whole order kept to the range; the
 * partitions follow the rank pass and flag changes, and links written before gsi19 answer
 * alike once migrated.
 */

let store: Store;
let close: () => Promise<void>;
let reads: { entries: number; messages: number };
beforeAll(async () => {
  ({ store, close } = await startTestStore());
  reads = observeListReads(store);
});
afterAll(() => close());

const codec = new LinkCodec('a-link-code-secret-of-32-characters!');
const HOUR = 3_600_000;
let nextId = 1;
let nextAccount = 1;

/** `count` links `every` hours apart, ending on 30 November 2026, every tenth inactive, clicks spread. */
function links(accountId: number, count: number, every: number, fields: (i: number) => Partial<Link> = () => ({})): Link[] {
  const end = Date.UTC(2026, 10, 30, 23);
  return Array.from({ length: count }, (_, i) => {
    const id = nextId++;
    return aLink({
      id,
      accountId,
      code: codec.encode(id),
      status: i % 10 === 3 ? 0 : 1,
      clickCnt: (i * 7919) % 61,
      createdAt: new Date(end - (count - 1 - i) * every * HOUR).toISOString(),
      ...fields(i),
    });
  });
}

function inRange(from: string, to: string, fields: Partial<LinkQuery> = {}): LinkQuery {
  return {
    createdFrom: new Date(from),
    createdTo: new Date(to),
    sort: [{ field: 'clickCnt', direction: 'DESC' }],
    pagination: { pageSize: 25, currentPage: 0 },
    ...fields,
  };
}

/** The answer, the entries and items it read, and whether gsi19 answered it (by `plan`'s figures, the usual ones unless told). */
async function listed(accountId: number, query: LinkQuery, plan: ListPlan = LIST_PLAN) {
  const lists = new LinkLists(store, new CountedWrites(store, ulid), plan);
  reads.entries = 0;
  reads.messages = 0;
  const answer = await lists.list(accountId, query);
  return { answer, read: reads.entries + reads.messages, months: lists.months.pages };
}

describe('sort[clickCnt] with a createTs range', () => {
  it("reads the range's months, not the account's clickCnt order: about the page on an account with twenty times as many links", async () => {
    // Prepare: 2 months of links every 24 hours on the small account, 8 months every 2 hours on the big one
    const small = links(nextAccount++, 60, 24);
    const big = links(nextAccount++, 3000, 2);
    await seedLinks(store, [...small, ...big]);
    // Each with what it may read: about (offset + page) × the months' length over the range's, and the page's links and click items.
    // The account's order kept to the range reads (offset + page) × the account over the range: 1,300 entries for the week.
    const asked: [LinkQuery, number][] = [
      [inRange('2026-11-10 00:00:00Z', '2026-11-16 23:59:59Z'), 250],
      [inRange('2026-10-28 12:00:00Z', '2026-11-03 12:00:00Z', { status: 1, sort: [{ field: 'clickCnt', direction: 'ASC' }] }), 500],
      [inRange('2026-10-01 00:00:00Z', '2026-11-30 23:59:59Z', { pagination: { pageSize: 10 as PageSize, currentPage: 3 } }), 150],
    ];

    for (const [query, bound] of asked) {
      // Act
      const one = await listed(small[0]?.accountId ?? 0, query);
      const many = await listed(big[0]?.accountId ?? 0, query);

      // Assess: the reference's answers; the big account reads its page, about four times over for a week of a month
      expect({ query, answer: one.answer }).toEqual({ query, answer: listLinks(small, query) });
      expect({ query, answer: many.answer }).toEqual({ query, answer: listLinks(big, query) });
      expect({ query, months: many.months }).toEqual({ query, months: 1 });
      expect({ query, read: Math.min(many.read, bound) }).toEqual({ query, read: many.read });
    }
  });

  it('keeps each month in click order as the rank pass and flag changes move its links', async () => {
    // Prepare: three months of links, every 2 hours
    const made = links(nextAccount++, 1000, 2);
    const [accountId] = [made[0]?.accountId ?? 0];
    const repository = new IndexedLinksRepository(store);
    await seedLinks(store, made);
    const clicks = new ClicksRepository(store);
    const ranks = new ClickRanks(store);
    const hot = made[950] as Link;
    const blocked = made[960] as Link;

    // Act: clicks that take a link to the top, a link blocked
    await clicks.addToLink(hot.id, `b${hot.id}`, { clicks: 500, redirects: 0, bots: 0 });
    await ranks.changed(`b${hot.id}`, [{ accountId, linkId: hot.id }]);
    await ranks.apply();
    await repository.moderate(blocked.id, 0, 'spam');
    const model = made.map((link) =>
      link === hot
        ? { ...hot, clickCnt: hot.clickCnt + 500 }
        : link === blocked
          ? { ...blocked, moderatorStatus: 0 as const, moderatorComment: 'spam' }
          : link,
    );
    const asked = [
      inRange('2026-11-20 00:00:00Z', '2026-11-30 23:59:59Z'),
      inRange('2026-11-20 00:00:00Z', '2026-11-30 23:59:59Z', { moderatorStatus: 0 }),
    ];
    const answers = [];
    for (const query of asked) answers.push(await listed(accountId, query));

    // Assess: the blocked one alone is read whole from creation order
    expect(answers.map(({ months }) => months)).toEqual([1, 0]);
    for (const [i, query] of asked.entries()) expect({ query, answer: answers[i]?.answer }).toEqual({ query, answer: listLinks(model, query) });
    expect(answers[0]?.answer.items[0]?.id).toBe(hot.id);
    const month = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: 'gsi19',
        KeyConditionExpression: 'gsi19pk = :pk',
        ExpressionAttributeValues: { ':pk': monthPartition(accountId, 'S1M0', '2026-11') },
      }),
    );
    expect((month.Items ?? []).map((item) => item.id)).toEqual([blocked.id]);
  });

  it("reads the months across a year's end and of a range of one bound, and not a range of more than 12 months", async () => {
    // Prepare: links every 2 hours from 20 December 2025 to late January 2026; month partitions made to look free
    const start = Date.UTC(2025, 11, 20);
    const made = links(nextAccount++, 400, 2, (i) => ({ createdAt: new Date(start + i * 2 * HOUR).toISOString() }));
    const [accountId] = [made[0]?.accountId ?? 0];
    await seedLinks(store, made);
    const free: ListPlan = { ...LIST_PLAN, monthEntriesPerRru: 1e12 };
    const asked: [LinkQuery, number][] = [
      [inRange('2025-12-28 06:00:00Z', '2026-01-04 18:00:00Z'), 1],
      [inRange('2025-12-31 23:00:00Z', '2026-01-04 01:00:00Z', { sort: [{ field: 'clickCnt', direction: 'ASC' }] }), 1],
      [inRange('2025-01-01 00:00:00Z', '2026-01-31 23:59:59Z'), 0],
      // One bound: closed at the account's newest or oldest link.
      [
        {
          createdFrom: new Date('2026-01-10 00:00:00Z'),
          sort: [{ field: 'clickCnt', direction: 'DESC' }],
          pagination: { pageSize: 25, currentPage: 1 },
        },
        1,
      ],
      [
        {
          createdTo: new Date('2025-12-25 00:00:00Z'),
          sort: [{ field: 'clickCnt', direction: 'ASC' }],
          pagination: { pageSize: 25, currentPage: 0 },
        },
        1,
      ],
    ];

    for (const [query, months] of asked) {
      // Act
      const answer = await listed(accountId, query, free);

      // Assess: the reference's answer, from gsi19 where the range allows it
      expect({ query, answer: answer.answer, months: answer.months }).toEqual({ query, answer: listLinks(made, query), months });
    }
  });

  it('answers alike for links written before gsi19 once `admin migrate` has placed them', async () => {
    // Prepare: links without gsi19pk and monthRanked (the version before), and a migration yet to complete a pass
    const made = links(nextAccount++, 900, 5, (i) => ({ comment: i % 2 ? null : 'promo' }));
    const [accountId] = [made[0]?.accountId ?? 0];
    const counted = new CountedWrites(store, ulid);
    await seedLinks(store, made, (items) => items.map(({ gsi19pk, monthRanked, ...item }) => item));
    await new MigrationProgress(store).begin(2, new Date().toISOString());
    const asked = [inRange('2026-11-01 00:00:00Z', '2026-11-30 23:59:59Z'), inRange('2026-10-20 00:00:00Z', '2026-11-10 00:00:00Z', { status: 1 })];
    const before = [];
    for (const query of asked) before.push(await listed(accountId, query));

    // Act
    const run = await migrate(store, [linkUpgrade(store, counted)]);

    // Assess: every link placed and marked, the same answers, now from gsi19
    expect(run.completed).toBe(true);
    const month = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: 'gsi19',
        KeyConditionExpression: 'gsi19pk = :pk',
        ExpressionAttributeValues: { ':pk': monthPartition(accountId, flagsOf(made[899] as Link), '2026-11') },
      }),
    );
    expect(month.Items?.length).toBeGreaterThan(0);
    const marks = await Promise.all(
      made.map(
        async (link) => (await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.link(link.id), ConsistentRead: true }))).Item,
      ),
    );
    expect(marks.map((item) => [item?.monthRanked, item?.gsi19pk])).toEqual(
      made.map((link) => [MONTH_RANKED, monthPartition(accountId, flagsOf(link), link.createdAt.slice(0, 7))]),
    );
    for (const [i, query] of asked.entries()) {
      const after = await listed(accountId, query);
      expect({ query, answer: after.answer, months: after.months }).toEqual({ query, answer: listLinks(made, query), months: 1 });
      expect({ query, answer: before[i]?.answer, months: before[i]?.months }).toEqual({ query, answer: listLinks(made, query), months: 0 });
    }
  }, 120_000);
});
