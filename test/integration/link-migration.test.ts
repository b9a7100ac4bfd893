import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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
import { withoutNulls } from '../../shared/store/items';
import { keys } from '../../shared/store/keys';
import { LinkCommentTimes } from '../../shared/store/link-comment-times';
import { linkCounterAdds, linkCounts } from '../../shared/store/link-counts';
import { COMMENT_COUNTED, COMMENT_DATED } from '../../shared/store/link-keys';
import { linkUpgrade } from '../../shared/store/link-migration';
import { LinkWordCounts } from '../../shared/store/link-word-counts';
import { linkCreation } from '../../shared/store/links-repo';
import { migrate } from '../../shared/store/migration';
import { MigrationProgress } from '../../shared/store/migration-progress';
import { startTestStore } from '../support/dynamo';
import { aLink, anAccount } from '../support/fixtures';
import { testLinkService } from '../support/link-service';
import { pagesWhile } from '../support/reader-pages';

let store: Store;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ store, close } = await startTestStore());
});
afterAll(() => close());

const codec = new LinkCodec('a-link-code-secret-of-32-characters!');
const ACCOUNT = anAccount({ id: 7 });

/** A link item exactly as the previous version wrote it: gsi1 only, no schema, no words, no counts. */
async function writtenTheOldWay(link: Link): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.tableName,
      Item: { ...keys.link(link.id), ...keys.linkIndex(link.accountId, link.createdAt, link.id), entity: 'Link', ...withoutNulls(link) },
    }),
  );
}

async function stored(id: number) {
  return (await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.link(id), ConsistentRead: true }))).Item ?? {};
}

function service() {
  return testLinkService(new IndexedLinksRepository(store));
}

const QUERIES: Partial<LinkQuery>[] = [
  {},
  { sort: [{ field: 'clickCnt', direction: 'DESC' }] },
  {
    sort: [
      { field: 'expirationDate', direction: 'ASC' },
      { field: 'fullLink', direction: 'DESC' },
    ],
  },
  { status: 0 },
  { moderatorStatus: 0, sort: [{ field: 'code', direction: 'ASC' }] },
  { query: 'sale' },
  { createdFrom: new Date('2026-11-21T00:00:00Z'), sort: [{ field: 'fullLink', direction: 'ASC' }] },
];

