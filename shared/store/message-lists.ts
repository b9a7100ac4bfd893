import { type MessageListing, type MessageQuery, matchingMessage, messageOrder } from '../domain/message-listing';
import type { MessageLists } from '../domain/message-ports';
import type { Message } from '../domain/messages';
import { systemClock, ulidAt } from '../ids';
import type { Store } from './client';
import { CountedWrites } from './counted-writes';
import { countByHours } from './hour-counts';
import { countRanges, type Entry, type IndexRange, readPage, scanRanges } from './index-reader';
import { campaignStateOfItem } from './message-changes';
import { combinationOnly, MessageCombinations, sortRange } from './message-combos';
import { fromMessageItem } from './message-items';
import { messageCounters, messageRanges, sortValueOfKey } from './message-keys';
import {
  type Driver,
  ENTRY_SORTS,
  earliest,
  emptyRange,
  entryDecides,
  entryMatches,
  entryMessage,
  insertionPoint,
  latest,
  listByCampaigns,
  matchCost,
  messagesOfEntries,
  READ_BUDGET_MS,
  someNumberStartsOrEnds,
  textDriver,
  tooWide,
  withConditions,
} from './message-list-entries';
import { MessageRecipients, toAlone } from './message-recipients';
import { MessageStatusTimes, statusWithTime } from './message-status-times';
import { createdWithCriterion, createdWithSort, MessageTimeCriteria } from './message-time-criteria';
import { MessageTimeRanges } from './message-time-ranges';

/**
 * Message/List from the indexes (docs/data-model.md §4.2, §4.4). A single criterion in its
 * index's order, or no criterion, reads the page itself (from the nearer end once the
 * total is known) and its total from the counters. Anything else is driven from its most
 * selective criterion: its entries are read in pages, filtered on the attributes the
 * indexes carry (and on the messages themselves, 100 per BatchGetItem, for status,
 * campaign status and times), and the best `offset + pageSize` kept in order: cost and
 * memory in proportion to that criterion's matches and the page's depth, never all at once.
 */
/**
 * Entries skipped beyond which a page in creation order is found through gsi11 (~250-byte
 * entries, ~30 per RRU, 16 partitions merged) rather than gsi1 (whole messages, ~5 per RRU).
 */
const FAR_SKIP = 200;

export class IndexedMessageLists implements MessageLists {
  readBudgetMs = READ_BUDGET_MS; // lowered by tests to reach it

  constructor(
    private readonly store: Store,
    private readonly counted: CountedWrites = new CountedWrites(store, () => ulidAt(systemClock())),
    /** FAR_SKIP, lowered by tests to take that path on few messages. */
    private readonly farSkip = FAR_SKIP,
    readonly timeRanges = new MessageTimeRanges(store),
    readonly recipients = new MessageRecipients(store, counted),
    readonly combinations = new MessageCombinations(store, counted),
    readonly statusTimes = new MessageStatusTimes(store, counted, timeRanges),
    readonly timeCriteria = new MessageTimeCriteria(store, counted),
  ) {}

