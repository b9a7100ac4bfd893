import { GetCommand, type NativeAttributeValue, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { type LinkPage, type LinkQuery, listLinks } from '../../shared/domain/link-listing';
import type { Link } from '../../shared/domain/links';
import type { PageSize } from '../../shared/domain/paging';
import { ClickRanks } from '../../shared/store/click-ranks';
import { ClicksRepository } from '../../shared/store/clicks-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import { keys } from '../../shared/store/keys';
import { flagsOf, WORDS_RANKED, wordKeys, wordRankPartition } from '../../shared/store/link-keys';
import { linkUpgrade } from '../../shared/store/link-migration';
import { LinkWordSorts } from '../../shared/store/link-word-sorts';
import { migrate } from '../../shared/store/migration';
import { MigrationProgress } from '../../shared/store/migration-progress';
import { anAccount } from '../support/fixtures';
import { linksByMinute, listUnits, seedLinks, testLinkService } from '../support/link-service';
import { answeredBy } from '../support/reader-pages';
import { useObservedStore } from '../support/store-calls';

/**
 * `criteria[query]` of one word by clickCnt from its words' gsi14 partitions
 * (shared/store/link-word-sorts.ts): a word in many distinct comments reads about its page,
 * the partitions follow the rank pass and every change of a link (a change racing a rank
 * pass included), a link with two words of the prefix counts once, and links written
 * before gsi14 answer alike once migrated.
 */

let store: Store;
/** Read units of every call from now on, as DynamoDB (here dynalite) reports them. */
let reads: { units: number };
useObservedStore((started) => {
  ({ store, reads } = started);
});

let nextId = 1;
let nextAccount = 1;
const DESC = { field: 'clickCnt', direction: 'DESC' } as const;
const ASC = { field: 'clickCnt', direction: 'ASC' } as const;

const service = (on: Store = store) => testLinkService(new IndexedLinksRepository(on));

const links = (accountId: number, count: number, fields: (i: number) => Partial<Link>) => linksByMinute(() => nextId++, accountId, count, fields);

const unitsOf = (account: ReturnType<typeof anAccount>, query: LinkQuery) => listUnits(service(), reads, account, query);

async function stored(key: { pk: string; sk: string }) {
  return (await store.db.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true }))).Item ?? {};
}

/** The ids of a word's gsi14 partition with the link's flags, most clicked first. */
async function partition(word: string, link: Link): Promise<number[]> {
  const result = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: 'gsi14',
      KeyConditionExpression: 'gsi14pk = :pk',
      ExpressionAttributeValues: { ':pk': wordRankPartition(link.accountId, word, flagsOf(link)) },
      ScanIndexForward: false,
    }),
  );
  return (result.Items ?? []).map((item) => Number(item.linkId ?? BigInt(item.gsi3sk) % 10n ** 15n));
}

/** The answers to `asked`, and how many came from gsi14. */
const answered = (account: ReturnType<typeof anAccount>, asked: LinkQuery[]) =>
  answeredBy(LinkWordSorts, asked, (query) => service().list(account, query));

function expectReference(asked: LinkQuery[], answers: LinkPage[], made: Link[]): void {
  for (const [i, query] of asked.entries()) expect({ query, answer: answers[i] }).toEqual({ query, answer: listLinks(made, query) });
}

/** Clicks counted as the aggregator counts a batch, then the rank pass told (not run). */
async function clicked(link: Link, added: number): Promise<void> {
  await new ClicksRepository(store).addToLink(link.id, `b${link.id}-${added}`, { clicks: added, redirects: 0, bots: 0 });
  await new ClickRanks(store).changed(`b${link.id}-${added}`, [{ accountId: link.accountId, linkId: link.id }]);
  link.clickCnt += added;
}