describe('linkUpgrade', () => {
  it('brings links written the old way into every list, counted, and skips them the second time', async () => {
    // Prepare: links of the previous version, one with clicks counted the old way
    const links = Array.from({ length: 9 }, (_, i) =>
      aLink({
        id: 100 + i,
        accountId: ACCOUNT.id,
        code: codec.encode(100 + i),
        fullLink: `https://example.com/${9 - i}`,
        status: i % 3 === 0 ? 0 : 1,
        moderatorStatus: i === 4 ? 0 : 1,
        comment: i % 2 ? 'Summer sale' : null,
        expirationDate: i % 4 === 0 ? '2027-01-01' : null,
        clickCnt: i * 7,
        createdAt: `2026-11-${20 + (i % 3)}T1${i}:00:00.000Z`,
      }),
    );
    for (const link of links) await writtenTheOldWay(link);
    const before = await service().list(ACCOUNT, { sort: [], pagination: { pageSize: 25, currentPage: 0 } });
    const upgrade = linkUpgrade(store, new CountedWrites(store, ulid));

    // Act: half of them, then the rest
    const half = links.filter((_, i) => i % 2 === 1);
    const halfway = [];
    for (const link of half) halfway.push(await upgrade.upgrade(await stored(link.id)));
    const partly = await service().list(ACCOUNT, { sort: [], pagination: { pageSize: 25, currentPage: 0 } });
    const first = await Promise.all(links.map(async (link) => upgrade.upgrade(await stored(link.id))));
    const second = await Promise.all(links.map(async (link) => upgrade.upgrade(await stored(link.id))));

    // Assess
    expect(before).toEqual({ items: [], totalItemCount: 0 });
    expect(halfway).toEqual(half.map(() => 'upgraded'));
    // Links not yet upgraded are not listed, and not counted
    expect(partly).toEqual(listLinks(half, { sort: [], pagination: { pageSize: 25, currentPage: 0 } }));
    expect(first).toEqual(links.map((_, i) => (i % 2 === 1 ? 'skipped' : 'upgraded')));
    expect(second).toEqual(links.map(() => 'skipped'));
    for (const fields of QUERIES) {
      const query: LinkQuery = { sort: [], pagination: { pageSize: 25, currentPage: 0 }, ...fields };
      expect(await service().list(ACCOUNT, query)).toEqual(listLinks(links, query));
    }
  });

  it('finishes the counted change of an upgrade whose writer lost its lease before reporting it upgraded', async () => {
    // Prepare: an old link, and a store so slow that the upgrade's change is past its lease
    // when its writer comes to finish it (its id dated 5 s back)
    const link = aLink({ id: 500, accountId: 10, code: codec.encode(500), comment: 'autumn offer', createdAt: '2026-11-22T10:00:00.000Z' });
    await writtenTheOldWay(link);
    let ids = 0;
    const slow = new CountedWrites(store, () => (ids++ === 0 ? ulid(Date.now() - 5_000) : ulid()), { renewAfterMs: 50 });

    // Act
    const result = await linkUpgrade(store, slow).upgrade(await stored(500));

    // Assess: counted and searchable as soon as the upgrade says so, no sweep needed
    const account = anAccount({ id: 10 });
    expect(result).toBe('upgraded');
    expect((await stored(500)).cntOp).toBeUndefined();
    expect(await service().list(account, { sort: [], pagination: { pageSize: 25, currentPage: 0 } })).toEqual(
      expect.objectContaining({ totalItemCount: 1 }),
    );
    expect(
      (await service().list(account, { query: 'autumn', sort: [], pagination: { pageSize: 25, currentPage: 0 } })).items.map((item) => item.id),
    ).toEqual([500]);
  });

  it('reports a link changed since it was read, writes nothing, and upgrades it when read again', async () => {
    // Prepare: an old link read by the migration, then changed by the previous version
    const link = aLink({ id: 300, accountId: 8, code: codec.encode(300), clickCnt: 2, comment: 'winter' });
    await writtenTheOldWay(link);
    const read = await stored(300);
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.link(300),
        UpdateExpression: 'SET #status = :off',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':off': 0 },
      }),
    );
    const upgrade = linkUpgrade(store, new CountedWrites(store, ulid));

    // Act: clicks are counted before the link is read again
    const stale = await upgrade.upgrade(read);
    const untouched = await stored(300);
    await new ClicksRepository(store).addToLink(300, 'batch-1', { clicks: 3, redirects: 3, bots: 0 });
    const fresh = await upgrade.upgrade(await stored(300));

    // Assess: the click key is the link's total at the upgrade, and the rank pass moves it
    // with later clicks
    expect(stale).toBe('changed');
    expect(untouched.schema).toBeUndefined();
    expect(untouched.gsi3sk).toBeUndefined();
    expect(fresh).toBe('upgraded');
    expect((await stored(300)).gsi3sk).toBe(5 * 10 ** 15 + 300);
    await new ClicksRepository(store).addToLink(300, 'batch-2', { clicks: 10, redirects: 10, bots: 0 });
    const ranks = new ClickRanks(store);
    await ranks.changed('batch-2', [{ accountId: 8, linkId: 300 }]);
    await ranks.apply();
    expect((await stored(300)).gsi3sk).toBe(15n * 10n ** 15n + 300n);
    const found = await service().list(anAccount({ id: 8 }), { query: 'WINT', sort: [], pagination: { pageSize: 25, currentPage: 0 } });
    expect(found.items.map((item) => [item.id, item.status, item.clickCnt])).toEqual([[300, 0, 15]]);
    expect(found.totalItemCount).toBe(1);
  });

  it('upgrades an old link in the write that changes it', async () => {
    // Prepare
    const link = aLink({ id: 400, accountId: 9, code: codec.encode(400), status: 0 });
    await writtenTheOldWay(link);

    // Act
    await new IndexedLinksRepository(store).update(9, 400, { status: 1, comment: 'spring' });

    // Assess
    const account = anAccount({ id: 9 });
    const active = await service().list(account, { status: 1, query: 'spr', sort: [], pagination: { pageSize: 25, currentPage: 0 } });
    expect(active.items.map((item) => item.id)).toEqual([400]);
    expect((await service().list(account, { sort: [], pagination: { pageSize: 25, currentPage: 0 } })).totalItemCount).toBe(1);
    expect((await service().list(account, { status: 0, sort: [], pagination: { pageSize: 25, currentPage: 0 } })).totalItemCount).toBe(0);
  });

  it('counts the word starts and comments of links written before their counters, once, and answers word queries as before', async () => {
    // Prepare: links as the version before the word-start counters wrote them (schema 2,
    // their flags counted and their word items written, no word starts counted), one of the
    // version before the indexes, and a table whose migration has yet to complete a pass
    const account = anAccount({ id: 20 });
    const counted = new CountedWrites(store, ulid);
    const comments = ['Summer sale', 'summer SALT sale', 'salesmanship2026 winter', null, 'sa 2026', 'Summer', 'summer sale'];
    const links = comments.map((comment, i) =>
      aLink({
        id: 2000 + i,
        accountId: account.id,
        code: codec.encode(2000 + i),
        status: i === 2 ? 0 : 1,
        comment,
        createdAt: `2026-11-2${i % 3}T10:0${i}:00.000Z`,
      }),
    );
    for (const [i, link] of links.slice(0, 5).entries()) {
      const { item, op } = linkCreation(link);
      // The first three from before the word-start counters, the next two from before the distinct-comment counters under each word only.
      const words = i >= 3;
      if (!words) delete item.wordsCounted;
      // The fifth from the version with one distinct-comment counter per comment, which is no longer read.
      if (i === 4) item.commentCounted = 1;
      else delete item.commentCounted;
      delete item.commentDated;
      const marked = counted.mark({ ...op, counters: linkCounterAdds(link, 1, { words, comment: false, days: false }) });
      await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...item, ...marked.set } }));
      await counted.finish(keys.link(link.id), marked);
    }
    await writtenTheOldWay(links[5] as Link);
    // The seventh from the version before the comment day counters: counted everywhere else.
    const beforeDays = linkCreation(links[6] as Link);
    delete beforeDays.item.commentDated;
    const dated = counted.mark({ ...beforeDays.op, counters: linkCounterAdds(links[6] as Link, 1, { words: true, comment: true, days: false }) });
    await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...beforeDays.item, ...dated.set } }));
    await counted.finish(keys.link(2006), dated);
    await new MigrationProgress(store).begin(2, new Date().toISOString());
    // A change by this version counts the link it changes (the migration then skips it).
    await new IndexedLinksRepository(store).update(account.id, 2000, { status: 0 });
    (links[0] as Link).status = 0;
    // With a creation range whose edges fall inside an hour: the comment day counters and the edges.
    const range = { createdFrom: new Date('2026-11-20T10:02:00.000Z'), createdTo: new Date('2026-11-22T10:04:00.000Z') };
    const asked: LinkQuery[] = ['sa', 'SUM', 'salesmanship', 'salesmanship20', 'sale summer', '2026', 'w'].flatMap((word) => [
      { query: word, sort: [], pagination: { pageSize: 25, currentPage: 0 } },
      { query: word, status: 1, sort: [{ field: 'createTs', direction: 'ASC' }], pagination: { pageSize: 1 as PageSize, currentPage: 1 } },
      { query: word, ...range, sort: [{ field: 'createTs', direction: 'DESC' }], pagination: { pageSize: 25, currentPage: 0 } },
    ]);
    const before = await Promise.all(asked.map((query) => service().list(account, query)));
    const page = LinkWordCounts.prototype.page;
    let commentTotals = 0;
    const reached = jest.spyOn(LinkWordCounts.prototype, 'page').mockImplementation(async function (this: LinkWordCounts, ...args) {
      const before = this.commentTotals;
      const answer = await page.apply(this, args);
      commentTotals += this.commentTotals - before;
      return answer;
    });

    // Act
    const first = await migrate(store, [linkUpgrade(store, counted)]);
    const second = await migrate(store, [linkUpgrade(store, counted)]);

    // Assess: the same answers as before the migration and as the reference, now from the counters
    expect([first.completed, second.completed, second.upgraded]).toEqual([true, true, 0]);
    const marks = async (id: number) => {
      const item = await stored(id);
      return [item.wordsCounted, item.commentCounted, item.commentDated];
    };
    const marked = await Promise.all(links.map((link) => marks(link.id)));
    // The fourth has no comment to count, and its word starts were counted: it is passed over, unmarked.
    expect(marked).toEqual(links.map((link) => (link.id === 2003 ? [1, undefined, undefined] : [1, COMMENT_COUNTED, COMMENT_DATED])));
    const ranged = pagesWhile(
      LinkCommentTimes,
      (reader) => reader.pages,
      async () => {
        for (const query of asked.filter((query) => query.createdFrom)) await service().list(account, query);
      },
    );
    // Every range query is answered from the comment day counters once the pass has completed.
    expect(await ranged).toBe(7);
    for (const [i, query] of asked.entries()) {
      const answer = await service().list(account, query);
      expect({ query, answer }).toEqual({ query, answer: listLinks(links, query) });
      // Before, the words were read and the link of the version before the indexes not yet listed.
      expect({ query, answer: before[i] }).toEqual({
        query,
        answer: listLinks(
          links.filter((link) => link.id !== 2005),
          query,
        ),
      });
    }
    const results = await Promise.all(reached.mock.results.map((result) => result.value));
    expect(results.filter(Boolean).length).toBeGreaterThan(0);
    reached.mockRestore();
    // Several words and a word past 12 characters took their totals from the distinct-comment counters.
    expect(commentTotals).toBeGreaterThan(0);
    const filed = (normalised: string) => normalised.split(' ').map((word) => linkCounts.comment(account.id, word, normalised));
    const [sale, summer, salt, ...saltOthers] = await counted.read([...filed('sale summer'), ...filed('sale salt summer')], true);
    expect([sale, summer, salt, ...saltOthers]).toEqual([{ S0M1: 1, S1M1: 1 }, { S0M1: 1, S1M1: 1 }, { S1M1: 1 }, { S1M1: 1 }, { S1M1: 1 }]);
    // Each commented link in its comment's day counter, once: the seventh, counted elsewhere before, too.
    const day = (normalised: string, on: string) => ({ pk: linkCounts.pk(account.id), sk: linkCounts.commentDaySk(normalised)(on) });
    expect(await counted.read([day('sale summer', '2026-11-20'), day('sale salt summer', '2026-11-21'), day('2026 sa', '2026-11-21')], true)).toEqual(
      [{ h10S0M1: 1, h10S1M1: 1 }, { h10S1M1: 1 }, { h10S1M1: 1 }],
    );
    // The link counted under the earlier layout ('sa 2026') is counted under each of its words, once.
    expect(await counted.read(filed('2026 sa'), true)).toEqual([{ S1M1: 1 }, { S1M1: 1 }]);
    const [sa, sum] = await counted.read([linkCounts.prefix(account.id, 'sa'), linkCounts.prefix(account.id, 'sum')], true);
    expect(sa).toEqual({ S1M1: 3, S0M1: 2 });
    expect(sum).toEqual({ S1M1: 3, S0M1: 1 });
  });
});