  async list(accountId: number, query: MessageQuery): Promise<MessageListing> {
    const { pageSize, currentPage } = query.pagination;
    const offset = currentPage * pageSize;
    if (query.groups?.length || emptyRange(query)) return { items: [], totalItemCount: 0 };
    // criteria[to] alone: its counts choose how the page is read (message-recipients.ts); a total says some number starts or ends so.
    const byCounts = toAlone(query) ? await this.recipients.page(accountId, query.to, offset, pageSize) : undefined;
    if (byCounts && 'listing' in byCounts) return byCounts.listing;
    const anyAffix = query.to === undefined || byCounts !== undefined || (await someNumberStartsOrEnds(this.store, accountId, query.to));
    if (query.campaignIds) return listByCampaigns(this.store, accountId, query, anyAffix);
    const drivers = this.#drivers(accountId, query, anyAffix);
    const sort = query.sort;
    const wanted: Driver['order'] = sort[0]?.field ?? 'created';
    const forward = sort[0]?.direction === 'ASC';
    const [only] = drivers;
    if (sort.length <= 1 && drivers.length <= 1 && (!only || (only.order === wanted && !only.skip))) {
      const driver = only ?? this.#sortDriver(accountId, wanted);
      const total = await (driver.total ? driver.total() : countRanges(this.store, driver.ranges));
      // gsi1 projects whole messages: its entries are the page. Far from both ends, the
      // entries skipped are read from gsi11's partitions instead: the same order, small entries.
      const whole = driver.ranges.every((range) => range.index === 'gsi1');
      const far = whole && Math.min(offset, total - offset - pageSize) > this.farSkip;
      const ranges = far ? messageRanges.byCreation(accountId, driver.ranges[0]?.sk) : driver.ranges;
      const entries = await readPage(this.store, ranges, { forward, offset, take: pageSize, total });
      const messages = whole && !far ? entries.map(fromMessageItem) : (await messagesOfEntries(this.store, entries)).map(({ message }) => message);
      return { items: messages.map((message) => ({ message })), totalItemCount: total };
    }
    // Status, campaign status and sender: the combination's total from its cells, the page driven by them (message-combos.ts).
    const combined = combinationOnly(query) ? await this.combinations.page(accountId, query, offset, pageSize) : undefined;
    if (combined && 'listing' in combined) return combined.listing;
    // Status with a creation or status time range: the total from the hourly cells per status (message-status-times.ts).
    const statusTimed = statusWithTime(query) ? await this.statusTimes.page(accountId, query, offset, pageSize) : undefined;
    if (statusTimed) return statusTimed.listing;
    // A creation range with from, text, a whole number or a campaign status: one key range of that criterion's index (message-time-criteria.ts).
    const createdTotal = this.#hours(accountId, 'C', messageRanges.created, query.campaignCreatedFrom, query.campaignCreatedTo);
    const createdWith = createdWithCriterion(query)
      ? await this.timeCriteria.withCriterion(accountId, query, anyAffix, offset, pageSize, createdTotal)
      : undefined;
    if (createdWith) return createdWith.listing;
    if (drivers.length === 0) return this.#byRuns(accountId, this.#sortDriver(accountId, wanted), query, offset, pageSize);
    // A sending or status time range in creation order: creation order read backward from its end (message-time-ranges.ts).
    if (sort.length === 0 && drivers.length === 1 && only?.total && (only.covers === 'startSend' || only.covers === 'statusUpdate')) {
      const total = await only.total();
      const page = offset >= total ? [] : await this.timeRanges.page(accountId, query, total, offset, Math.min(pageSize, total - offset));
      if (page) return { items: page.map((message) => ({ message })), totalItemCount: total };
    }
    // A creation range with a sort: the sort's index kept to the range, where the range is dense enough.
    if (createdWithSort(query) && only?.total) {
      const sorted = await this.timeCriteria.withSort(accountId, query, await only.total(), offset, pageSize);
      if (sorted) return sorted.listing;
    }
    // The counters say how many each criterion matches: the cheapest to read drives. Text is taken first, unless a sending or status time range's hours say otherwise.
    const timed = drivers.some((driver) => driver.covers === 'startSend' || driver.covers === 'statusUpdate');
    for (const driver of drivers.length > 1 ? drivers : []) {
      const reads = await driver.reads?.();
      if (reads !== undefined) driver.rank = 10 + reads;
      else if (driver.total && (!driver.placed || timed)) driver.rank = 10 + (await driver.total()) * matchCost(query, driver);
    }
    const driver = drivers.sort((a, b) => a.rank - b.rank)[0] ?? this.#sortDriver(accountId, wanted);
    return this.#bounded(driver, query, anyAffix, offset + pageSize, offset);
  }