describe('criteria[query] of one word by clickCnt', () => {
  it('reads about the page of a word in hundreds of distinct comments: the same on an account with twenty times as many', async () => {
    // Prepare: every comment its own, most with a word `webinar` starts (some with two of them)
    const small = anAccount({ id: nextAccount++ });
    const big = anAccount({ id: nextAccount++ });
    const comments = ['Webinar %', 'webinars and webinar %', 'webinarium %', 'other %'];
    const made = (account: typeof small, count: number) =>
      links(account.id, count, (i) => ({
        comment: (comments[i % 4] ?? '').replace('%', `n${i}`),
        status: i % 10 === 1 ? 0 : 1,
        clickCnt: (i * 7919) % 97,
      }));
    const smallLinks = made(small, 60);
    const bigLinks = made(big, 1200);
    await seedLinks(store, [...smallLinks, ...bigLinks]);
    const ends: LinkQuery[] = [
      { query: 'webinar', sort: [DESC], pagination: { pageSize: 10 as PageSize, currentPage: 0 } },
      { query: 'WEBINAR', status: 1, sort: [ASC], pagination: { pageSize: 10 as PageSize, currentPage: 1 } },
    ];
    const last: LinkQuery = { query: 'webinar', sort: [ASC], pagination: { pageSize: 10 as PageSize, currentPage: 89 } };
    const middle: LinkQuery = { query: 'webinar', sort: [DESC], pagination: { pageSize: 10 as PageSize, currentPage: 45 } };

    // Act
    const units = [];
    for (const query of ends) units.push({ small: await unitsOf(small, query), big: await unitsOf(big, query) });
    const lastUnits = await unitsOf(big, last);
    const { answers, pages } = await answered(big, [...ends, last, middle]);

    // Assess: the counter, a Query per word, the partitions about the page, the page's links
    expect(pages).toBe(ends.length + 2);
    expectReference([...ends, last, middle], answers, bigLinks);
    expect([answers[0]?.totalItemCount, answers[2]?.items.length]).toEqual([900, 10]);
    for (const { small: smallUnits, big: bigUnits } of units) {
      expect(bigUnits).toBeLessThanOrEqual(smallUnits * 1.25 + 1);
      expect(bigUnits).toBeLessThan(24);
    }
    expect(lastUnits).toBeLessThan(24);
  });

  it('keeps the links in click order as the rank pass moves them, in each of their words', async () => {
    // Prepare: ten links, each comment its own (past what gsi13 reads), clicks counted and the pass not run yet
    const account = anAccount({ id: nextAccount++ });
    const repository = new IndexedLinksRepository(store);
    const made = links(account.id, 10, (i) => ({ comment: `webinar webinars q${i}` }));
    for (const link of made) await repository.create(link);
    for (const [i, added] of [3, 0, 9, 5, 0, 1, 0, 2, 0, 4].entries()) if (added > 0) await clicked(made[i] as Link, added);
    const first = made[0] as Link;
    const asked: LinkQuery[] = [DESC, ASC].map((order) => ({
      query: 'webinar',
      sort: [order],
      pagination: { pageSize: 3 as PageSize, currentPage: 1 },
    }));
    expect(await partition('webinars', first)).toEqual(made.map((link) => link.id).reverse());

    // Act
    await new ClickRanks(store).apply();
    const { answers, pages } = await answered(account, asked);

    // Assess: both words' partitions in click order, and so is the answer that reads them
    const byClicks = [...made].sort((a, b) => b.clickCnt - a.clickCnt || b.id - a.id).map((link) => link.id);
    expect([await partition('webinar', first), await partition('webinars', first)]).toEqual([byClicks, byClicks]);
    expect(pages).toBe(asked.length);
    expectReference(asked, answers, made);
  });

  it('counts a link with two words of the prefix once, in its total, its pages and a later sort field', async () => {
    // Prepare: some links with both words, clicks with ties
    const account = anAccount({ id: nextAccount++ });
    const comments = ['webinar webinars c%', 'webinars c%', 'webinar c%', 'other c%'];
    const made = links(account.id, 16, (i) => ({ comment: (comments[i % 4] ?? '').replace('%', String(i)), clickCnt: i % 3 }));
    await seedLinks(store, made);
    const asked: LinkQuery[] = [0, 1, 2, 3, 4, 5, 6].flatMap((currentPage) => [
      ...[DESC, ASC].map((order) => ({ query: 'webinar', sort: [order], pagination: { pageSize: 2 as PageSize, currentPage } })),
      { query: 'webinar', sort: [DESC, { field: 'code' as const, direction: 'ASC' as const }], pagination: { pageSize: 3 as PageSize, currentPage } },
      {
        query: 'webinar',
        sort: [ASC, { field: 'createTs' as const, direction: 'DESC' as const }],
        pagination: { pageSize: 5 as PageSize, currentPage },
      },
    ]);

    // Act
    const { answers, pages } = await answered(account, asked);

    // Assess
    expect(pages).toBe(asked.length);
    expect(answers[0]?.totalItemCount).toBe(12);
    expectReference(asked, answers, made);
  });

  it('follows flag changes, comment changes and deletes', async () => {
    // Prepare
    const account = anAccount({ id: nextAccount++ });
    const repository = new IndexedLinksRepository(store);
    const made = links(account.id, 14, (i) => ({ comment: `webinar f${i}`, clickCnt: 0 }));
    for (const link of made) await repository.create(link);
    const [blocked, paused, renamed, unworded, deleted] = made as [Link, Link, Link, Link, Link];

    // Act
    await repository.moderate(blocked.id, 0, 'spam');
    await repository.update(account.id, paused.id, { status: 0 });
    await repository.update(account.id, renamed.id, { comment: 'webinars again' });
    await repository.update(account.id, unworded.id, { comment: 'nothing here' });
    await repository.delete(account.id, deleted.id);
    for (const [i, link] of [blocked, paused, renamed].entries()) await clicked(link, 4 - i);
    await new ClickRanks(store).apply();
    const model = made
      .filter((link) => link !== deleted)
      .map((link) =>
        link === blocked
          ? { ...link, moderatorStatus: 0 as const, moderatorComment: 'spam' }
          : link === paused
            ? { ...link, status: 0 as const }
            : link === renamed
              ? { ...link, comment: 'webinars again' }
              : link === unworded
                ? { ...link, comment: 'nothing here' }
                : link,
      );
    const asked: LinkQuery[] = [
      {},
      { moderatorStatus: 0 as const },
      { status: 0 as const },
      { status: 1 as const, moderatorStatus: 1 as const },
    ].flatMap((criteria) =>
      [DESC, ASC].map((order) => ({ query: 'webin', ...criteria, sort: [order], pagination: { pageSize: 4 as PageSize, currentPage: 0 } })),
    );
    const { answers, pages } = await answered(account, asked);

    // Assess: the word items moved with the flags, came and went with the words, left with the link
    // (a flag with at most 8 distinct comments is answered from gsi13: link-comment-sorts.ts)
    expect(pages).toBe(4);
    expectReference(asked, answers, model);
    expect(await partition('webinar', { ...blocked, moderatorStatus: 0 })).toEqual([blocked.id]);
    expect((await stored(wordKeys(deleted)[0] as never)).pk).toBeUndefined();
  });

  it.each([
    ['between its read of the link and its write', 'UpdateCommand', 1],
    ['between its write and its word items', 'PutCommand', 0],
  ])("keeps a change's word items at the link's key when a rank pass runs %s", async (_when, command, movedInside) => {
    // Prepare: clicks counted on a link, and its moderation, which lets a rank pass run at that point
    const account = anAccount({ id: nextAccount++ });
    const made = links(account.id, 10, (i) => ({ comment: `webinar webinars r${i}` }));
    const repository = new IndexedLinksRepository(store);
    for (const link of made) await repository.create(link);
    const raced = made[4] as Link;
    await clicked(raced, 7);
    const passes: number[] = [];
    let fired = false;
    const send = async (sent: { constructor: { name: string }; input: { Item?: Record<string, NativeAttributeValue> } }) => {
      const wordPut = sent.input.Item?.entity === 'LinkWord' || command !== 'PutCommand';
      if (!fired && sent.constructor.name === command && wordPut) {
        fired = true;
        passes.push(await new ClickRanks(store).apply());
      }
      return store.db.send(sent as never);
    };
    const racing = new IndexedLinksRepository({ tableName: store.tableName, db: { send } as unknown as Store['db'] });

    // Act
    await racing.moderate(raced.id, 0, 'checked');
    passes.push(await new ClickRanks(store).apply());

    // Assess: the link moved by one pass or the next, and its word items, in their new partitions, with it
    const linkKey = (await stored(keys.link(raced.id))).gsi3sk;
    expect({ passes, key: BigInt(linkKey) }).toEqual({ passes: [movedInside, 1 - movedInside], key: 7n * 10n ** 15n + BigInt(raced.id) });
    const words = await Promise.all(wordKeys(raced).map(stored));
    expect(words.map((word) => [word.gsi14pk, word.gsi3sk])).toEqual(
      ['webinar', 'webinars', 'r4'].map((word) => [wordRankPartition(account.id, word, 'S1M0'), linkKey]),
    );
    const model = made.map((link) => (link === raced ? { ...link, moderatorStatus: 0 as const, moderatorComment: 'checked' } : link));
    const asked: LinkQuery[] = [{ query: 'webinar', moderatorStatus: 0, sort: [DESC], pagination: { pageSize: 5 as PageSize, currentPage: 0 } }];
    expectReference(asked, (await answered(account, asked)).answers, model);
  });

  it('moves the word items of a link whose key a pass moved before it stopped', async () => {
    // Prepare: clicks counted on a link, and a pass that stops once the link's key has moved, before its word items
    const account = anAccount({ id: nextAccount++ });
    const made = links(account.id, 10, (i) => ({ comment: `webinar webinars s${i}` }));
    const repository = new IndexedLinksRepository(store);
    for (const link of made) await repository.create(link);
    const moved = made[6] as Link;
    await clicked(moved, 5);
    const send = async (sent: { input: { Key?: Record<string, NativeAttributeValue> } }) => {
      if (String(sent.input.Key?.pk ?? '').includes('#LINKWORDS#')) throw new Error('stopped');
      return store.db.send(sent as never);
    };
    const stopping = new ClickRanks({ tableName: store.tableName, db: { send } as unknown as Store['db'] });
    await expect(stopping.apply()).rejects.toThrow('stopped');
    const linkKey = (await stored(keys.link(moved.id))).gsi3sk;
    const before = (await Promise.all(wordKeys(moved).map(stored))).map((word) => word.gsi3sk);

    // Act
    await new ClickRanks(store).apply();

    // Assess: the key had moved and the word items had not; the next pass, finding the key there, moved them
    const after = (await Promise.all(wordKeys(moved).map(stored))).map((word) => word.gsi3sk);
    expect({ key: BigInt(linkKey), before, after }).toEqual({
      key: 5n * 10n ** 15n + BigInt(moved.id),
      before: [moved.id, moved.id, moved.id],
      after: [linkKey, linkKey, linkKey],
    });
    const asked: LinkQuery[] = [{ query: 'webinar', sort: [DESC], pagination: { pageSize: 5 as PageSize, currentPage: 0 } }];
    expectReference(asked, (await answered(account, asked)).answers, made);
  });

  it('answers alike for links written before gsi14 once `admin migrate` has put their word items again', async () => {
    // Prepare: links of the version before gsi14 (word items without gsi14pk or gsi3sk, no wordsRanked), a migration yet to complete
    const account = anAccount({ id: nextAccount++ });
    const made = links(account.id, 30, (i) => ({
      comment: i % 5 === 4 ? null : `${i % 2 ? 'webinars' : 'webinar'} m${i}`,
      status: i === 3 ? 0 : 1,
      clickCnt: (i * 5) % 7,
    }));
    await seedLinks(store, made, (items) =>
      items.map((item) => {
        const { gsi14pk: _partition, gsi3sk: _rank, ...word } = item;
        const { wordsRanked: _ranked, ...link } = item;
        return item.entity === 'LinkWord' ? word : link;
      }),
    );
    await new MigrationProgress(store).begin(2, new Date().toISOString());
    const asked: LinkQuery[] = ['webinar', 'webinars', 'webinarz'].flatMap((word) =>
      [DESC, ASC].map((order) => ({ query: word, sort: [order], pagination: { pageSize: 4 as PageSize, currentPage: 1 } })),
    );
    const before = await answered(account, asked);

    // Act
    const run = await migrate(store, [linkUpgrade(store, new CountedWrites(store, ulid))]);

    // Assess: every commented link's word items in gsi14 and the link marked, and the same answers, now from gsi14
    expect(run.completed).toBe(true);
    const marks = await Promise.all(made.map(async (link) => (await stored(keys.link(link.id))).wordsRanked));
    expect(marks).toEqual(made.map((link) => (link.comment ? WORDS_RANKED : undefined)));
    const after = await answered(account, asked);
    expect([before.pages, after.pages]).toEqual([0, asked.length]);
    expectReference(asked, before.answers, made);
    expectReference(asked, after.answers, made);
  });
});
