import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
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
import { LinkCommentSorts } from '../../shared/store/link-comment-sorts';
import { COMMENT_RANKED, commentPartition, entryId, flagsOf } from '../../shared/store/link-keys';
import { linkUpgrade } from '../../shared/store/link-migration';
import { linkCreation } from '../../shared/store/links-repo';
import { migrate } from '../../shared/store/migration';
import { MigrationProgress } from '../../shared/store/migration-progress';
import { anAccount } from '../support/fixtures';
import { linksByMinute, listUnits, seedLinks, testLinkService } from '../support/link-service';
import { pagesWhile } from '../support/reader-pages';
import { useObservedStore } from '../support/store-calls';

/**
 * `criteria[query]` by clickCnt, expirationDate, code and fullLink from the comments'
 * partitions of gsi13 and gsi16–18 (shared/store/link-comment-sorts.ts): "the most clicked
 * links of campaign X", or its links by URL, read about their page however many links carry
 * the campaign's comment, the partitions follow the rank pass and every change of a link, and
 * links written before gsi13 or before their gsi14pk answer alike once migrated.
 */

let store: Store;
/** Read units of every call from now on, as DynamoDB (here dynalite) reports them. */
let reads: { units: number };
useObservedStore((started) => {
  ({ store, reads } = started);
});

const CAMPAIGN = 'Black Friday 2026';
let nextId = 1;
let nextAccount = 1;

function service() {
  return testLinkService(new IndexedLinksRepository(store));
}

const links = (accountId: number, count: number, fields: (i: number) => Partial<Link>) => linksByMinute(() => nextId++, accountId, count, fields);

/** What a Link/List call reads, in read units. */
const unitsOf = (account: ReturnType<typeof anAccount>, query: LinkQuery) => listUnits(service(), reads, account, query);

/** The ids of a link's comment partition in an index: gsi13's most clicked first, gsi16–18's (gsi14pk) in their order. */
async function partition(accountId: number, link: Link, index: 'gsi13' | 'gsi16' | 'gsi17' | 'gsi18' = 'gsi13'): Promise<number[]> {
  const key = index === 'gsi13' ? 'gsi13pk' : 'gsi14pk';
  const result = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: index,
      KeyConditionExpression: `${key} = :pk`,
      ExpressionAttributeValues: { ':pk': commentPartition(accountId, normalisedComment(link.comment), flagsOf(link)) },
      ScanIndexForward: index !== 'gsi13',
    }),
  );
  return (result.Items ?? []).map(entryId);
}

async function stored(id: number) {
  return (await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.link(id), ConsistentRead: true }))).Item ?? {};
}

/** Pages answered from the comment partitions while `act` runs. */
const commentPages = (act: () => Promise<void>) => pagesWhile(LinkCommentSorts, (reader) => reader.pages, act);
/** Pages answered from the comment partitions with the matches LinkWordCounts read (its fewCommentsPage). */
const handedPages = (act: () => Promise<void>) => pagesWhile(LinkCommentSorts, (reader) => reader.pages, act, 'pageOf');

/**
 * Each query on the big account answered as the model does, once by the comment partitions
 * (`pagesBy`), reading no more than on the small account (a quarter more and a unit): the
 * big account's read units, query by query.
 */
async function answeredLikeSmall(
  { small, big, bigLinks }: { small: ReturnType<typeof anAccount>; big: ReturnType<typeof anAccount>; bigLinks: Link[] },
  queries: LinkQuery[],
  pagesBy: (act: () => Promise<void>) => Promise<number>,
): Promise<number[]> {
  const units: number[] = [];
  for (const query of queries) {
    const smallUnits = await unitsOf(small, query);
    const bigUnits = await unitsOf(big, query);
    let answer: Awaited<ReturnType<LinkService['list']>> | undefined;
    const pages = await pagesBy(async () => {
      answer = await service().list(big, query);
    });
    expect({ query, answer, pages }).toEqual({ query, answer: listLinks(bigLinks, query), pages: 1 });
    expect({ query, bigUnits: Math.min(bigUnits, smallUnits * 1.25 + 1) }).toEqual({ query, bigUnits });
    units.push(bigUnits);
  }
  return units;
}

