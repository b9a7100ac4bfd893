import type { MessageListing, MessageQuery, MessageSortField } from '../domain/message-listing';
import { MESSAGE_STATUSES } from '../domain/message-status';
import { MAX_SEGMENTS } from '../domain/segments';
import type { Store } from './client';
import type { CountedWrites } from './counted-writes';
import { instantCondition } from './index-query';
import { countRanges, type Entry, type IndexRange, readMerged, readPage } from './index-reader';
import { sortRange } from './message-combos';
import { messageCounters, messageRanges, sortValueOfKey } from './message-keys';
import { messagesOfEntries, onlyCriteria, textDriver } from './message-list-entries';
import { accountSenders, senderCreatedCount } from './message-senders';
import { migrationCompleted } from './migration-progress';

/**
 * A campaignCreateTs range (the messages' creation time) with one other criterion, or with
 * a sort (docs/data-model.md §4.2, §4.4): read by the matches in the range, not by the
 * criterion's matches over all time.
 * - With `from`, `text`, a whole number `to` or `campaignStatus`: each of their indexes' sort
 *   keys is the value, then `tail` (`<createdAt>#pad(id)`), so the criterion's matches created
 *   in the range are one key range (gsi11: one per partition, merged): the total is a COUNT of
 *   it (for `from`: its day items and the edge hours), the page is read from its nearer end. A `to` is whole when no other number of the
 *   account starts or ends with it (then its matches are gsi6's `TO#<to>#` entries only).
 * - With one sort: every list index projects `createdAt`, so the sort's index read in order
 *   and kept to the range reads about `(offset + pageSize) × messages / matches` entries;
 *   where the range is narrow, reading it whole (the caller's way) costs less.
 */

/** Relative read costs, as message-combos.ts weighs them: a list index entry, a gsi1 entry (a whole message), a message read by BatchGetItem. */
const ENTRY = 1;
const WHOLE_ENTRY = 6;
const MESSAGE_READ = 16;
/** The greatest sort-key tail after a value's label: above any `<createdAt>#pad(id)`. */
const TOP = '~';
/** gsi3's numeric keys: a millisecond instant has 13 digits, an id 15. */
const MS_SCALE = 10 ** 13;
const ID_SCALE = 10n ** 15n;
/** A creation range sorted by sender is read one key range per sender up to this many senders (their counter items name them). */
const MAX_SENDERS = 100;

export type CreatedWithWay = 'from' | 'text' | 'to' | 'campaignStatus' | 'values' | 'sortIndex';
export type CreatedWithPage = { listing: MessageListing; way: CreatedWithWay };

type Criterion = 'from' | 'text' | 'to' | 'campaignStatus';
const CRITERIA: readonly Criterion[] = ['from', 'text', 'to', 'campaignStatus'];
/** Sorts a fixed criterion value leaves in creation order (its index's keys are the value, then `tail`). */
const OWN_SORT: Partial<Record<Criterion, MessageSortField>> = { from: 'from', text: 'text', to: 'to' };

/** The criterion a query has beside a creation range and nothing else, read in its index's order; undefined when it is not such a query. */
export function createdWithCriterion(query: MessageQuery): Criterion | undefined {
  if (!query.campaignCreatedFrom && !query.campaignCreatedTo) return undefined;
  const present = CRITERIA.filter((name) => query[name] !== undefined);
  const [criterion] = present;
  if (!criterion || present.length > 1 || !onlyCriteria(query, [criterion, 'campaignCreatedFrom', 'campaignCreatedTo'])) return undefined;
  const [sort, ...more] = query.sort;
  return more.length === 0 && (!sort || sort.field === OWN_SORT[criterion]) ? criterion : undefined;
}

/** Whether the query is a creation range and one sort, nothing else. */
export function createdWithSort(query: MessageQuery): boolean {
  return (
    (query.campaignCreatedFrom !== undefined || query.campaignCreatedTo !== undefined) &&
    query.sort.length === 1 &&
    onlyCriteria(query, ['campaignCreatedFrom', 'campaignCreatedTo'])
  );
}

