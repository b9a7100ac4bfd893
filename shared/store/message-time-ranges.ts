import { type MessageQuery, matchingMessage } from '../domain/message-listing';
import type { Message } from '../domain/messages';
import type { Store } from './client';
import { type Entry, readMerged } from './index-reader';
import { campaignStateOfItem, MESSAGE_SCHEMA } from './message-changes';
import { fromMessageItem } from './message-items';
import { messageRanges } from './message-keys';
import { earliest, entryConditions } from './message-list-entries';
import { migrationCompleted } from './migration-progress';

/**
 * A startSendTs, campaignSentTs or statusUpdateTs range in the default order (newest created
 * first), without reading the whole range. A message's sending and status times are never
 * before its creation (MessageChanges brings an earlier one up to it; `admin migrate` does
 * for messages written before), so every message of a range ending at `to` was created at
 * or before `to`: gsi1 (creation order, whole messages) is read backward from there, and the
 * messages the query matches are kept until the page is full. No lower bound on creation is
 * needed or assumed (a delivery report may come any time later): the exact total, from the
 * hourly counters, says when every match has been found. In a dense range page 0 reads about
 * a page; where the range's messages are few among those created before its end, the read is
 * stopped at what reading the range itself would cost, and the caller reads the range.
 */

/** gsi1's entries are whole messages, about 5 to a read unit; a time index's entries about 30. */
const WHOLE_PER_RANGE_ENTRY = 6;

export class MessageTimeRanges {
  /** Whether every message's times are known not to lie before its creation: the v4 migration has completed (never reverts). */
  #timesOrdered = false;

  constructor(private readonly store: Store) {}

  /**
   * The page, or undefined when this way would read more than reading the range's `total`
   * matches from their own index (the caller then does), or the times cannot be relied on yet.
   */
  async page(accountId: number, query: MessageQuery, total: number, offset: number, take: number): Promise<Message[] | undefined> {
    const needed = offset + take;
    // Reading the range from its own index reads `total` small entries and the page's messages.
    const budget = Math.ceil(total / WHOLE_PER_RANGE_ENTRY + 2.5 * take);
    if (needed > budget || !(await this.#ordered())) return undefined;
    const to = earliest(earliest(query.startSendTo, query.campaignSentTo), earliest(query.statusUpdateTo, query.campaignCreatedTo));
    const range = {
      ...messageRanges.created(accountId, query.campaignCreatedFrom, to),
      expect: Math.min(budget, Math.ceil(needed * 1.25) + 1),
      where: entryConditions(query, true),
    };
    const matches = matchingMessage(query);
    const keep = (entry: Entry) => entry.schema === MESSAGE_SCHEMA && matches(fromMessageItem(entry), campaignStateOfItem(entry));
    const { entries, stopped } = await readMerged(this.store, [range], { forward: false, skip: offset, take, keep, budget });
    // Fewer than the counters promise: a count still being written; the range's own read counts them.
    if (stopped || entries.length < take) return undefined;
    return entries.map(fromMessageItem);
  }

  async #ordered(): Promise<boolean> {
    this.#timesOrdered ||= await migrationCompleted(this.store);
    return this.#timesOrdered;
  }
}
