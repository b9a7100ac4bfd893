import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { LinkCodec } from '../../shared/domain/link-code';
import type { LinkQuery } from '../../shared/domain/link-listing';
import { ClicksRepository } from '../../shared/store/clicks-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites, type Marked } from '../../shared/store/counted-writes';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import { keys } from '../../shared/store/keys';
import { linkCounts } from '../../shared/store/link-counts';
import type { LinksRepository } from '../../shared/store/links-repo';
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

/** Counted writes whose writer stops right after the entity's own write, as a crash would leave it. */
class StoppingAfterMark extends CountedWrites {
  override async finish(_key: unknown, _marked: Marked): Promise<void> {
    throw new Error('stopped');
  }
}

function listing(links: LinksRepository) {
  return testLinkService(links);
}

const everything = (fields: Partial<LinkQuery> = {}): LinkQuery => ({ sort: [], pagination: { pageSize: 25, currentPage: 0 }, ...fields });

describe('link writes', () => {
  it('leaves a link being deleted out of every read and every list, and clicks do not bring it back', async () => {
    // Prepare
    const account = anAccount({ id: 21 });
    const links = new IndexedLinksRepository(store);
    await links.create(aLink({ id: 2100, accountId: 21, code: codec.encode(2100), comment: 'gone soon' }));
    await links.create(aLink({ id: 2101, accountId: 21, code: codec.encode(2101) }));
    const stopping = new IndexedLinksRepository(store, new StoppingAfterMark(store, ulid));

    // Act: the delete's own write lands, its counted steps do not
    await expect(stopping.delete(21, 2100)).rejects.toThrow('stopped');
    await new ClicksRepository(store).addToLink(2100, 'late-batch', { clicks: 4, redirects: 4, bots: 0 });

    // Assess
    const item = (await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.link(2100), ConsistentRead: true }))).Item;
    expect(item).toMatchObject({ deleted: 1, clickCnt: 0 });
    expect(item?.gsi1pk).toBeUndefined();
    expect(await links.get(2100)).toBeUndefined();
    expect(await links.get(2100, { consistent: false })).toBeUndefined();
    expect(await links.getMany([2100, 2101])).toMatchObject([{ id: 2101 }]);
    const service = listing(links);
    expect((await service.list(account, everything())).items.map((link) => link.id)).toEqual([2101]);
    expect((await service.list(account, everything({ sort: [{ field: 'clickCnt', direction: 'DESC' }] }))).items.map((link) => link.id)).toEqual([
      2101,
    ]);
    expect(await links.delete(21, 2100)).toBe(false);
    expect(await links.update(21, 2100, { status: 0 })).toBeUndefined();
  });

  it('keeps counts exact under concurrent changes of one link', async () => {
    // Prepare
    const account = anAccount({ id: 22 });
    const links = new IndexedLinksRepository(store);
    await links.create(aLink({ id: 2200, accountId: 22, code: codec.encode(2200), comment: 'first words' }));

    // Act: status flips, comment changes, moderation and clicks all at once
    await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => links.update(22, 2200, { status: i % 2 === 0 ? 0 : 1 })),
      ...Array.from({ length: 4 }, (_, i) => links.update(22, 2200, { comment: `words ${i}` })),
      links.moderate(2200, 0, 'checked'),
      ...Array.from({ length: 3 }, (_, i) => new ClicksRepository(store).addToLink(2200, `batch-${i}`, { clicks: 2, redirects: 2, bots: 0 })),
    ]);

    // Assess: the link is counted once, under its final flags, and found by its final words only
    const link = await links.get(2200);
    const service = listing(links);
    const totals = await Promise.all(
      [{}, { status: 0 as const }, { status: 1 as const }, { moderatorStatus: 0 as const }, { moderatorStatus: 1 as const }].map(
        async (criteria) => (await service.list(account, everything(criteria))).totalItemCount,
      ),
    );
    expect(totals).toEqual([1, link?.status === 0 ? 1 : 0, link?.status === 1 ? 1 : 0, 1, 0]);
    expect((await service.list(account, everything({ query: 'first' }))).totalItemCount).toBe(0);
    expect((await service.list(account, everything({ query: 'words', status: link?.status }))).items.map((found) => found.id)).toEqual([2200]);
    const byClicks = await service.list(account, everything({ sort: [{ field: 'clickCnt', direction: 'ASC' }] }));
    expect(byClicks.items.map((found) => found.clickCnt)).toEqual([6]);
  });

  it('counts a link in its distinct comment once when its creation and its status change are finished after a crash', async () => {
    // Prepare: two links with one campaign's comment, written alike and not; the second's counted steps stop after its own write
    const account = anAccount({ id: 23 });
    const counted = new CountedWrites(store, ulid);
    const links = new IndexedLinksRepository(store, counted);
    const stopping = new IndexedLinksRepository(store, new StoppingAfterMark(store, ulid));
    await links.create(aLink({ id: 2300, accountId: 23, code: codec.encode(2300), comment: 'Black Friday 2026' }));
    await expect(stopping.create(aLink({ id: 2301, accountId: 23, code: codec.encode(2301), comment: 'black friday, 2026' }))).rejects.toThrow(
      'stopped',
    );
    // The comment's counter, filed under each of its three words.
    const filed = ['2026', 'black', 'friday'].map((word) => linkCounts.comment(23, word, '2026 black friday'));
    const cells = async () => {
      const [first, ...others] = await counted.read(filed, true);
      for (const other of others) expect(other).toEqual(first);
      return first;
    };
    const service = listing(links);
    // The sweep a minute later: the stopped changes are past their lease and renewal.
    const later = () => Date.now() + 60_000;
    const sweep = new CountedWrites(store, () => ulid(later()), { clock: () => new Date(later()), sleep: async () => {} });
    const blackFri = async (fields: Partial<LinkQuery> = {}) =>
      (await service.list(account, everything({ query: 'black FRI', ...fields }))).totalItemCount;

    // Act: the sweep finishes the creation, twice
    await sweep.recover(0);
    await sweep.recover(0);

    // Assess: counted once, the total from the counter
    expect(await cells()).toEqual({ S1M1: 2 });
    expect(await blackFri()).toBe(2);

    // Act: a status change stopped after its own write, then finished by the sweep
    await expect(stopping.update(23, 2301, { status: 0 })).rejects.toThrow('stopped');
    await sweep.recover(0);
    await sweep.recover(0);

    // Assess: the link's cell moved, once
    expect(await cells()).toEqual({ S1M1: 1, S0M1: 1 });
    expect([await blackFri(), await blackFri({ status: 0 }), await blackFri({ status: 1 })]).toEqual([2, 1, 1]);

    // Act: a delete stopped after its own write, then finished
    await expect(stopping.delete(23, 2300)).rejects.toThrow('stopped');
    await sweep.recover(0);

    // Assess
    expect(await cells()).toEqual({ S1M1: 0, S0M1: 1 });
    expect(await blackFri()).toBe(1);
  });
});
