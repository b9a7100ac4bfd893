import { GetCommand, type NativeAttributeValue, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { type LinkPage, type LinkQuery, type LinkSortField, listLinks } from '../../shared/domain/link-listing';
import type { Link } from '../../shared/domain/links';
import type { PageSize } from '../../shared/domain/paging';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import { keys } from '../../shared/store/keys';
import { flagsOf, sortKeyOf, WORDS_RANKED, wordKeys, wordRankPartition } from '../../shared/store/link-keys';
import { linkUpgrade } from '../../shared/store/link-migration';
import { LinkWordSorts } from '../../shared/store/link-word-sorts';
import { migrate } from '../../shared/store/migration';
import { MigrationProgress } from '../../shared/store/migration-progress';
import { anAccount } from '../support/fixtures';
import { linksByMinute, listUnits, seedLinks, testLinkService } from '../support/link-service';
import { answeredBy } from '../support/reader-pages';
import { useObservedStore } from '../support/store-calls';

/**
 * `criteria[query]` of one word by expirationDate, code or fullLink from its words' gsi16,
 * gsi17 or gsi18 partitions (shared/store/link-word-sorts.ts): a word in many distinct
 * comments reads about its page, the partitions follow every change of a link (an
 * expirationDate change racing a comment change included), and links written before those
 * indexes answer alike once migrated.
 */

let store: Store;
/** Read units of every call from now on, as DynamoDB (here dynalite) reports them. */
let reads: { units: number };
useObservedStore((started) => {
  ({ store, reads } = started);
});

let nextId = 1;
let nextAccount = 1;
const FIELDS = ['expirationDate', 'code', 'fullLink'] as const;
const DATES = [null, '2027-03-01', '2027-01-15', '2026-12-31', '2027-02-10'];
const INDEX: Record<(typeof FIELDS)[number], string> = { expirationDate: 'gsi16', code: 'gsi17', fullLink: 'gsi18' };
const ATTRIBUTE: Record<(typeof FIELDS)[number], string> = { expirationDate: 'gsi2sk', code: 'gsi4sk', fullLink: 'gsi5sk' };

const service = () => testLinkService(new IndexedLinksRepository(store));
const page = (pageSize: number, currentPage: number) => ({ pageSize: pageSize as PageSize, currentPage });
const sorted = (field: LinkSortField, direction: 'ASC' | 'DESC') => [{ field, direction }];

/** Links a minute apart, with full links and expiration dates of a few shapes. */
const links = (accountId: number, count: number, fields: (i: number) => Partial<Link>) =>
  linksByMinute(
    () => nextId++,
    accountId,
    count,
    (i) => ({
      fullLink: `https://shop.test/${(i * 7919) % 1009}/${i % 3 ? 'x' : 'y'}`,
      expirationDate: DATES[i % DATES.length] ?? null,
      ...fields(i),
    }),
  );

const unitsOf = (account: ReturnType<typeof anAccount>, query: LinkQuery) => listUnits(service(), reads, account, query);

async function stored(key: { pk: string; sk: string }) {
  return (await store.db.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true }))).Item ?? {};
}

/** The ids of a word's partition of a field's word-level index, with the link's flags, ascending. */
async function partition(field: (typeof FIELDS)[number], word: string, link: Link): Promise<number[]> {
  const result = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: INDEX[field],
      KeyConditionExpression: 'gsi14pk = :pk',
      ExpressionAttributeValues: { ':pk': wordRankPartition(link.accountId, word, flagsOf(link)) },
    }),
  );
  return (result.Items ?? []).map((item) => Number(String(item.sk).slice(-15)));
}

/** The answers to `asked`, and how many came from the word-level indexes. */
const answered = (account: ReturnType<typeof anAccount>, asked: LinkQuery[]) =>
  answeredBy(LinkWordSorts, asked, (query) => service().list(account, query));

function expectReference(asked: LinkQuery[], answers: LinkPage[], made: Link[]): void {
  for (const [i, query] of asked.entries()) expect({ query, answer: answers[i] }).toEqual({ query, answer: listLinks(made, query) });
}

