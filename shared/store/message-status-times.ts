import { type CampaignState, type MessageListing, type MessageQuery, matchingMessage } from '../domain/message-listing';
import type { MessageStatus } from '../domain/message-status';
import type { Message } from '../domain/messages';
import type { Store } from './client';
import type { CountedWrites } from './counted-writes';
import { countByHours } from './hour-counts';
import { countRanges, type Entry, entriesFor, type IndexRange, readPage, scanRanges } from './index-reader';
import { messageCounters, messageRanges, statusOfKey } from './message-keys';
import { earliest, latest, messagesOfEntries, onlyCriteria } from './message-list-entries';
import { senderCreatedCount } from './message-senders';
import type { MessageTimeRanges } from './message-time-ranges';
import { migrationCompleted } from './migration-progress';

/**
 * `status` with a campaignCreateTs, a startSendTs (campaignSentTs: the same time, §4.5) or a
 * statusUpdateTs range, nothing else (but a sender with a creation range), in the default
 * order (docs/data-model.md §4.4, 8). The total is exact from the hourly cells per status of
 * the C, S and U day items (`h<HH>#st#<status>`, §5.1; with a sender, its own day items'),
 * the partial hours at the edges counted from an index. The page:
 * - created in a range: gsi10's keys are the status then the creation time, so the range is
 *   a key condition of the status's partition range: the page, from the nearer end (with a
 *   sender, the entries of others passed over by the Query's condition on `from`);
 * - sent or updated in a range: the messages of that status created before the range's end,
 *   newest first (sending and status times are never before creation, message-changes.ts),
 *   each checked on the message: from gsi1 (whole messages, MessageTimeRanges) where the
 *   status is common, from gsi10 (the status's own entries, the message read for its time)
 *   where it is rare.
 * Until the migration has counted every message written before those cells
 * (`statusHoursCounted`, `sentStatusCounted`, migrationCompleted), the caller answers as before.
 */

/** A status this share of the account or more is read through gsi1's whole messages (~6 entries' cost each) rather than gsi10 and a message read (~17). */
const COMMON_SHARE = 6 / 17;

export type StatusTimePage = { listing: MessageListing; way: 'created' | 'creation' | 'status' };

type RangeKind = 'C' | 'S' | 'U';
/** A status's range kinds (C created, S sent, U status updated) and each one's criteria (`<name>From`, `<name>To`): a campaign's sending time is its message's (§4.5). */
const RANGES = { C: ['campaignCreated'], S: ['startSend', 'campaignSent'], U: ['statusUpdate'] } as const;

/** The range kind a query of a status and one time range has (a creation range may have a sender too). */
export function statusWithTime(query: MessageQuery): RangeKind | undefined {
  if (query.status === undefined || query.sort.length > 0) return undefined;
  for (const kind of ['C', 'S', 'U'] as const) {
    const names = RANGES[kind].flatMap((name) => [`${name}From`, `${name}To`] as const);
    const sender = kind === 'C' ? (['from'] as const) : [];
    if (names.some((name) => query[name])) return onlyCriteria(query, ['status', ...sender, ...names]) ? kind : undefined;
  }
  return undefined;
}

/** The query's range of that kind: [from, to] (either open), the intersection of its criteria. */
function rangeOf(query: MessageQuery, kind: RangeKind): [Date | undefined, Date | undefined] {
  let from: Date | undefined;
  let to: Date | undefined;
  for (const name of RANGES[kind]) {
    from = latest(from, query[`${name}From`]);
    to = earliest(to, query[`${name}To`]);
  }
  return [from, to];
}

/** A range of entries kept to one sender's (gsi10 projects `from`: a condition the Query checks). */
const ofSender = (range: IndexRange, from: string): IndexRange => ({
  ...range,
  where: [...(range.where ?? []), { attribute: 'from', equals: from }],
});

export class MessageStatusTimes {
  /** Whether every message is in the hourly cells per status: the migration has completed (never reverts). */
  #countsComplete = false;

  constructor(
    private readonly store: Store,
    private readonly counted: CountedWrites,
    private readonly timeRanges: MessageTimeRanges,
  ) {}

