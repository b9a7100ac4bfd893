import type { CountedWrites } from './counted-writes';

// Counts a creation range from the index alone (no hourly cells yet).
export function countByHours(
  _counted: CountedWrites,
  args: {
    pk: string;
    daySk: (day: string) => string;
    cells: (hour: string) => string[];
    from?: Date;
    to?: Date;
    countEdge: (from: Date, to: Date) => Promise<number>;
  },
): Promise<number> {
  return args.countEdge(args.from ?? new Date(0), args.to ?? new Date('9999-12-31T23:59:59.999Z'));
}
