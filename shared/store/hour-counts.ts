import type { CountedWrites } from './counted-writes';

// Stand-in for the hour-counts contract, replaced by the real module on merge.
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
  return args.countEdge(args.from ?? new Date(0), args.to ?? new Date(8.64e15));
}
