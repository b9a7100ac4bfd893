import { type MessageListing, type MessageQuery, matchingMessage } from '../domain/message-listing';
import type { Message } from '../domain/messages';
import type { Store } from './client';
import type { CountedWrites } from './counted-writes';
import { type Entry, entriesFor, type IndexRange, scanRanges } from './index-reader';
import { campaignStateOfItem } from './message-changes';
import { fromMessageItem } from './message-items';
import { messageCounters, messageRanges } from './message-keys';
import { type Driver, messagesOfEntries, onlyCriteria, withConditions } from './message-list-entries';
import { migrationCompleted } from './migration-progress';

/**
 * Message/List with criteria among status, campaign status and sender only, one sort at
 * most (docs/data-model.md §4.4): the exact total of any combination is one counter cell
 * or a few (comboCells, message-keys.ts: MESSAGES and the sender's item, read together).
 * With it the page is read from an index in the wanted order, the criteria it does not
 * decide checked on its entries (the sender is projected; status and campaign status need
 * the message, 100 per BatchGetItem, or gsi1's whole entries), stopping at the page: about
 * `(offset + pageSize) × driven / combined` entries, from the nearer end. With a sort whose
 * order no criterion's index has, reading the matches of the narrowest criterion whole and
 * sorting them costs less where the combination is rare: the caller does that. Until the
 * migration has counted every message written before these cells (migrationCompleted), they
 * are not used.
 */

/** Relative read costs: a list index entry (~250 bytes), a gsi1 entry (a whole message), a message read by BatchGetItem. */
const ENTRY = 1;
const WHOLE_ENTRY = 6;
const MESSAGE_READ = 16;

/** The page and how it was read (`counts`: none to read, by the counts); or the total alone, when reading the matches whole costs less. */
export type CombinationPage = { listing: MessageListing; driven: Driven['name'] | 'counts' } | { total: number };

/** One way to read the page in the wanted order. */
interface Driven {
  name: 'status' | 'campaignStatus' | 'from' | 'creation' | 'sort';
  ranges: IndexRange[];
  /** Entries in the ranges. */
  count: number;
  /** Of them, those the entries themselves pass (the sender checked): the messages read when `needsMessage`. */
  passing: number;
  /** gsi1's entries are whole messages: everything is decided on them. */
  whole: boolean;
  needsMessage: boolean;
}

export class MessageCombinations {
  /** Whether every message is in the combination cells: the migration has completed (never reverts). */
  #countsComplete = false;

  constructor(
    private readonly store: Store,
    private readonly counted: CountedWrites,
  ) {}

