import { LinkCodec } from '../../shared/domain/link-code';
import { type LinkQuery, listLinks } from '../../shared/domain/link-listing';
import type { LinkService } from '../../shared/domain/link-service';
import type { Link } from '../../shared/domain/links';
import type { Store } from '../../shared/store/client';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import { linkCounts } from '../../shared/store/link-counts';
import { LinkWordCounts } from '../../shared/store/link-word-counts';
import { startTestStore } from '../support/dynamo';
import { aLink, anAccount } from '../support/fixtures';
import { testLinkService } from '../support/link-service';

let store: Store;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ store, close } = await startTestStore());
});
afterAll(() => close());

const codec = new LinkCodec('a-link-code-secret-of-32-characters!');

function listing(links: IndexedLinksRepository): LinkService {
  return testLinkService(links);
}

/** The distinct-comment counters each Query under a word returned (their items, as read). */
function observeCommentReads(): number[] {
  const read: number[] = [];
  store.db.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const under = (args.input as { ExpressionAttributeValues?: Record<string, unknown> }).ExpressionAttributeValues?.[':comments'];
      if (typeof under === 'string' && under.startsWith(linkCounts.commentsSk))
        read.push((result.output as { ScannedCount?: number }).ScannedCount ?? 0);
      return result;
    },
    { step: 'initialize', name: 'observeCommentReads' },
  );
  return read;
}

describe('the distinct-comment counters under each word', () => {
  it('total several words from the comments having the rarest one, however many other comments the account has', async () => {
    // Prepare: a campaign's comment on 30 links, 90 links with a comment each of their own
    const account = anAccount({ id: 31 });
    const repository = new IndexedLinksRepository(store);
    const links: Link[] = [];
    for (let i = 0; i < 120; i++) {
      const comment = i % 4 === 0 ? 'Black Friday 2026 subscriptions' : `winter offer ${i} fridge`;
      const link = aLink({ id: 3100 + i, accountId: 31, code: codec.encode(3100 + i), comment, status: i % 8 === 0 ? 0 : 1 });
      await repository.create(link);
      links.push(link);
    }
    const service = listing(repository);
    const read = observeCommentReads();
    const page = LinkWordCounts.prototype.page;
    let commentTotals = 0;
    const counted = jest.spyOn(LinkWordCounts.prototype, 'page').mockImplementation(async function (this: LinkWordCounts, ...args) {
      const before = this.commentTotals;
      const answer = await page.apply(this, args);
      commentTotals += this.commentTotals - before;
      return answer;
    });
    const ask = async (query: string, status?: 0 | 1) => {
      const asked: LinkQuery = { query, ...(status !== undefined && { status }), sort: [], pagination: { pageSize: 25, currentPage: 0 } };
      const reads = read.length;
      const totals = commentTotals;
      const answer = await service.list(account, asked);
      expect({ asked, answer }).toEqual({ asked, answer: listLinks(links, asked) });
      return { read: read.slice(reads), counted: commentTotals - totals };
    };

    // Act and assess: the campaign's words, under its rarest (`fri` also starts 90 `fridge` comments): one comment read,
    // where the account's 91 distinct comments were read whole before
    for (const query of ['black fri', 'fri black 2026', 'fri 2026', 'subscriptions']) {
      expect({ query, ...(await ask(query)) }).toEqual({ query, read: [1], counted: 1 });
      expect({ query, ...(await ask(query, 0)) }).toEqual({ query, read: [1], counted: 1 });
    }
    // The everyday comments' words: 90 comments under `offer`, dearer than its 90 word items, so the read stops at
    // that and the word items answer
    const everyday = await ask('offer fri');
    expect(everyday.counted).toBe(0);
    expect(everyday.read.reduce((sum, items) => sum + items, 0)).toBeLessThan(90);
    counted.mockRestore();
  }, 120_000);

  it('finds nothing for a comment word in a createTs range that ends before it starts', async () => {
    // Prepare
    const account = anAccount({ id: 32 });
    const repository = new IndexedLinksRepository(store);
    const link = aLink({ id: 3300, accountId: 32, code: codec.encode(3300), comment: 'Black Friday', createdAt: '2026-11-21T10:00:00.000Z' });
    await repository.create(link);
    const service = listing(repository);
    const query = (createdFrom: string, createdTo: string, words = 'black'): LinkQuery => ({
      query: words,
      createdFrom: new Date(createdFrom),
      createdTo: new Date(createdTo),
      sort: [],
      pagination: { pageSize: 25, currentPage: 0 },
    });

    // Act
    const inverted = await service.list(account, query('2026-11-22T00:00:00Z', '2026-11-21T00:00:00Z'));
    const invertedWords = await service.list(account, query('2026-11-22T00:00:00Z', '2026-11-21T00:00:00Z', 'black fri'));
    const around = await service.list(account, query('2026-11-21T00:00:00Z', '2026-11-22T00:00:00Z'));

    // Assess
    expect(inverted).toEqual({ items: [], totalItemCount: 0 });
    expect(invertedWords).toEqual({ items: [], totalItemCount: 0 });
    expect(around.items.map((found) => found.id)).toEqual([3300]);
  });
});