  /** The page and its total, or undefined when the query is not of this kind or the cells are not complete yet. */
  async page(accountId: number, query: MessageQuery, offset: number, pageSize: number): Promise<StatusTimePage | undefined> {
    const kind = statusWithTime(query);
    const status = query.status;
    if (!kind || status === undefined || !(await this.#complete())) return undefined;
    const [from, to] = rangeOf(query, kind);
    const sender = query.from;
    const total = await (sender === undefined
      ? this.#total(accountId, kind, status, from, to)
      : senderCreatedCount(
          this.store,
          this.counted,
          accountId,
          sender,
          (a, b) => ofSender(messageRanges.statusCreated(accountId, status, a, b), sender),
          {
            status,
            from,
            to,
          },
        ));
    const take = Math.min(pageSize, total - offset);
    if (take <= 0) return { listing: { items: [], totalItemCount: total }, way: kind === 'C' ? 'created' : 'status' };
    const listing = (messages: Message[]): MessageListing => ({ items: messages.map((message) => ({ message })), totalItemCount: total });
    if (kind === 'C') {
      // With a sender: the status's key range kept to it (projected `from`), its first read sized by the sender's share of the status.
      const range =
        sender === undefined
          ? messageRanges.statusCreated(accountId, status, from, to)
          : await this.#ofSender(accountId, sender, status, from, to, offset, take, total);
      const entries = await readPage(this.store, [range], { forward: false, offset, take, total });
      return { listing: listing((await messagesOfEntries(this.store, entries)).map(({ message }) => message)), way: 'created' };
    }
    // Sent or updated in the range: created at or before its end (message-changes.ts), read newest created first from there.
    const [counts] = await this.counted.read([messageCounters.all(accountId)], true);
    const share = (counts?.[`st#${status}`] ?? 0) / Math.max(1, counts?.all ?? 0);
    if (share >= COMMON_SHARE) {
      const page = await this.timeRanges.page(accountId, query, total, offset, take);
      if (page) return { listing: listing(page), way: 'creation' };
    }
    return { listing: listing(await this.#timedByStatus(accountId, query, status, to, total, offset + take, offset)), way: 'status' };
  }

  /** Exact: whole hours from the day items' cells of the status, the edges from an index. */
  #total(accountId: number, kind: RangeKind, status: MessageStatus, from?: Date, to?: Date): Promise<number> {
    // gsi2's and gsi4's entries move with every status change and their keys end with it (one written before is
    // checked on its message); gsi10's key starts with the status.
    const edge = async (edgeFrom: Date, edgeTo: Date) =>
      kind === 'C'
        ? countRanges(this.store, [messageRanges.statusCreated(accountId, status, edgeFrom, edgeTo)])
        : kind === 'U'
          ? this.#statusEdge(messageRanges.statusUpdate(accountId, edgeFrom, edgeTo), status)
          : this.#statusEdge(messageRanges.startSend(accountId, edgeFrom, edgeTo), status);
    return countByHours(this.counted, {
      pk: messageCounters.all(accountId).pk,
      daySk: (day) => messageCounters.day(accountId, kind, day).sk,
      cells: (hour) => [messageCounters.hourStatusCell(hour, status)],
      ...(from && { from }),
      ...(to && { to }),
      // Part of one hour, or the hour's cell less the rest of it (hour-counts.ts).
      countEdge: edge,
    });
  }

  /** The status's creation range kept to the sender, expecting the entries its share of the status (sender and account cells) foretells for the page from the nearer end. */
  async #ofSender(
    accountId: number,
    sender: string,
    status: MessageStatus,
    from: Date | undefined,
    to: Date | undefined,
    offset: number,
    take: number,
    total: number,
  ) {
    const [all, ofSenders] = await this.counted.read([messageCounters.all(accountId), messageCounters.sender(accountId, sender)], true);
    const share = (ofSenders?.[`st#${status}`] ?? 0) / Math.max(1, all?.[`st#${status}`] ?? 0);
    const wanted = Math.min(offset, total - offset - take) + take;
    return { ...ofSender(messageRanges.statusCreated(accountId, status, from, to), sender), expect: entriesFor(wanted, share) + 1 };
  }

  /**
   * Messages sent or last updated in a range (part of an hour: gsi2's or gsi4's) with that
   * status, from the entries, whose keys end with the status; an entry written before they
   * did is checked on its message (100 per BatchGetItem), until its message's next change
   * rewrites it.
   */
  async #statusEdge(range: IndexRange, status: MessageStatus): Promise<number> {
    let count = 0;
    const unmarked: Entry[] = [];
    for await (const entry of scanRanges(this.store, [range], true)) {
      const marked = statusOfKey(entry[`${range.index}sk`]);
      if (marked === undefined) unmarked.push(entry);
      else if (marked === status) count++;
    }
    for (let i = 0; i < unmarked.length; i += 100) {
      for (const { message } of await messagesOfEntries(this.store, unmarked.slice(i, i + 100))) if (message.status === status) count++;
    }
    return count;
  }

  /**
   * The messages of the range's entries (ascending, unless `expect` says how many to ask
   * first: then descending), read 100 per BatchGetItem or what is still wanted, that `keep`
   * passes, until `wanted` are found.
   */
  async #checked(range: IndexRange, keep: (message: Message, state: CampaignState) => boolean, wanted: number): Promise<Message[]> {
    const found: Message[] = [];
    let pending: Entry[] = [];
    for await (const entry of scanRanges(this.store, [range], range.expect === undefined)) {
      pending.push(entry);
      if (pending.length < Math.min(100, wanted - found.length)) continue;
      for (const { message, state } of await messagesOfEntries(this.store, pending)) if (keep(message, state)) found.push(message);
      pending = [];
      if (found.length >= wanted) return found;
    }
    for (const { message, state } of await messagesOfEntries(this.store, pending)) if (keep(message, state)) found.push(message);
    return found;
  }

  /**
   * The status's messages created up to the range's end (`to`), newest first from gsi10, each
   * read and kept when sent or updated in the range, until `keepBest` are found or the total
   * says every match has been: in proportion to the status's messages created since the
   * oldest match on the page, never more than the status's.
   */
  async #timedByStatus(
    accountId: number,
    query: MessageQuery,
    status: MessageStatus,
    to: Date | undefined,
    total: number,
    keepBest: number,
    offset: number,
  ) {
    // Most of a range's sendings and updates come soon after their messages' creation: first ask for about the page.
    const range = { ...messageRanges.statusCreated(accountId, status, undefined, to), expect: Math.ceil(keepBest * 1.25) + 1 };
    return (await this.#checked(range, matchingMessage(query), Math.min(keepBest, total))).slice(offset, keepBest);
  }

  async #complete(): Promise<boolean> {
    this.#countsComplete ||= await migrationCompleted(this.store);
    return this.#countsComplete;
  }
}