  /** The page and its total (undefined before the cells are complete). */
  async page(accountId: number, query: MessageQuery, offset: number, pageSize: number): Promise<CombinationPage | undefined> {
    if (!(await this.#complete())) return undefined;
    const counts = await this.#counts(accountId, query);
    const total = counts.combined;
    const take = Math.min(pageSize, total - offset);
    if (take <= 0) return { listing: { items: [], totalItemCount: total }, driven: 'counts' };
    // From the nearer end, as readPage does: the last page costs what the first does.
    const fromEnd = total - offset - take;
    const reverse = fromEnd < offset;
    const keep = (reverse ? fromEnd : offset) + take;
    const cost = (d: Driven) =>
      Math.ceil((keep * d.count) / total) * (d.whole ? WHOLE_ENTRY : ENTRY) +
      (d.needsMessage ? Math.ceil((keep * d.passing) / total) * MESSAGE_READ : 0) +
      // The page's messages, unless read already to check them.
      (d.whole || d.needsMessage ? 0 : take * MESSAGE_READ);
    const candidates = this.#driven(accountId, query, counts);
    const [best] = candidates.sort((a, b) => cost(a) - cost(b));
    if (!best) return { total };
    if (query.sort.length > 0 && cost(best) > counts.narrowest) return { total };
    const forward = (query.sort[0]?.direction === 'ASC') !== reverse;
    const page = await this.#read(best, query, forward, { skip: keep - take, take, total });
    return { listing: { items: (reverse ? page.reverse() : page).map((message) => ({ message })), totalItemCount: total }, driven: best.name };
  }

  /** The ways to read the page in the wanted order: a criterion's index or gsi1 in creation order, else the sort's index. */
  #driven(accountId: number, query: MessageQuery, counts: Counts): Driven[] {
    const needs = { status: query.status !== undefined, campaignStatus: query.campaignStatus !== undefined };
    const field = query.sort[0]?.field;
    if (field !== undefined) {
      // The sort's index, or the part of it a criterion on the sorted field reads.
      const narrowed =
        field === 'from' && query.from !== undefined
          ? { ranges: [messageRanges.from(accountId, query.from)], count: counts.from, passing: counts.from }
          : field === 'status' && query.status !== undefined
            ? { ranges: [messageRanges.status(accountId, query.status)], count: counts.status, passing: counts.statusFrom }
            : { ranges: [sortRange(accountId, field)], count: counts.all, passing: counts.from };
      return [{ name: 'sort', ...narrowed, whole: false, needsMessage: needs.campaignStatus || (needs.status && field !== 'status') }];
    }
    const driven: Driven[] = [
      {
        name: 'creation',
        ranges: [messageRanges.all(accountId)],
        count: counts.all,
        passing: counts.combined,
        whole: true,
        needsMessage: false,
      },
    ];
    if (query.status !== undefined)
      driven.push({
        name: 'status',
        ranges: [messageRanges.status(accountId, query.status)],
        count: counts.status,
        passing: counts.statusFrom,
        whole: false,
        needsMessage: needs.campaignStatus,
      });
    if (query.campaignStatus !== undefined)
      driven.push({
        name: 'campaignStatus',
        ranges: messageRanges.campaignStatus(accountId, query.campaignStatus),
        count: counts.campaignStatus,
        passing: counts.campaignStatusFrom,
        whole: false,
        needsMessage: needs.status,
      });
    if (query.from !== undefined)
      driven.push({
        name: 'from',
        ranges: [messageRanges.from(accountId, query.from)],
        count: counts.from,
        passing: counts.from,
        whole: false,
        needsMessage: needs.status || needs.campaignStatus,
      });
    return driven;
  }

  /**
   * The entries of `driven` in order, checked against the query, `skip` matches passed over
   * and the next `take` returned as messages; `total`: the matches, as the counts say.
   */
  async #read(driven: Driven, query: MessageQuery, forward: boolean, { skip, take, total }: { skip: number; take: number; total: number }) {
    const matches = matchingMessage(query);
    const wanted = skip + take;
    // The first Limit: the entries the counts say the page lies within, with a margin (entriesFor), each range its part.
    const share = Math.ceil(entriesFor(wanted, total / Math.max(1, driven.count)) / driven.ranges.length) + 1;
    const ranges = withConditions(driven.ranges, query).map((range) => ({ ...range, expect: share }));
    /** The matches in order: their messages where read (to check them, or whole in gsi1), else their ids. */
    const kept: { id: number; message?: Message }[] = [];
    let pending: Entry[] = [];
    const check = async () => {
      for (const { message, state } of await messagesOfEntries(this.store, pending))
        if (matches(message, state)) kept.push({ id: message.id, message });
      pending = [];
    };
    for await (const entry of scanRanges(this.store, ranges, forward)) {
      if (driven.whole) {
        const message = fromMessageItem(entry);
        if (matches(message, campaignStateOfItem(entry))) kept.push({ id: message.id, message });
      } else if (query.from === undefined || entry.from === query.from) {
        if (!driven.needsMessage) kept.push({ id: Number(entry.id) });
        else {
          pending.push(entry);
          // As many as the matches still wanted need by the counts (and a quarter more): one BatchGetItem, most often.
          if (pending.length >= Math.min(100, Math.ceil((((wanted - kept.length) * driven.passing) / total) * 1.25))) await check();
        }
      }
      if (kept.length >= wanted) break;
    }
    await check();
    const page = kept.slice(skip, wanted);
    const unread = page.filter(({ message }) => !message);
    const read = new Map((await messagesOfEntries(this.store, unread)).map(({ message }) => [message.id, message]));
    return page.flatMap(({ id, message }) => message ?? read.get(id) ?? []);
  }

