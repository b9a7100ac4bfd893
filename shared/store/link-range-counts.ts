import type { Store } from './client';
import type { CountedWrites } from './counted-writes';
import { countByHours } from './hour-counts';
import { countRanges } from './index-reader';
import { linkCounts } from './link-counts';
import { type Flags, linkPartition } from './link-keys';
import { createdKeyRange } from './link-lists';
import { migrationCompleted } from './migration-progress';

/**
 * Link/List's exact totals from the counter items (docs/data-model.md §5): by flags from the
 * account's totals; within a createTs range from the day items' hourly cells, the month
 * items' daily cells over more than a week once the migration has counted every link in
 * them (migrationCompleted), and the edge hours from gsi7.
 */
export class LinkCounts {
  /** Every link is in the month items: the migration has completed (never reverts). */
  #monthsComplete = false;

  constructor(
    private readonly store: Store,
    private readonly counted: CountedWrites,
  ) {}

  /** The account's links with each of the flags, from the counters. */
  async flagCounts(accountId: number, flags: Flags[]): Promise<number[]> {
    const [cells = {}] = await this.counted.read([linkCounts.all(accountId)], true);
    return flags.map((f) => cells[f] ?? 0);
  }

  /** The account's links with the given flags, created within [from, to] when given: from the counters and the edges. */
  async count(accountId: number, flags: Flags[], from?: Date, to?: Date): Promise<number> {
    if (!from && !to) return (await this.flagCounts(accountId, flags)).reduce((sum, n) => sum + n, 0);
    return countByHours(this.counted, {
      pk: linkCounts.pk(accountId),
      daySk: linkCounts.daySk,
      cells: (hour) => flags.map((f) => linkCounts.hourCell(hour, f)),
      ...((await this.#months()) && {
        months: { monthSk: linkCounts.monthSk, cells: (day: string) => flags.map((f) => linkCounts.dayCell(day, f)) },
      }),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      countEdge: (edgeFrom, edgeTo) =>
        countRanges(
          this.store,
          flags.map((f) => ({ index: 'gsi7', pk: linkPartition(accountId, f), ...createdKeyRange(edgeFrom, edgeTo) })),
        ),
    });
  }

  async #months(): Promise<boolean> {
    this.#monthsComplete ||= await migrationCompleted(this.store);
    return this.#monthsComplete;
  }
}
