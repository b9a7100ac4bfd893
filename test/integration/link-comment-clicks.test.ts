import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { LinkCodec } from '../../shared/domain/link-code';
import { type LinkQuery, listLinks, normalisedComment } from '../../shared/domain/link-listing';
import type { LinkService } from '../../shared/domain/link-service';
import type { Link } from '../../shared/domain/links';
import type { PageSize } from '../../shared/domain/paging';
import { ClickRanks } from '../../shared/store/click-ranks';
import { ClicksRepository } from '../../shared/store/clicks-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import { keys } from '../../shared/store/keys';
import { LinkCommentClicks } from '../../shared/store/link-comment-clicks';
import { COMMENT_RANKED, commentPartition, flagsOf } from '../../shared/store/link-keys';
import { linkUpgrade } from '../../shared/store/link-migration';
import { linkCreation } from '../../shared/store/links-repo';
import { migrate } from '../../shared/store/migration';
import { MigrationProgress } from '../../shared/store/migration-progress';
import { startTestStore } from '../support/dynamo';
import { aLink, anAccount } from '../support/fixtures';
import { seedLinks, testLinkService } from '../support/link-service';
import { observeReadUnits } from '../support/store-calls';

/**
 * `criteria[query]` by clickCnt from the comments' gsi13 partitions
 * (shared/store/link-comment-clicks.ts): "the most clicked links of campaign X" reads about
 * its page however many links carry the campaign's comment, the partitions follow the rank
 * pass and every change of a link, and links written before gsi13 answer alike once migrated.
 */

let store: Store;
let close: () => Promise<void>;
/** Read units of every call from now on, as DynamoDB (here dynalite) reports them. */
let reads: { units: number };
beforeAll(async () => {
  ({ store, close } = await startTestStore());
  reads = observeReadUnits(store);
});
afterAll(() => close());

const codec = new LinkCodec('a-link-code-secret-of-32-characters!');
const CAMPAIGN = 'Black Friday 2026';
let nextId = 1;
let nextAccount = 1;

function service() {
  return testLinkService(new IndexedLinksRepository(store));
}

function links(accountId: number, count: number, fields: (i: number) => Partial<Link>): Link[] {
  return Array.from({ length: count }, (_, i) => {
    const id = nextId++;
    return aLink({ id, accountId, code: codec.encode(id), createdAt: new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString(), ...fields(i) });
  });
}

/** What a Link/List call reads, in read units. */
async function unitsOf(account: ReturnType<typeof anAccount>, query: LinkQuery): Promise<number> {
  reads.units = 0;
  await service().list(account, query);
  return reads.units;
}

/** The ids of a gsi13 partition, most clicked first. */
async function partition(accountId: number, link: Link): Promise<number[]> {
  const result = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: 'gsi13',
      KeyConditionExpression: 'gsi13pk = :pk',
      ExpressionAttributeValues: { ':pk': commentPartition(accountId, normalisedComment(link.comment), flagsOf(link)) },
      ScanIndexForward: false,
    }),
  );
  return (result.Items ?? []).map((item) => Number(item.id));
}

async function stored(id: number) {
  return (await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.link(id), ConsistentRead: true }))).Item ?? {};
}

/** Pages answered from the comment partitions while `act` runs. */
async function commentPages(act: () => Promise<void>): Promise<number> {
  const page = LinkCommentClicks.prototype.page;
  let pages = 0;
  const spy = jest.spyOn(LinkCommentClicks.prototype, 'page').mockImplementation(async function (this: LinkCommentClicks, ...args) {
    const before = this.pages;
    const answer = await page.apply(this, args);
    pages += this.pages - before;
    return answer;
  });
  try {
    await act();
  } finally {
    spy.mockRestore();
  }
  return pages;
}