describe('criteria[query] of one word by expirationDate, code or fullLink', () => {
  it('reads about the page of a word in hundreds of distinct comments: the same on an account with ten times as many', async () => {
    // Prepare: every comment its own, most with a word `webinar` starts (some with two of them)
    const small = anAccount({ id: nextAccount++ });
    const big = anAccount({ id: nextAccount++ });
    const comments = ['Webinar %', 'webinars and webinar %', 'webinarium %', 'other %'];
    const made = (account: typeof small, count: number) =>
      links(account.id, count, (i) => ({ comment: (comments[i % 4] ?? '').replace('%', `n${i}`), status: i % 10 === 1 ? 0 : 1 }));
    const smallLinks = made(small, 80);
    const bigLinks = made(big, 800);
    await seedLinks(store, [...smallLinks, ...bigLinks]);
    const ends: LinkQuery[] = FIELDS.flatMap((field) => [
      { query: 'webinar', sort: sorted(field, 'ASC'), pagination: page(10, 0) },
      { query: 'WEBINAR', status: 1, sort: sorted(field, 'DESC'), pagination: page(10, 1) },
    ]);
    const far: LinkQuery[] = FIELDS.map((field) => ({ query: 'webinar', sort: sorted(field, 'ASC'), pagination: page(10, 59) }));
    const middle: LinkQuery[] = FIELDS.map((field) => ({ query: 'webinar', sort: sorted(field, 'DESC'), pagination: page(10, 30) }));

    // Act
    const units = [];
    for (const query of ends) units.push({ query, small: await unitsOf(small, query), big: await unitsOf(big, query) });
    const farUnits = [];
    for (const query of far) farUnits.push(await unitsOf(big, query));
    const asked = [...ends, ...far, ...middle];
    const { answers, pages } = await answered(big, asked);

    // Assess: the counter, a Query per word, the partitions about the page, the page's links
    expect(pages).toBe(asked.length);
    expectReference(asked, answers, bigLinks);
    expect([answers[0]?.totalItemCount, answers[ends.length]?.items.length]).toEqual([600, 10]);
    for (const { query, small: smallUnits, big: bigUnits } of units) {
      expect({ query, bounded: bigUnits <= smallUnits * 1.25 + 1 && bigUnits < 24 }).toEqual({ query, bounded: true });
    }
    for (const farUnit of farUnits) expect(farUnit).toBeLessThan(24);
  });

  it('moves a link in its words’ expirationDate order as its date changes, and follows flag changes, comment changes and deletes', async () => {
    // Prepare
    const account = anAccount({ id: nextAccount++ });
    const repository = new IndexedLinksRepository(store);
    const made = links(account.id, 14, (i) => ({ comment: `webinar webinars f${i}` }));
    for (const link of made) await repository.create(link);
    const [dated, undated, blocked, paused, renamed, unworded, deleted] = made as [Link, Link, Link, Link, Link, Link, Link];

    // Act
    await repository.update(account.id, dated.id, { expirationDate: '2030-01-01' });
    await repository.update(account.id, undated.id, { expirationDate: null });
    await repository.moderate(blocked.id, 0, 'spam');
    await repository.update(account.id, paused.id, { status: 0 });
    await repository.update(account.id, renamed.id, { comment: 'webinarz again' });
    await repository.update(account.id, unworded.id, { comment: 'nothing here' });
    await repository.delete(account.id, deleted.id);
    const changes = new Map<Link, Partial<Link>>([
      [dated, { expirationDate: '2030-01-01' }],
      [undated, { expirationDate: null }],
      [blocked, { moderatorStatus: 0, moderatorComment: 'spam' }],
      [paused, { status: 0 }],
      [renamed, { comment: 'webinarz again' }],
      [unworded, { comment: 'nothing here' }],
    ]);
    const model = made.filter((link) => link !== deleted).map((link) => ({ ...link, ...changes.get(link) }));
    const asked: LinkQuery[] = [
      {},
      { moderatorStatus: 0 as const },
      { status: 0 as const },
      { status: 1 as const, moderatorStatus: 1 as const },
    ].flatMap((criteria) =>
      FIELDS.flatMap((field) =>
        (['ASC', 'DESC'] as const).map((direction) => ({ query: 'webin', ...criteria, sort: sorted(field, direction), pagination: page(4, 0) })),
      ),
    );
    const { answers, pages } = await answered(account, asked);

    // Assess: the word items' date key moved with the date, the items with the flags, came and went with the words, left with the link
    expect(pages).toBe(asked.length);
    expectReference(asked, answers, model);
    const byDate = (a: Link, b: Link) => (a.expirationDate ?? '0000-00-00').localeCompare(b.expirationDate ?? '0000-00-00') || a.id - b.id;
    const open = model.filter((link) => flagsOf(link) === 'S1M1' && link.comment?.startsWith('webinar '));
    expect(await partition('expirationDate', 'webinars', dated)).toEqual(open.sort(byDate).map((link) => link.id));
    expect((await partition('expirationDate', 'webinars', dated)).at(-1)).toBe(dated.id);
    expect(await partition('code', 'webinar', { ...blocked, moderatorStatus: 0 })).toEqual([blocked.id]);
    expect((await stored(wordKeys(deleted)[0] as never)).pk).toBeUndefined();
  });

  it.each([
    ['between its read of the link and its write', 'UpdateCommand'],
    ['between its write and its word items', 'PutCommand'],
  ])('keeps the word items at the link’s date when a comment change runs %s', async (_when, command) => {
    // Prepare: links with a word in common; an expirationDate change, and a comment change of the same link at that point
    const account = anAccount({ id: nextAccount++ });
    const repository = new IndexedLinksRepository(store);
    // Twelve distinct comments: more than a comment-level read takes (link-comment-sorts.ts), so the words' partitions answer.
    const made = links(account.id, 12, (i) => ({ comment: `webinar kept gone r${i}`, expirationDate: '2027-01-01' }));
    for (const link of made) await repository.create(link);
    const raced = made[3] as Link;
    let comment: Promise<unknown> | undefined;
    const send = async (sent: { constructor: { name: string }; input: { Item?: Record<string, NativeAttributeValue> } }) => {
      const wordPut = sent.input.Item?.entity === 'LinkWord' || command !== 'PutCommand';
      if (!comment && sent.constructor.name === command && wordPut) {
        comment = repository.update(account.id, raced.id, { comment: 'webinar kept came' });
        // Before the write, the comment change lands first; after it, it waits for the word items (the link is marked).
        if (command === 'UpdateCommand') await comment;
      }
      return store.db.send(sent as never);
    };
    const racing = new IndexedLinksRepository({ tableName: store.tableName, db: { send } as unknown as Store['db'] });

    // Act
    await racing.update(account.id, raced.id, { expirationDate: '2026-12-01' });
    await comment;

    // Assess: the new comment's words, each at the new date; the gone word's item gone
    const after: Link = { ...raced, comment: 'webinar kept came', expirationDate: '2026-12-01' };
    expect((await stored(keys.link(raced.id))).comment).toBe(after.comment);
    const words = await Promise.all(wordKeys(after).map(stored));
    expect(words.map((word) => [word.sk?.split('#')[0], word.gsi2sk])).toEqual(
      ['webinar', 'kept', 'came'].map((word) => [word, sortKeyOf(after, 'expirationDate')]),
    );
    expect((await stored(wordKeys({ ...raced, comment: 'gone' })[0] as never)).pk).toBeUndefined();
    const model = made.map((link) => (link === raced ? after : link));
    const asked: LinkQuery[] = ['webinar', 'kept', 'gone', 'came'].map((word) => ({
      query: word,
      sort: sorted('expirationDate', 'ASC'),
      pagination: page(3, 0),
    }));
    const { answers, pages } = await answered(account, asked);
    // All but `came`, one distinct comment, which its comment's partition answers.
    expect(pages).toBe(asked.length - 1);
    expectReference(asked, answers, model);
  });

  it('answers alike for links written before gsi16–18 once `admin migrate` has put their word items again', async () => {
    // Prepare: links of the version before gsi16–18 (word items without the copies, wordsRanked 1), a migration yet to complete
    const account = anAccount({ id: nextAccount++ });
    const made = links(account.id, 30, (i) => ({ comment: i % 5 === 4 ? null : `${i % 2 ? 'webinars' : 'webinar'} m${i}`, status: i === 3 ? 0 : 1 }));
    await seedLinks(store, made, (items) =>
      items.map((item) => {
        const { gsi2sk: _date, gsi4sk: _code, gsi5sk: _url, ...word } = item;
        return item.entity === 'LinkWord' ? word : { ...item, wordsRanked: 1 };
      }),
    );
    await new MigrationProgress(store).begin(2, new Date().toISOString());
    const asked: LinkQuery[] = ['webinar', 'webinars'].flatMap((word) =>
      FIELDS.flatMap((field) =>
        (['ASC', 'DESC'] as const).map((direction) => ({ query: word, sort: sorted(field, direction), pagination: page(4, 1) })),
      ),
    );
    const before = await answered(account, asked);

    // Act
    const run = await migrate(store, [linkUpgrade(store, new CountedWrites(store, ulid))]);

    // Assess: every commented link's word items carry the copies and the link is marked, and the same answers, now from gsi16–18
    expect(run.completed).toBe(true);
    const marks = await Promise.all(made.map(async (link) => (await stored(keys.link(link.id))).wordsRanked));
    expect(marks).toEqual(made.map((link) => (link.comment ? WORDS_RANKED : 1)));
    const first = made[0] as Link;
    const copies = await Promise.all(wordKeys(first).map(stored));
    expect(copies.map((word) => FIELDS.map((field) => word[ATTRIBUTE[field]]))).toEqual(
      wordKeys(first).map(() => FIELDS.map((field) => sortKeyOf(first, field))),
    );
    const after = await answered(account, asked);
    expect([before.pages, after.pages]).toEqual([0, asked.length]);
    expectReference(asked, before.answers, made);
    expectReference(asked, after.answers, made);
  });
});