  /** The ranges of each criterion the query has (campaign ids aside). */
  #drivers(accountId: number, query: MessageQuery, anyAffix: boolean): Driver[] {
    const drivers: Driver[] = [];
    const all = messageCounters.all(accountId);
    const cells = (names: string[]) => async () => {
      const [counts] = await this.counted.read([all], true);
      return names.reduce((sum, name) => sum + (counts?.[name] ?? 0), 0);
    };
    if (query.text !== undefined) {
      const counter = messageCounters.text(accountId, query.text);
      drivers.push(textDriver(accountId, query.text, async () => (await this.counted.read([counter], true))[0]?.all ?? 0));
    }
    if (query.to !== undefined) drivers.push(this.recipients.driver(accountId, { ...query, to: query.to }, anyAffix));
    if (query.from !== undefined)
      drivers.push({ ranges: [messageRanges.from(accountId, query.from)], order: 'created', total: cells([`from#${query.from}`]), rank: 3 });
    if (query.status !== undefined)
      drivers.push({
        ranges: [messageRanges.status(accountId, query.status)],
        order: 'created',
        total: cells([`st#${query.status}`]),
        rank: 4,
        covers: 'status',
      });
    if (query.campaignStatus !== undefined) {
      const ranges = messageRanges.campaignStatus(accountId, query.campaignStatus);
      drivers.push({
        ranges,
        order: 'created',
        total: cells(ranges.map((range) => `cs#${range.pk.split('#CS#')[1]}`)),
        rank: 4,
        covers: 'campaignStatus',
      });
    }
    if (query.campaignCreatedFrom || query.campaignCreatedTo) {
      const { campaignCreatedFrom: from, campaignCreatedTo: to } = query;
      drivers.push({
        ranges: [messageRanges.created(accountId, from, to)],
        order: 'created',
        total: this.#hours(accountId, 'C', messageRanges.created, from, to),
        rank: 5,
      });
    }
    const sentFrom = latest(query.startSendFrom, query.campaignSentFrom);
    const sentTo = earliest(query.startSendTo, query.campaignSentTo);
    if (sentFrom || sentTo) {
      drivers.push({
        ranges: [messageRanges.startSend(accountId, sentFrom, sentTo)],
        order: 'startSendTs',
        total: this.#hours(accountId, 'S', messageRanges.startSend, sentFrom, sentTo),
        rank: 5,
        covers: 'startSend',
      });
    }
    if (query.statusUpdateFrom || query.statusUpdateTo) {
      const { statusUpdateFrom: from, statusUpdateTo: to } = query;
      drivers.push({
        ranges: [messageRanges.statusUpdate(accountId, from, to)],
        order: 'statusUpdateTs',
        total: this.#hours(accountId, 'U', messageRanges.statusUpdate, from, to),
        rank: 5,
        covers: 'statusUpdate',
      });
    }
    return drivers;
  }

  /** The whole account in a sort's order. */
  #sortDriver(accountId: number, order: Driver['order']): Driver {
    return { ranges: [sortRange(accountId, order)], order, total: this.#cell(accountId, 'all'), rank: 10 };
  }

  #cell(accountId: number, name: string) {
    return async () => (await this.counted.read([messageCounters.all(accountId)], true))[0]?.[name] ?? 0;
  }

  /** A time range's total: whole hours from the per-day counters, the edges counted from the index. */
  #hours(accountId: number, kind: 'C' | 'S' | 'U', range: (accountId: number, from?: Date, to?: Date) => IndexRange, from?: Date, to?: Date) {
    return () =>
      countByHours(this.counted, {
        pk: messageCounters.all(accountId).pk,
        daySk: (day) => messageCounters.day(accountId, kind, day).sk,
        cells: (hour) => [messageCounters.hourCell(hour)],
        ...(from && { from }),
        ...(to && { to }),
        countEdge: (edgeFrom, edgeTo) => countRanges(this.store, [range(accountId, edgeFrom, edgeTo)]),
      });
  }

  /**
   * Every match of the driver, read in pages and checked against the whole query, keeping
   * the best `keepBest` in order; the messages are read for criteria and sorts the index
   * entries do not carry.
   */
  async #bounded(driver: Driver, query: MessageQuery, anyAffix: boolean, keepBest: number, offset: number): Promise<MessageListing> {
    const [matches, order] = [matchingMessage(query, anyAffix), messageOrder(query.sort)];
    const fromEntries = entryDecides(query, driver.covers) && query.sort.every((s) => ENTRY_SORTS.has(s.field));
    // gsi1's entries are whole messages: checked and kept as they are, not read again.
    const whole = driver.ranges.every((range) => range.index === 'gsi1');
    const best: Message[] = [];
    let total = 0;
    const offer = (message: Message) => {
      total++;
      const worst = best[keepBest - 1];
      if (worst && order(message, worst) >= 0) return;
      best.splice(insertionPoint(best, message, order), 0, message);
      if (best.length > keepBest) best.pop();
    };
    let pending: Entry[] = [];
    const check = async () => {
      for (const { message, state } of await messagesOfEntries(this.store, pending)) if (matches(message, state)) offer(message);
      pending = [];
    };
    let [read, started, budget] = [0, Date.now(), this.readBudgetMs];
    for (const range of withConditions(driver.ranges, query)) {
      for await (const entry of scanRanges(this.store, [range], true)) {
        // A bounded answer, never the gateway's timeout: the caller is told to narrow the query.
        if (++read % 100 === 0 && Date.now() - started > budget) throw tooWide(read, budget);
        if (driver.skip?.(entry)) continue;
        if (!entryMatches(query, anyAffix, entry)) continue;
        if (whole) {
          const message = fromMessageItem(entry);
          if (matches(message, campaignStateOfItem(entry))) offer(message);
          continue;
        }
        if (fromEntries) {
          offer(entryMessage(entry));
          continue;
        }
        pending.push(entry);
        if (pending.length === 100) await check();
      }
    }
    await check();
    const page = best.slice(offset);
    const ids = page.map((m) => ({ id: m.id }));
    const messages = fromEntries && !whole ? (await messagesOfEntries(this.store, ids)).map(({ message }) => message) : page;
    return { items: messages.map((message) => ({ message })), totalItemCount: total };
  }

  /**
   * Several sort fields and no criterion: the first field's index in its direction, each run
   * of entries equal in that field that touches the page read whole (its messages by
   * BatchGetItem) and ordered by the rest in memory; the runs before the page are only counted.
   */
  async #byRuns(accountId: number, driver: Driver, query: MessageQuery, offset: number, pageSize: number): Promise<MessageListing> {
    const order = messageOrder(query.sort);
    const end = offset + pageSize;
    const page: Message[] = [];
    let run: Entry[] = [];
    let runValue: unknown;
    let position = 0;
    const index = driver.ranges[0]?.index ?? 'gsi1';
    const close = async () => {
      if (position + run.length > offset && position < end) {
        const sorted = (await messagesOfEntries(this.store, run)).map(({ message }) => message).sort(order);
        page.push(...sorted.slice(Math.max(0, offset - position), end - position));
      }
      position += run.length;
      run = [];
    };
    for await (const entry of scanRanges(this.store, driver.ranges, query.sort[0]?.direction === 'ASC')) {
      const value = sortValueOfKey(index, entry[`${index}sk`]);
      if (run.length > 0 && value !== runValue) {
        await close();
        if (position >= end) break;
      }
      runValue = value;
      run.push(entry);
    }
    await close();
    return { items: page.map((message) => ({ message })), totalItemCount: await this.#cell(accountId, 'all')() };
  }
}
