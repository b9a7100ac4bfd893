import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { LinkCodec } from '../../shared/domain/link-code';
import { type LinkQuery, listLinks, normalisedComment } from '../../shared/domain/link-listing';
import type { LinkService } from '../../shared/domain/link-service';
import type { Link } from '../../shared/domain/links';
import type { PageSize } from '../../shared/domain/paging';
import type { Store } from '../../shared/store/client';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import { LinkCommentTimes } from '../../shared/store/link-comment-times';
import { commentPartition, flagsOf } from '../../shared/store/link-keys';
import { aLink, anAccount } from '../support/fixtures';
import { seedLinks, testLinkService } from '../support/link-service';
import { pagesWhile } from '../support/reader-pages';
import { useObservedStore } from '../support/store-calls';

/**
 * `criteria[query]` in creation order with a createTs range, from the matching comments' gsi15
 * partitions (shared/store/link-comment-times.ts): "the links of campaign X last week" reads
 * that week's links of the campaign and the page, not every item of its words; the
 * partitions follow every change of a link.
 */

let store: Store;
/** Read units of every call from now on, as DynamoDB (here dynalite) reports them. */
let reads: { units: number };
useObservedStore((started) => {
  ({ store, reads } = started);
});

const codec = new LinkCodec('a-link-code-secret-of-32-characters!');
const CAMPAIGN = 'Black Friday 2026 subscriptions';
const START = Date.UTC(2026, 9, 1);
let nextId = 1;
let nextAccount = 1;

type Answer = Awaited<ReturnType<LinkService['list']>>;

function service() {
  return testLinkService(new IndexedLinksRepository(store));
}

/** `count` links of the account, a minute apart. */
function links(accountId: number, count: number, fields: (i: number) => Partial<Link>): Link[] {
  return Array.from({ length: count }, (_, i) => {
    const id = nextId++;
    return aLink({ id, accountId, code: codec.encode(id), createdAt: new Date(START + i * 60_000).toISOString(), ...fields(i) });
  });
}

/** The instant `minutes` after the first link. */
const at = (minutes: number) => new Date(START + minutes * 60_000);

/** The answers to `asked`, the read units of each, and how many were answered from gsi15. */
async function answered(account: ReturnType<typeof anAccount>, asked: LinkQuery[]): Promise<{ answers: Answer[]; units: number[]; pages: number }> {
  const answers: Answer[] = [];
  const units: number[] = [];
  const pages = await pagesWhile(
    LinkCommentTimes,
    (reader) => reader.pages,
    async () => {
      for (const query of asked) {
        reads.units = 0;
        answers.push(await service().list(account, query));
        units.push(reads.units);
      }
    },
  );
  return { answers, units, pages };
}

/** The ids of a gsi15 partition, in creation order. */
async function partition(accountId: number, link: Link): Promise<number[]> {
  const result = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: 'gsi15',
      KeyConditionExpression: 'gsi13pk = :pk',
      ExpressionAttributeValues: { ':pk': commentPartition(accountId, normalisedComment(link.comment), flagsOf(link)) },
    }),
  );
  return (result.Items ?? []).map((item) => Number(String(item.pk).slice('LINK#'.length)));
}

/** Every page of `pageSize` in both directions, with and without a status criterion. */
function pagesOf(query: string, createdFrom: Date, createdTo: Date, pageSize: number, pages: number): LinkQuery[] {
  return [undefined, 1 as const].flatMap((status) =>
    (['DESC', 'ASC'] as const).flatMap((direction) =>
      Array.from({ length: pages }, (_, currentPage) => ({
        query,
        ...(status === undefined ? {} : { status }),
        createdFrom,
        createdTo,
        sort: [{ field: 'createTs' as const, direction }],
        pagination: { pageSize: pageSize as PageSize, currentPage },
      })),
    ),
  );
}