describe('criteria[query] by clickCnt', () => {
  it("reads about the page of a campaign's comment, not its links: the same on an account with twenty times as many", async () => {
    // Prepare: the campaign's comment on a third of each account's links, the rest with comments of their own
    const small = anAccount({ id: nextAccount++ });
    const big = anAccount({ id: nextAccount++ });
    const made = (account: typeof small, count: number) =>
      links(account.id, count, (i) => ({
        comment: i % 3 === 0 ? CAMPAIGN : `black cat ${i}`,
        status: i % 10 === 1 ? 0 : 1,
        clickCnt: (i * 7919) % 97,
      }));
    const smallLinks = made(small, 60);
    const bigLinks = made(big, 1200);
    await seedLinks(store, [...smallLinks, ...bigLinks]);
    const queries: LinkQuery[] = [
      { query: 'black FRIDAY', sort: [{ field: 'clickCnt', direction: 'DESC' }], pagination: { pageSize: 10 as PageSize, currentPage: 0 } },
      { query: '2026 black', status: 1, sort: [{ field: 'clickCnt', direction: 'ASC' }], pagination: { pageSize: 10 as PageSize, currentPage: 1 } },
    ];

    for (const query of queries) {
      // Act
      const smallUnits = await unitsOf(small, query);
      const bigUnits = await unitsOf(big, query);
      const answer = await service().list(big, query);

      // Assess: the counters, a Query per partition and the page's links (link and click item each)
      expect(answer).toEqual(listLinks(bigLinks, query));
      expect(bigUnits).toBeLessThanOrEqual(smallUnits * 1.25 + 1);
      expect(bigUnits).toBeLessThan(20);
    }
  });

  it("keeps a comment's links in click order as the rank pass moves them, answered from its partition", async () => {
    // Prepare
    const account = anAccount({ id: nextAccount++ });
    const repository = new IndexedLinksRepository(store);
    const made = links(account.id, 4, () => ({ comment: CAMPAIGN }));
    for (const link of made) await repository.create(link);
    const clicks = new ClicksRepository(store);
    const ranks = new ClickRanks(store);
    for (const [i, added] of [3, 0, 9, 5].entries()) {
      const link = made[i] as Link;
      if (added === 0) continue;
      await clicks.addToLink(link.id, `b${link.id}`, { clicks: added, redirects: 0, bots: 0 });
      await ranks.changed(`b${link.id}`, [{ accountId: account.id, linkId: link.id }]);
      link.clickCnt = added;
    }
    const query: LinkQuery = { query: 'friday', sort: [{ field: 'clickCnt', direction: 'DESC' }], pagination: { pageSize: 25, currentPage: 0 } };
    const [a, b, c, d] = made.map((link) => link.id);
    expect(await partition(account.id, made[0] as Link)).toEqual([d, c, b, a]);

    // Act
    await ranks.apply();

    // Assess: the partition is in click order, and so is the answer that reads it
    expect(await partition(account.id, made[0] as Link)).toEqual([c, d, a, b]);
    let answer: Awaited<ReturnType<LinkService['list']>> | undefined;
    const pages = await commentPages(async () => {
      answer = await service().list(account, query);
    });
    expect(pages).toBe(1);
    expect(answer).toEqual(listLinks(made, query));
  });

  it("places a link found by its code, whose comment does not match, among the comment's links by its clicks", async () => {
    // Prepare: links whose comment starts with another link's code, and that link
    const account = anAccount({ id: nextAccount++ });
    const [found] = links(account.id, 1, () => ({ comment: 'other', clickCnt: 5 })) as [Link];
    const commented = links(account.id, 4, (i) => ({ comment: `${found.code} promo`, clickCnt: [0, 9, 3, 5][i] ?? 0 }));
    await seedLinks(store, [found, ...commented]);
    const all = [found, ...commented];
    const asked: LinkQuery[] = [0, 1, 2].flatMap((currentPage) =>
      (['DESC', 'ASC'] as const).map((direction) => ({
        query: found.code.toUpperCase(),
        sort: [{ field: 'clickCnt' as const, direction }],
        pagination: { pageSize: 2 as PageSize, currentPage },
      })),
    );

    // Act
    const answers: Awaited<ReturnType<LinkService['list']>>[] = [];
    const pages = await commentPages(async () => {
      for (const query of asked) answers.push(await service().list(account, query));
    });

    // Assess
    expect(pages).toBe(asked.length);
    for (const [i, query] of asked.entries()) expect({ query, answer: answers[i] }).toEqual({ query, answer: listLinks(all, query) });
    expect(answers[0]?.totalItemCount).toBe(5);
  });

  it("moves a link between comments' partitions as its comment or flags change, and out of them with its comment or itself", async () => {
    // Prepare
    const account = anAccount({ id: nextAccount++ });
    const repository = new IndexedLinksRepository(store);
    const [first, second] = links(account.id, 2, () => ({ comment: CAMPAIGN })) as [Link, Link];
    await repository.create(first);
    await repository.create(second);

    // Act
    await repository.update(account.id, first.id, { comment: 'Cyber Monday 2026' });
    await repository.moderate(second.id, 0, 'spam');
    const moved = { ...first, comment: 'Cyber Monday 2026' };
    const blocked = { ...second, moderatorStatus: 0 as const };
    const [inCyber, inBlocked, leftBlack] = [
      await partition(account.id, moved),
      await partition(account.id, blocked),
      await partition(account.id, first),
    ];
    await repository.update(account.id, first.id, { comment: null });
    await repository.delete(account.id, second.id);

    // Assess
    expect([inCyber, inBlocked, leftBlack]).toEqual([[first.id], [second.id], []]);
    expect([await partition(account.id, moved), await partition(account.id, blocked)]).toEqual([[], []]);
    expect([(await stored(first.id)).gsi13pk, (await stored(second.id)).gsi13pk]).toEqual([undefined, undefined]);
  });

  it('answers alike for links written before gsi13 once `admin migrate` has placed them', async () => {
    // Prepare: links of the version before gsi13 (counted, no gsi13pk, no commentRanked), and a migration yet to complete a pass
    const account = anAccount({ id: nextAccount++ });
    const counted = new CountedWrites(store, ulid);
    const made = links(account.id, 9, (i) => ({
      comment: i % 4 === 3 ? null : i % 2 === 0 ? CAMPAIGN : 'Friday sale',
      status: i === 4 ? 0 : 1,
      clickCnt: (i * 5) % 7,
    }));
    for (const link of made) {
      const { item, op } = linkCreation(link);
      delete item.gsi13pk;
      delete item.commentRanked;
      const marked = counted.mark(op);
      await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...item, ...marked.set } }));
      await counted.finish(keys.link(link.id), marked);
    }
    await new MigrationProgress(store).begin(2, new Date().toISOString());
    const asked: LinkQuery[] = ['friday', 'black fri', 'FRIDAY sale', 'zzz'].flatMap((word) => [
      { query: word, sort: [{ field: 'clickCnt', direction: 'DESC' }], pagination: { pageSize: 25, currentPage: 0 } },
      {
        query: word,
        status: 1,
        sort: [
          { field: 'clickCnt', direction: 'ASC' },
          { field: 'createTs', direction: 'DESC' },
        ],
        pagination: { pageSize: 2 as PageSize, currentPage: 1 },
      },
    ]);
    const before = await Promise.all(asked.map((query) => service().list(account, query)));

    // Act
    const run = await migrate(store, [linkUpgrade(store, counted)]);

    // Assess: every commented link placed and marked, and the same answers, now from the partitions
    expect(run.completed).toBe(true);
    const marks = await Promise.all(made.map(async (link) => [(await stored(link.id)).commentRanked, (await stored(link.id)).gsi13pk !== undefined]));
    expect(marks).toEqual(made.map((link) => (link.comment ? [COMMENT_RANKED, true] : [undefined, false])));
    let after: Awaited<ReturnType<LinkService['list']>>[] = [];
    const pages = await commentPages(async () => {
      after = await Promise.all(asked.map((query) => service().list(account, query)));
    });
    // All but 'zzz', which no comment word starts: nothing to read either way.
    expect(pages).toBe(asked.length - 2);
    for (const [i, query] of asked.entries()) {
      expect({ query, answer: after[i] }).toEqual({ query, answer: listLinks(made, query) });
      expect({ query, answer: before[i] }).toEqual({ query, answer: listLinks(made, query) });
    }
  });
});
