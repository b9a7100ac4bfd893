import type { MessageStatus } from '../domain/message-status';
import type { Store } from './client';
import type { CountedWrites } from './counted-writes';
import { countByHours } from './hour-counts';
import { messageCounters } from './message-keys';
import { migrationCompleted } from './migration-progress';

/**
 * The account's messages created (C), sent (S) or last updated (U) within [from, to], of
 * one status when given: whole hours from the day items' hourly cells, whole days of a range
 * longer than a week from the month items' daily cells once the migration has counted every
 * message in them (migrationCompleted), the edge hours from `countEdge` (the caller's index).
 */
export class MessageHourCounts {
  /** Every message is in the month items: the migration has completed (never reverts). */
  #monthsComplete = false;

  constructor(
    private readonly store: Store,
    private readonly counted: CountedWrites,
  ) {}

  async count(
    accountId: number,
    kind: 'C' | 'S' | 'U',
    status: MessageStatus | undefined,
    countEdge: (from: Date, to: Date) => Promise<number>,
    from?: Date,
    to?: Date,
  ): Promise<number> {
    this.#monthsComplete ||= await migrationCompleted(this.store);
    return countByHours(this.counted, {
      pk: messageCounters.all(accountId).pk,
      daySk: (day) => messageCounters.day(accountId, kind, day).sk,
      cells: (hour) => [status ? messageCounters.hourStatusCell(hour, status) : messageCounters.hourCell(hour)],
      ...(this.#monthsComplete && {
        months: {
          monthSk: (month: string) => messageCounters.month(accountId, kind, month).sk,
          cells: (day: string) => [status ? messageCounters.dayStatusCell(day, status) : messageCounters.dayCell(day)],
        },
      }),
      ...(from && { from }),
      ...(to && { to }),
      countEdge,
    });
  }
}
