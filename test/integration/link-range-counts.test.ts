import { ulid } from 'ulid';
import { LinkCodec } from '../../shared/domain/link-code';
import type { Link } from '../../shared/domain/links';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import { flagsMatching, flagsOf } from '../../shared/store/link-keys';
import { LinkLists } from '../../shared/store/link-lists';
import { startTestStore } from '../support/dynamo';
import { aLink } from '../support/fixtures';

/**
 * The total of a createTs range (LinkLists.count): the day counter items of the range, or,
 * for a long range that leaves out fewer days of the account's life, the totals less the
 * days before and after it. Both answer the links in the range, to the millisecond, with
 * deleted links and changed flags.
 */

let store: Store;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ store, close } = await startTestStore());
});
afterAll(() => close());

const codec = new LinkCodec('a-link-code-secret-of-32-characters!');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The first link's creation: 1 August 2026, 00:20 UTC. */
const START = Date.UTC(2026, 7, 1, 0, 20);

/** The day items each count reads, summed over the Queries of the days. */
let daysRead = 0;
beforeAll(() => {
  const readRange = CountedWrites.prototype.readRange;
  jest.spyOn(CountedWrites.prototype, 'readRange').mockImplementation(async function (this: CountedWrites, ...args) {
    const items = await readRange.apply(this, args);
    daysRead += items.length;
    return items;
  });
});

it('counts a long range from the totals less the days outside it, and a short one from its days, alike', async () => {
  // Prepare: 400 links 7 hours and 10 minutes apart (about 4 months), some deleted, some made inactive
  const accountId = 901;
  const repo = new IndexedLinksRepository(store);
  const model = new Map<number, Link>();
  for (let i = 0; i < 400; i++) {
    const id = 10_000 + i;
    const link = aLink({ id, accountId, code: codec.encode(id), createdAt: new Date(START + i * (7 * HOUR + 10 * 60_000)).toISOString() });
    await repo.create(link);
    model.set(id, link);
    if (i % 13 === 5) {
      await repo.delete(accountId, id);
      model.delete(id);
    } else if (i % 7 === 2) {
      await repo.update(accountId, id, { status: 0 });
      link.status = 0;
    }
  }
  const lists = new LinkLists(store, new CountedWrites(store, ulid));
  const links = [...model.values()];
  const oldest = START;
  const newest = START + 399 * (7 * HOUR + 10 * 60_000);
  const at = (ms: number) => new Date(ms);
  const ranges: { name: string; from?: Date; to?: Date; long: boolean }[] = [
    { name: 'to alone, near the newest link', to: at(newest - 3 * DAY - 1234), long: true },
    { name: 'to alone, early', to: at(oldest + 10 * DAY + 17), long: false },
    { name: 'from alone, before the oldest link', from: at(oldest - 40 * DAY), long: true },
    { name: 'from alone, at a link to the millisecond', from: at(START + 3 * (7 * HOUR + 10 * 60_000)), long: true },
    { name: 'both, all but a few days at either end', from: at(oldest + 2 * DAY + 555), to: at(newest - 4 * DAY - 1), long: true },
    { name: 'both, on whole hours', from: at(Date.UTC(2026, 7, 5)), to: at(Date.UTC(2026, 10, 20) - 1), long: true },
    { name: 'both, a week', from: at(oldest + 30 * DAY + 999), to: at(oldest + 37 * DAY), long: false },
    { name: 'both, past the newest link', from: at(oldest + 5 * DAY), to: at(newest + 90 * DAY), long: true },
  ];
  for (const { name, from, to, long } of ranges) {
    for (const status of [undefined, 0, 1] as const) {
      const flags = flagsMatching(status, undefined);
      // Act
      daysRead = 0;
      const counted = await lists.count(accountId, flags, from, to);
      // Assert: the links in the range, and a long range read fewer day items than it spans
      const expected = links.filter((link) => {
        const created = Date.parse(link.createdAt);
        return flags.includes(flagsOf(link)) && (!from || created >= from.getTime()) && (!to || created <= to.getTime());
      }).length;
      const spanned = (Math.min(to?.getTime() ?? newest, newest) - Math.max(from?.getTime() ?? oldest, oldest)) / DAY;
      expect({ name, status, counted }).toEqual({ name, status, counted: expected });
      if (long) expect({ name, fewerDays: daysRead < spanned / 2 }).toEqual({ name, fewerDays: true });
      else expect({ name, daysRead: daysRead <= spanned + 2 }).toEqual({ name, daysRead: true });
    }
  }
});