  /** The combined total and each criterion's, from MESSAGES and the sender's item: one BatchGetItem. */
  async #counts(accountId: number, query: MessageQuery): Promise<Counts> {
    const from = query.from;
    const counters = [messageCounters.all(accountId), ...(from === undefined ? [] : [messageCounters.sender(accountId, from)])];
    const [all = {}, sender = {}] = await this.counted.read(counters, true);
    const statuses = query.campaignStatus === undefined ? [] : messageRanges.campaignStatus(accountId, query.campaignStatus).map(campaignStatusCell);
    const sum = (cells: Record<string, number>, names: string[]) => names.reduce((n, name) => n + (cells[name] ?? 0), 0);
    const pairs = (cells: Record<string, number>) =>
      sum(
        cells,
        statuses.map((cs) => `st#${query.status}#${cs}`),
      );
    const fromCells = from === undefined ? all : sender;
    const fromTotal = from === undefined ? (all.all ?? 0) : (all[`from#${from}`] ?? 0);
    const status = query.status === undefined ? undefined : `st#${query.status}`;
    const combined =
      status && query.campaignStatus !== undefined
        ? pairs(fromCells)
        : status
          ? (fromCells[status] ?? 0)
          : query.campaignStatus !== undefined
            ? sum(fromCells, statuses)
            : fromTotal;
    const counts = {
      all: all.all ?? 0,
      combined,
      from: fromTotal,
      status: status ? (all[status] ?? 0) : 0,
      statusFrom: status ? (fromCells[status] ?? 0) : 0,
      campaignStatus: sum(all, statuses),
      campaignStatusFrom: sum(fromCells, statuses),
    };
    // Reading the matches whole (message-lists.ts): a criterion's entries, and the messages of those the entries pass.
    const whole = (entries: number, passing: number) => entries * ENTRY + passing * MESSAGE_READ;
    const narrowest = Math.min(
      ...[
        query.from !== undefined && whole(counts.from, counts.from),
        status !== undefined && whole(counts.status, counts.statusFrom),
        query.campaignStatus !== undefined && whole(counts.campaignStatus, counts.campaignStatusFrom),
      ].filter((n): n is number => n !== false),
    );
    return { ...counts, narrowest };
  }

  async #complete(): Promise<boolean> {
    this.#countsComplete ||= await migrationCompleted(this.store);
    return this.#countsComplete;
  }
}

interface Counts {
  all: number;
  combined: number;
  from: number;
  status: number;
  statusFrom: number;
  campaignStatus: number;
  campaignStatusFrom: number;
  /** What reading the narrowest criterion's matches whole costs (in the units above). */
  narrowest: number;
}

/** gsi11's partition as its counter cell names it (`cs#<status>[#D]`). */
const campaignStatusCell = (range: IndexRange) => `cs#${range.pk.split('#CS#')[1]}`;

/** Whether the query's only criteria are among status, campaign status and sender, with one sort at most. */
export function combinationOnly(query: MessageQuery): boolean {
  const some = [query.status, query.campaignStatus, query.from].some((value) => value !== undefined);
  return some && query.sort.length <= 1 && onlyCriteria(query, ['status', 'campaignStatus', 'from']);
}

/** The whole account in a sort's order. */
export function sortRange(accountId: number, order: Driver['order']): IndexRange {
  const ranges: Record<Driver['order'], () => IndexRange> = {
    created: () => messageRanges.all(accountId),
    campaignId: () => messageRanges.campaignId(accountId),
    from: () => messageRanges.from(accountId),
    to: () => messageRanges.toPrefix(accountId),
    text: () => messageRanges.text(accountId),
    status: () => messageRanges.status(accountId),
    startSendTs: () => messageRanges.startSend(accountId),
    statusUpdateTs: () => messageRanges.statusUpdate(accountId),
    segNum: () => messageRanges.segNum(accountId),
  };
  return ranges[order]();
}