describe('criteria[query] by clickCnt, expirationDate, code and fullLink', () => {
  it("reads about the page of a campaign's comment, not its links: the same on an account with twenty times as many", async () => {
    // Prepare: the campaign's comment on a third of each account's links, the rest with comments of their own
    const small = anAccount({ id: nextAccount++ });
    const big = anAccount({ id: nextAccount++ });
    const made = (account: typeof small, count: number) =>
      links(account.id, count, (i) => ({
        comment: i % 3 === 0 ? CAMPAIGN : `black cat ${i}`,
        status: i % 10 === 1 ? 0 : 1,
        clickCnt: (i * 7919) % 97,
        fullLink: `https://shop.example/${(i * 4391) % 1009}?утм=${i}`,
        expirationDate: i % 5 === 0 ? null : `2027-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
      }));
    const smallLinks = made(small, 60);
    const bigLinks = made(big, 1200);
    await seedLinks(store, [...smallLinks, ...bigLinks]);
    const page = (currentPage: number) => ({ pageSize: 10 as PageSize, currentPage });
    const queries: LinkQuery[] = [
      { query: 'black FRIDAY', sort: [{ field: 'clickCnt', direction: 'DESC' }], pagination: page(0) },
      { query: '2026 black', status: 1, sort: [{ field: 'clickCnt', direction: 'ASC' }], pagination: page(1) },
      { query: 'black FRIDAY', sort: [{ field: 'fullLink', direction: 'ASC' }], pagination: page(0) },
      { query: '2026 black', status: 1, sort: [{ field: 'fullLink', direction: 'DESC' }], pagination: page(1) },
      { query: 'friday 2026', sort: [{ field: 'code', direction: 'DESC' }], pagination: page(0) },
      { query: 'black friday', status: 1, sort: [{ field: 'code', direction: 'ASC' }], pagination: page(1) },
      { query: 'black fri', sort: [{ field: 'expirationDate', direction: 'ASC' }], pagination: page(0) },
      { query: '2026 fri', sort: [{ field: 'expirationDate', direction: 'DESC' }], pagination: page(1) },
    ];

    // Act and assess: the counters, a Query per partition and the page's links (link and click item each)
    for (const bigUnits of await answeredLikeSmall({ small, big, bigLinks }, queries, commentPages)) expect(bigUnits).toBeLessThan(20);
  });

  it("in creation order reads a campaign's comment's own partitions (gsi15) for several words or a word past 12 characters: about the page, however many links carry it", async () => {
    // Prepare: a Cyrillic campaign comment (its second word is 14 letters) on a third of each account's links
    const campaign = 'Распродажа Чернопятничная 2026';
    const small = anAccount({ id: nextAccount++ });
    const big = anAccount({ id: nextAccount++ });
    const made = (account: typeof small, count: number) =>
      links(account.id, count, (i) => ({ comment: i % 3 === 0 ? campaign : `распродажа ${i}`, status: i % 10 === 1 ? 0 : 1 }));
    const smallLinks = made(small, 60);
    const bigLinks = made(big, 1200);
    await seedLinks(store, [...smallLinks, ...bigLinks]);
    const page = (currentPage: number) => ({ pageSize: 10 as PageSize, currentPage });
    const queries: LinkQuery[] = [
      { query: 'распродажа 2026', sort: [], pagination: page(0) },
      { query: 'ЧЕРНОПЯТНИЧНАЯ', sort: [], pagination: page(1) },
      { query: '2026 распрод', status: 1, sort: [{ field: 'createTs', direction: 'ASC' }], pagination: page(0) },
      { query: 'чернопятничная', status: 1, sort: [{ field: 'createTs', direction: 'DESC' }], pagination: page(1) },
    ];

    // Act and assess: the counters, a Query per partition and the page's links (fails where gsi1's whole links are read and kept: no comment page)
    await answeredLikeSmall({ small, big, bigLinks }, queries, handedPages);
  });

  it("keeps a comment's links in expirationDate order as their dates change, answered from its partition", async () => {
    // Prepare
    const account = anAccount({ id: nextAccount++ });
    const repository = new IndexedLinksRepository(store);
    const made = links(account.id, 4, (i) => ({ comment: CAMPAIGN, expirationDate: ['2027-03-01', null, '2027-01-15', '2027-02-01'][i] ?? null }));
    for (const link of made) await repository.create(link);
    const [a, b, c, d] = made as [Link, Link, Link, Link];
    expect(await partition(account.id, a, 'gsi16')).toEqual([b.id, c.id, d.id, a.id]);

    // Act: a date set, one taken away, one moved
    await repository.update(account.id, b.id, { expirationDate: '2027-04-01', expiresAt: '2027-04-01T23:59:59.999Z' });
    await repository.update(account.id, a.id, { expirationDate: null, expiresAt: null });
    await repository.update(account.id, c.id, { expirationDate: '2027-02-15', expiresAt: '2027-02-15T23:59:59.999Z' });
    const model = made.map((link) => {
      if (link === b) return { ...b, expirationDate: '2027-04-01', expiresAt: '2027-04-01T23:59:59.999Z' };
      if (link === c) return { ...c, expirationDate: '2027-02-15', expiresAt: '2027-02-15T23:59:59.999Z' };
      return link === a ? { ...a, expirationDate: null, expiresAt: null } : link;
    });
    const asked: LinkQuery[] = (['ASC', 'DESC'] as const).map((direction) => ({
      query: 'friday',
      sort: [{ field: 'expirationDate', direction }],
      pagination: { pageSize: 25, currentPage: 0 },
    }));
    const answers: Awaited<ReturnType<LinkService['list']>>[] = [];
    const pages = await commentPages(async () => {
      for (const query of asked) answers.push(await service().list(account, query));
    });

    // Assess: the link items' own keys moved, so the partition is in the new order, as the answers
    expect(await partition(account.id, a, 'gsi16')).toEqual([a.id, d.id, c.id, b.id]);
    expect(pages).toBe(asked.length);
    for (const [i, query] of asked.entries()) expect({ query, answer: answers[i] }).toEqual({ query, answer: listLinks(model, query) });
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

  it("places a link found by its code, whose comment does not match, among the comment's links by its own key", async () => {
    // Prepare: links whose comment starts with another link's code, and that link
    const account = anAccount({ id: nextAccount++ });
    const [found] = links(account.id, 1, () => ({ comment: 'other', clickCnt: 5, fullLink: 'https://b.example/', expirationDate: '2027-02-01' })) as [
      Link,
    ];
    const commented = links(account.id, 4, (i) => ({
      comment: `${found.code} promo`,
      clickCnt: [0, 9, 3, 5][i] ?? 0,
      fullLink: `https://${'acde'[i]}.example/`,
      expirationDate: [null, '2027-03-01', '2027-01-01', '2027-02-01'][i] ?? null,
    }));
    await seedLinks(store, [found, ...commented]);
    const all = [found, ...commented];
    const asked: LinkQuery[] = (['clickCnt', 'code', 'fullLink', 'expirationDate'] as const).flatMap((field) =>
      [0, 1, 2].flatMap((currentPage) =>
        (['DESC', 'ASC'] as const).map((direction) => ({
          query: found.code.toUpperCase(),
          sort: [{ field, direction }],
          pagination: { pageSize: 2 as PageSize, currentPage },
        })),
      ),
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
    const byUrl = [
      await partition(account.id, moved, 'gsi18'),
      await partition(account.id, blocked, 'gsi18'),
      await partition(account.id, first, 'gsi18'),
    ];
    await repository.update(account.id, first.id, { comment: null });
    await repository.delete(account.id, second.id);

    // Assess
    expect([inCyber, inBlocked, leftBlack]).toEqual([[first.id], [second.id], []]);
    expect(byUrl).toEqual([[first.id], [second.id], []]);
    expect([await partition(account.id, moved), await partition(account.id, blocked)]).toEqual([[], []]);
    expect([await partition(account.id, moved, 'gsi17'), await partition(account.id, blocked, 'gsi17')]).toEqual([[], []]);
    const left = [await stored(first.id), await stored(second.id)].map((item) => [item.gsi13pk, item.gsi14pk]);
    expect(left).toEqual([
      [undefined, undefined],
      [undefined, undefined],
    ]);
  });

  it('answers alike for links written before gsi13 or before their gsi14pk once `admin migrate` has placed them', async () => {
    // Prepare: links of the versions before gsi13 (counted, no gsi13pk, no commentRanked) and before the
    // link items' gsi14pk (commentRanked 1), and a migration yet to complete a pass
    const account = anAccount({ id: nextAccount++ });
    const counted = new CountedWrites(store, ulid);
    const made = links(account.id, 9, (i) => ({
      comment: i % 4 === 3 ? null : i % 2 === 0 ? CAMPAIGN : 'Friday sale',
      status: i === 4 ? 0 : 1,
      clickCnt: (i * 5) % 7,
      fullLink: `https://example.com/${(i * 7) % 9}`,
      expirationDate: i % 3 === 0 ? null : `2027-0${(i % 4) + 1}-01`,
    }));
    for (const [i, link] of made.entries()) {
      const { item, op } = linkCreation(link);
      delete item.gsi14pk;
      if (i < 5) {
        delete item.gsi13pk;
        delete item.commentRanked;
      } else item.commentRanked = 1;
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
      { query: word, sort: [{ field: 'fullLink', direction: 'ASC' }], pagination: { pageSize: 25, currentPage: 0 } },
      {
        query: word,
        sort: [
          { field: 'expirationDate', direction: 'DESC' },
          { field: 'clickCnt', direction: 'ASC' },
        ],
        pagination: { pageSize: 2 as PageSize, currentPage: 1 },
      },
    ]);
    const before = await Promise.all(asked.map((query) => service().list(account, query)));

    // Act
    const run = await migrate(store, [linkUpgrade(store, counted)]);

    // Assess: every commented link placed and marked, and the same answers, now from the partitions
    expect(run.completed).toBe(true);
    const marks = await Promise.all(
      made.map(async (link) => {
        const item = await stored(link.id);
        return [item.commentRanked, item.gsi13pk !== undefined, item.gsi14pk === item.gsi13pk];
      }),
    );
    // A link without a comment is passed over: it keeps the mark it had.
    expect(marks).toEqual(made.map((link, i) => (link.comment ? [COMMENT_RANKED, true, true] : [i < 5 ? undefined : 1, false, true])));
    let after: Awaited<ReturnType<LinkService['list']>>[] = [];
    const pages = await commentPages(async () => {
      after = await Promise.all(asked.map((query) => service().list(account, query)));
    });
    // All but 'zzz', which no comment word starts: nothing to read either way.
    expect(pages).toBe(asked.length - 4);
    for (const [i, query] of asked.entries()) {
      expect({ query, answer: after[i] }).toEqual({ query, answer: listLinks(made, query) });
      expect({ query, answer: before[i] }).toEqual({ query, answer: listLinks(made, query) });
    }
  });
});