describe('criteria[query] with a createTs range', () => {
  it("reads a campaign's links in the range, not every item of its words: first, middle and last pages, both directions, with flags", async () => {
    // Prepare: the campaign's comment on a third of the links (a tenth of them status 0), and many other words starting `black` and `fri`
    const account = anAccount({ id: nextAccount++ });
    const made = links(account.id, 1200, (i) => ({
      comment: i % 3 === 0 ? CAMPAIGN : i % 3 === 1 ? `blackbird${i % 12} cat` : `fries${i % 12} dog`,
      status: i % 30 === 3 ? 0 : 1,
    }));
    await seedLinks(store, made);
    // Minutes 300 to 344: 15 of the campaign's links, two of them status 0.
    // One word of the campaign alone, counted (`friday`) or past 12 characters (`subscriptions`): the same partitions.
    const asked = [
      ...pagesOf('black FRI', at(300), at(344), 4, 5),
      ...pagesOf('2026 subscriptions', at(300), at(344), 10, 2),
      ...pagesOf('Friday', at(300), at(344), 10, 2),
      ...pagesOf('subscriptions', at(300), at(344), 4, 4),
    ];

    // Act
    const { answers, units, pages } = await answered(account, asked);

    // Assess: the reference listing, each from gsi15, each about its page (the counters, a Query of each partition's range, the page's links and click items)
    for (const [i, query] of asked.entries()) expect({ query, answer: answers[i] }).toEqual({ query, answer: listLinks(made, query) });
    expect(answers[0]?.totalItemCount).toBe(15);
    expect(answers[5 * 2]?.totalItemCount).toBe(13);
    for (const [i, query] of asked.entries())
      expect({ query, units: Math.min(units[i] ?? 0, query.pagination.pageSize + 6) }).toEqual({ query, units: units[i] });
    expect(pages).toBe(asked.length);
  });

  it('reads one word of many distinct comments in a range from its word items, not from their partitions', async () => {
    // Prepare: `fries` starts twelve distinct words, each in a comment of its own
    const account = anAccount({ id: nextAccount++ });
    const made = links(account.id, 120, (i) => ({ comment: `fries${i % 12} dog` }));
    await seedLinks(store, made);
    const asked = pagesOf('fries', at(30), at(74), 10, 3);

    // Act
    const { answers, pages } = await answered(account, asked);

    // Assess
    for (const [i, query] of asked.entries()) expect({ query, answer: answers[i] }).toEqual({ query, answer: listLinks(made, query) });
    expect(pages).toBe(0);
  });

  it('counts a range past a thousand links of a comment from its day counters and reads the page from its nearer end', async () => {
    // Prepare: 1,100 links of a comment holding a tracking code (every tenth status 0), the link of that code (another comment), and a range holding all but the first and last 20
    const account = anAccount({ id: nextAccount++ });
    const tracking = randomUUID();
    const commented = links(account.id, 1100, (i) => ({ comment: `${CAMPAIGN} ${tracking}`, status: i % 10 === 5 ? 0 : 1 }));
    const found = { ...(links(account.id, 1, () => ({ comment: 'other', trackingCode: tracking }))[0] as Link), createdAt: at(500.5).toISOString() };
    const made = [...commented, found];
    await seedLinks(store, made);
    const asked = ['friday 2026', tracking].flatMap((query) =>
      [0, 1, 52, 53].flatMap((currentPage) =>
        (['DESC', 'ASC'] as const).map((direction) => ({
          query,
          createdFrom: at(20),
          createdTo: at(1079),
          sort: [{ field: 'createTs' as const, direction }],
          pagination: { pageSize: 20 as PageSize, currentPage },
        })),
      ),
    );

    // Act
    const { answers, units, pages } = await answered(account, asked);

    // Assess: 1,060 in the range, and the link of the code among them by its creation; a page costs its links and click items (20),
    // the counters (five words at most), the count (the comment's two day counters and the last hour's 60 keys, ~2, not the range's 1,060 keys, ~16), the page's keys and the code's lookup
    for (const [i, query] of asked.entries()) expect({ query, answer: answers[i] }).toEqual({ query, answer: listLinks(made, query) });
    expect([answers[0]?.totalItemCount, answers[8]?.totalItemCount]).toEqual([1060, 1061]);
    expect(Math.max(...units)).toBeLessThanOrEqual(36);
    expect(pages).toBe(asked.length);
  });

  it('places a link found by its tracking code (several words), whose comment does not match, among the comment links in the range', async () => {
    // Prepare: links whose comment holds a tracking code of an older shape (a UUID: five words), the link it belongs to (another comment)
    const account = anAccount({ id: nextAccount++ });
    const tracking = randomUUID().toUpperCase();
    const [found] = links(account.id, 1, () => ({ comment: 'other', trackingCode: tracking })) as [Link];
    const commented = links(account.id, 6, (i) => ({ comment: `${tracking} promo`, status: i === 2 ? 0 : 1 }));
    await seedLinks(store, [found, ...commented]);
    const asked = pagesOf(tracking.toLowerCase(), at(0), at(4), 2, 4);

    // Act
    const { answers, pages } = await answered(account, asked);

    // Assess: six in the range (the found link and five commented), five with status 1
    expect(pages).toBe(asked.length);
    for (const [i, query] of asked.entries())
      expect({ query, answer: answers[i] }).toEqual({ query, answer: listLinks([found, ...commented], query) });
    expect([answers[0]?.totalItemCount, answers[8]?.totalItemCount]).toEqual([6, 5]);
  });

  it('follows a link to another partition and day counter cell as its flags or comment change, and out with its comment or itself', async () => {
    // Prepare
    const account = anAccount({ id: nextAccount++ });
    const repository = new IndexedLinksRepository(store);
    // Two left as they are: the cells the others leave are among those counted.
    const made = links(account.id, 7, () => ({ comment: CAMPAIGN }));
    for (const link of made) await repository.create(link);
    const [a, b, c, d, e, ...kept] = made as [Link, Link, Link, Link, Link, Link, Link];
    // Within the links' hour, and across it (its whole hour from the comment's day counters).
    const asked = ['black fri', 'cyber mon'].flatMap((query) => [...pagesOf(query, at(0), at(10), 2, 3), ...pagesOf(query, at(-30), at(70), 2, 3)]);

    // Act
    await repository.moderate(a.id, 0, 'spam');
    await repository.update(account.id, b.id, { status: 0 });
    await repository.update(account.id, c.id, { comment: 'Cyber Monday 2026' });
    await repository.update(account.id, d.id, { comment: null });
    await repository.delete(account.id, e.id);
    const now: Link[] = [
      { ...a, moderatorStatus: 0, moderatorComment: 'spam' },
      { ...b, status: 0 },
      { ...c, comment: 'Cyber Monday 2026' },
      { ...d, comment: null },
      ...kept,
    ];
    const { answers, pages } = await answered(account, asked);

    // Assess: each partition holds what the link is now, and the answers follow
    expect([
      await partition(account.id, now[0] as Link),
      await partition(account.id, now[1] as Link),
      await partition(account.id, now[2] as Link),
    ]).toEqual([[a.id], [b.id], [c.id]]);
    expect(await partition(account.id, a)).toEqual(kept.map((link) => link.id));
    expect(pages).toBe(asked.length);
    for (const [i, query] of asked.entries()) expect({ query, answer: answers[i] }).toEqual({ query, answer: listLinks(now, query) });
  });
});