export class MessageTimeCriteria {
  /** Whether the migration has counted every message under its sender and in its sender's days (remembered once true). */
  #sendersCounted = false;
  /** Campaign-status totals taken as the range's total less the other statuses', for tests that check the way is taken. */
  complements = 0;

  constructor(
    private readonly store: Store,
    private readonly counted: CountedWrites,
    /** WHOLE_ENTRY, raised by tests to take the sort's index on few messages. */
    private readonly wholeEntry = WHOLE_ENTRY,
  ) {}

  /**
   * A creation range with one criterion (createdWithCriterion); undefined when `to` is not a
   * whole number of the account (`anyAffix`: some number starts or ends with its digits).
   */
  async withCriterion(
    accountId: number,
    query: MessageQuery,
    anyAffix: boolean,
    offset: number,
    pageSize: number,
    rangeTotal?: () => Promise<number>,
  ): Promise<CreatedWithPage | undefined> {
    const criterion = createdWithCriterion(query);
    const found = criterion && (criterion !== 'to' || anyAffix) && (await this.#ranges(accountId, query, criterion));
    if (!criterion || !found) return undefined;
    const { ranges } = found;
    const total =
      criterion === 'campaignStatus' && rangeTotal
        ? await this.#statusTotal(accountId, query, ranges, rangeTotal)
        : criterion === 'from' && query.from !== undefined && (await this.#countsComplete())
          ? await senderCreatedCount(
              this.store,
              this.counted,
              accountId,
              query.from,
              (a, b) => labelled(messageRanges.from(accountId, query.from), a, b),
              {
                from: query.campaignCreatedFrom,
                to: query.campaignCreatedTo,
              },
            )
          : await countRanges(this.store, ranges);
    const forward = query.sort[0]?.direction === 'ASC';
    const entries = await readPage(this.store, ranges, { forward, offset, take: pageSize, total });
    const messages = (await messagesOfEntries(this.store, entries)).map(({ message }) => ({ message }));
    return { listing: { items: messages, totalItemCount: total }, way: criterion };
  }

  /**
   * A creation range and one sort (createdWithSort), `total` its matches (the hourly
   * counters). By status or segNum, whose index keys are the value then the creation time:
   * the range is one key range per value, merged in the sort's order, so the page is read
   * from the nearer end as a single criterion's is. By number (`to`: many values, each a
   * short run in creation order): that index read in order and kept to the range, when that
   * is expected to cost less than reading the range whole (`total` whole messages of gsi1)
   * and stopped at that cost. By sender: one key range per sender of the account, as by
   * status. Undefined otherwise: the caller reads the range whole. Sorts whose order follows
   * creation (times, campaign id) or whose runs are long (text) would meet the range's
   * matches all together, past its share.
   */
  async withSort(accountId: number, query: MessageQuery, total: number, offset: number, pageSize: number): Promise<CreatedWithPage | undefined> {
    const [sort] = query.sort;
    if (!sort || !createdWithSort(query)) return undefined;
    const take = Math.min(pageSize, total - offset);
    if (take <= 0) return { listing: { items: [], totalItemCount: total }, way: 'values' };
    const { campaignCreatedFrom: from, campaignCreatedTo: to } = query;
    const forward = sort.direction === 'ASC';
    const listing = async (entries: Entry[]) => ({
      items: (await messagesOfEntries(this.store, entries)).map(({ message }) => ({ message })),
      totalItemCount: total,
    });
    if (sort.field === 'status' || sort.field === 'segNum' || sort.field === 'from') {
      const ranges =
        sort.field === 'status'
          ? MESSAGE_STATUSES.map((status) => messageRanges.statusCreated(accountId, status, from, to))
          : sort.field === 'from'
            ? await this.#senders(accountId, from, to)
            : await this.#segments(accountId, from, to);
      const entries = ranges && (await readPage(this.store, ranges, { forward, offset, take: pageSize, total }));
      // Fewer than the counters promise: a count still being written; the range read whole counts them.
      return entries && entries.length === take ? { listing: await listing(entries), way: 'values' } : undefined;
    }
    if (sort.field !== 'to') return undefined;
    const [counts] = await this.counted.read([messageCounters.all(accountId)], true);
    const fromEnd = total - offset - take;
    const reverse = fromEnd < offset;
    const skip = reverse ? fromEnd : offset;
    const expected = Math.ceil(((skip + take) * (counts?.all ?? 0)) / total);
    const wholeRange = total * this.wholeEntry;
    if (expected * ENTRY + take * MESSAGE_READ >= wholeRange) return undefined;
    const low = from?.getTime() ?? Number.NEGATIVE_INFINITY;
    const high = to?.getTime() ?? Number.POSITIVE_INFINITY;
    const keep = (entry: Entry) => {
      const createdAt = Date.parse(String(entry.createdAt));
      return createdAt >= low && createdAt <= high;
    };
    const range = { ...sortRange(accountId, sort.field), expect: Math.ceil(expected * 1.25) + 1, where: [instantCondition('createdAt', from, to)] };
    const read = await readMerged(this.store, [range], { forward: forward !== reverse, skip, take, keep, budget: wholeRange / ENTRY });
    if (read.stopped || read.entries.length < take) return undefined;
    return { listing: await listing(reverse ? read.entries.reverse() : read.entries), way: 'sortIndex' };
  }

  /**
   * gsi3's key range of each segment count up to the account's highest (one entry read to
   * know it), kept to messages created in [from, to]: its keys are
   * `segNum × 10^28 + createdAt (ms) × 10^15 + id` (messageIndexKeys). Undefined past
   * MAX_SEGMENTS (a message written before that limit): too many ranges to merge.
   */
  async #segments(accountId: number, from?: Date, to?: Date): Promise<IndexRange[] | undefined> {
    const all = messageRanges.segNum(accountId);
    const { entries } = await readMerged(this.store, [all], { forward: false, skip: 0, take: 1 });
    const highest = entries[0] ? Number(sortValueOfKey(all.index, entries[0].gsi3sk)) : 0;
    if (highest > MAX_SEGMENTS) return undefined;
    const first = BigInt(Math.max(0, from?.getTime() ?? 0));
    const last = BigInt(Math.min(MS_SCALE - 1, Math.max(-1, to?.getTime() ?? MS_SCALE - 1)));
    if (last < first) return [];
    return Array.from({ length: highest + 1 }, (_, segNum) => {
      const value = BigInt(segNum) * BigInt(MS_SCALE);
      return { ...all, sk: { between: [(value + first) * ID_SCALE, (value + last) * ID_SCALE + ID_SCALE - 1n] } };
    });
  }

  /**
   * gsi9's key range of each sender of the account, kept to messages created in [from, to]
   * (its keys are the sender, then `tail`): the senders are named by their counter items
   * (`MESSAGES#F#<from>`, one consistent Query). Undefined until the migration has counted
   * every message under its sender, or past MAX_SENDERS.
   */
  async #senders(accountId: number, from?: Date, to?: Date): Promise<IndexRange[] | undefined> {
    if (!(await this.#countsComplete())) return undefined;
    const senders = await accountSenders(this.store, accountId);
    if (senders.length > MAX_SENDERS) return undefined;
    return senders.map((sender) => labelled(messageRanges.from(accountId, sender), from, to));
  }

  /** The criterion's key ranges kept to the creation range (what the keys do not decide, their conditions check). */
  async #ranges(accountId: number, query: MessageQuery, criterion: Criterion): Promise<{ ranges: IndexRange[] } | undefined> {
    const { campaignCreatedFrom: from, campaignCreatedTo: to } = query;
    if (criterion === 'campaignStatus' && query.campaignStatus !== undefined)
      return { ranges: messageRanges.campaignStatus(accountId, query.campaignStatus).map((range) => ({ ...range, ...created('', from, to) })) };
    if (criterion === 'from' && query.from !== undefined) return { ranges: [labelled(messageRanges.from(accountId, query.from), from, to)] };
    if (criterion === 'text' && query.text !== undefined) {
      const driver = textDriver(accountId, query.text, async () => 0);
      return { ranges: driver.ranges.map((range) => labelled(range, from, to)) };
    }
    if (criterion === 'to' && query.to !== undefined && (await this.#whole(accountId, query.to)))
      return { ranges: [labelled({ ...messageRanges.toPrefix(accountId, `${query.to}#`) }, from, to)] };
    return undefined;
  }

  /**
   * A campaign status's messages in the creation range. Every message is in exactly one of
   * gsi11's partitions, so where the other partitions hold fewer messages (by the account's
   * cells: DONE is most of an account, the statuses of campaigns still under way are few),
   * the range's total (`rangeTotal`, the hourly counters) less a COUNT of theirs in the
   * range reads the rarer side; otherwise the wanted partitions are counted.
   */
  async #statusTotal(accountId: number, query: MessageQuery, wanted: IndexRange[], rangeTotal: () => Promise<number>): Promise<number> {
    const [cells] = await this.counted.read([messageCounters.all(accountId)], true);
    const pks = new Set(wanted.map((range) => range.pk));
    const others = messageRanges.byCreation(accountId).filter((range) => !pks.has(range.pk));
    const held = (ranges: IndexRange[]) => ranges.reduce((sum, range) => sum + Number(cells?.[`cs#${range.pk.split('#CS#')[1]}`] ?? 0), 0);
    if (held(others) >= held(wanted)) return countRanges(this.store, wanted);
    this.complements++;
    const { campaignCreatedFrom: from, campaignCreatedTo: to } = query;
    const [all, besides] = await Promise.all([
      rangeTotal(),
      countRanges(
        this.store,
        others.map((range) => ({ ...range, ...created('', from, to) })),
      ),
    ]);
    return all - besides;
  }

  async #countsComplete(): Promise<boolean> {
    this.#sendersCounted ||= await migrationCompleted(this.store);
    return this.#sendersCounted;
  }

  /** Whether no number of the account but `digits` itself starts or ends with them: a one-entry Query of gsi6 and of gsi7. */
  async #whole(accountId: number, digits: string): Promise<boolean> {
    for (const range of [messageRanges.toPrefix(accountId, digits), messageRanges.toSuffix(accountId, digits)]) {
      const prefix = String((range.sk as { beginsWith: string }).beginsWith);
      // Past `<prefix>#…` (the number itself) come the longer numbers: `#` sorts below every digit.
      const sk = { between: [`${prefix}#${TOP}`, `${prefix}${TOP}`] as [string, string] };
      const found = await readMerged(this.store, [{ ...range, sk, expect: 1 }], { forward: true, skip: 0, take: 1 });
      if (found.entries.length > 0) return false;
    }
    return true;
  }
}

/** A criterion's range (`beginsWith` its value's label) narrowed to the messages created in [from, to]. */
function labelled(range: IndexRange, from?: Date, to?: Date): IndexRange {
  const label = range.sk && 'beginsWith' in range.sk ? range.sk.beginsWith : '';
  return { ...range, ...created(label, from, to) };
}

/** `[from, to]` on keys `<label><createdAt>#pad(id)`; an open end (or one beyond the years keys hold) reaches the label's first or last key. */
function created(label: string, from?: Date, to?: Date): Pick<IndexRange, 'sk'> {
  const low = from && keyInstant(from);
  const high = to && keyInstant(to);
  if (!low && !high) return label ? { sk: { beginsWith: label } } : {};
  const top = high ? `${label}${high}#${TOP}` : `${label}${TOP}`;
  // An empty label has no lower key to name: DynamoDB takes no empty string in a key condition.
  return { sk: low || label ? { between: [`${label}${low ?? ''}`, top] } : { to: top } };
}

/** An instant as keys hold it (four-digit years), or undefined outside them. */
function keyInstant(date: Date): string | undefined {
  const year = date.getUTCFullYear();
  return year >= 0 && year <= 9999 ? date.toISOString() : undefined;
}
