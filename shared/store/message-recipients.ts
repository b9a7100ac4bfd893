import { type MessageListing, type MessageQuery, matchingTo } from '../domain/message-listing';
import type { Store } from './client';
import type { CountedWrites } from './counted-writes';
import { type Entry, readMerged } from './index-reader';
import { MESSAGE_SCHEMA } from './message-changes';
import { fromMessageItem } from './message-items';
import { messageCounters, messageRanges, numberCell, reversed } from './message-keys';
import { type Driver, matchCost, onlyCriteria } from './message-list-entries';
import { migrationCompleted } from './migration-progress';

/**
 * criteria[to] (docs/data-model.md §4.2): the numbers that start with the digits (gsi6) and
 * those that end with them (gsi7). Their counts are kept as messages are created
 * (`numberCells`, message-keys.ts), so the total is two counter items: the numbers that
 * start so, and those that end so without starting so. Alone and in the default order
 * (newest first), the page is found the cheaper way by those counts: creation order (gsi1,
 * whole messages) read from the nearer end keeping the matches, about
 * `(offset + pageSize) × messages / matches` entries; or, where the matches are too few for
 * that, every match read from gsi6 and gsi7 (small entries) and the newest kept, as without
 * counts. Until the migration has counted every message written before these counts
 * (migrationCompleted), they are not used.
 */

/** Number counters hold digits; a criterion of anything else (or longer than any number) is read as without them. */
const COUNTABLE = /^\d{1,20}$/;
/** gsi1's entries are whole messages, about 6 to each entry of gsi6 or gsi7 (~250 bytes) in read units. */
const WHOLE_PER_MATCH_ENTRY = 6;

/** The page and its total; or the total alone, when reading the matches themselves costs less (the caller does). */
export type RecipientPage = { listing: MessageListing } | { total: number };

export class MessageRecipients {
  /** Whether every message is in its number's counts: the migration has completed (never reverts). */
  #countsComplete = false;

  constructor(
    private readonly store: Store,
    private readonly counted: CountedWrites,
  ) {}

  /**
   * criteria[to] alone, newest first; undefined when the counts cannot answer: not complete
   * yet, or no number starts or ends with the digits (then they are sought anywhere in the
   * numbers, by reading them all).
   */
  async page(accountId: number, digits: string, offset: number, pageSize: number): Promise<RecipientPage | undefined> {
    if (!COUNTABLE.test(digits) || !(await this.#complete())) return undefined;
    const { total, messages } = await this.count(accountId, digits);
    if (total <= 0) return undefined;
    const take = Math.min(pageSize, total - offset);
    if (take <= 0) return { listing: { items: [], totalItemCount: total } };
    // From the nearer end, as readPage does: the last page costs what the first does.
    const newestFirst = total - offset - take >= offset;
    const skip = newestFirst ? offset : total - offset - take;
    // Reading the matches instead: `total` small entries, then the page's messages (0.5 RRU each).
    const budget = Math.ceil(total / WHOLE_PER_MATCH_ENTRY + 2.5 * take);
    const expected = Math.ceil(((skip + take) * messages) / total);
    if (expected > budget) return { total };
    const range = {
      ...messageRanges.all(accountId),
      expect: Math.min(budget, Math.ceil(expected * 1.25) + 1),
      where: [{ attribute: 'to', contains: digits }],
    };
    const matches = matchingTo(digits, true);
    const keep = (entry: Entry) => entry.schema === MESSAGE_SCHEMA && matches(String(entry.to));
    const { entries, stopped } = await readMerged(this.store, [range], { forward: !newestFirst, skip, take, keep, budget });
    // The matches lie further back than the counts foretold, or a count is still being written.
    if (stopped || entries.length < take) return { total };
    const page = newestFirst ? entries : entries.reverse();
    return { listing: { items: page.map((item) => ({ message: fromMessageItem(item) })), totalItemCount: total } };
  }

  /**
   * criteria[to]'s driver among other criteria (toDriver), ranked by what it reads: the
   * matches by the number counts (each needs its message read where its entry cannot
   * decide the rest of the query), or every number of the account when the digits are only
   * found inside numbers. Without complete counts its rank stands (it drives).
   */
  driver(accountId: number, query: MessageQuery & { to: string }, anyAffix: boolean): Driver {
    const driver = toDriver(accountId, query.to, anyAffix);
    const reads = async () => {
      if (!anyAffix) return (await this.counted.read([messageCounters.all(accountId)], true))[0]?.all ?? 0;
      if (!COUNTABLE.test(query.to) || !(await this.#complete())) return undefined;
      return (await this.count(accountId, query.to)).total * matchCost(query, driver);
    };
    return { ...driver, reads };
  }

  /** Messages whose number starts or ends with the digits, and all the account's: one BatchGetItem of three counters. */
  async count(accountId: number, digits: string): Promise<{ total: number; messages: number }> {
    const starts = numberCell(accountId, 'TO', digits);
    const ends = numberCell(accountId, 'OT', reversed(digits));
    const [start, end, all] = await this.counted.read([starts.key, ends.key, messageCounters.all(accountId)], true);
    return { total: (start?.[starts.cell] ?? 0) + (end?.[ends.cell] ?? 0), messages: all?.all ?? 0 };
  }

  async #complete(): Promise<boolean> {
    this.#countsComplete ||= await migrationCompleted(this.store);
    return this.#countsComplete;
  }
}

/** Whether criteria[to] is the query's only criterion, in the default order. */
export function toAlone(query: MessageQuery): query is MessageQuery & { to: string } {
  return query.to !== undefined && query.sort.length === 0 && onlyCriteria(query, ['to']);
}

/**
 * criteria[to]'s matches in number order: those starting with the digits (gsi6), then those
 * ending with them (gsi7); or, when no number does either, every number read for the digits
 * anywhere in it.
 */
export function toDriver(accountId: number, digits: string, anyAffix: boolean): Driver {
  if (!anyAffix) return { ranges: [{ ...messageRanges.toPrefix(accountId), where: [{ attribute: 'to', contains: digits }] }], order: 'to', rank: 9 };
  const prefix = messageRanges.toPrefix(accountId, digits);
  const suffix = messageRanges.toSuffix(accountId, digits);
  // Read as two ranges in turn (their orders differ): an entry of both is taken from the first.
  return { ranges: [prefix, suffix], order: 'to', skip: (e) => 'gsi7sk' in e && String(e.to).startsWith(digits), rank: 2 };
}
