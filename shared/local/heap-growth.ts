import { setFlagsFromString } from 'node:v8';

/** How far V8's old generation may grow past what the last full collection kept, when LOCAL_HEAP_GROWTH_PERCENT is not set. */
export const DEFAULT_HEAP_GROWTH_PERCENT = 100;

/**
 * LOCAL_HEAP_GROWTH_PERCENT: how far (in percent) the old generation of each V8 heap of
 * the process (the main thread's and dynalite's thread's) may grow past what the last
 * full collection kept before the next one runs. V8 otherwise lets it grow to up to four
 * times that (on a machine with gigabytes): under a long-tail redirect load, requests
 * waiting on dynalite outlive the young generation, and the main thread's old generation
 * grew from 22 MB to about 130 MB between full collections, which V8 kept committed once
 * they found 30 MB live (bench:redirect's long tail). At 100 (up to twice what was kept)
 * it stayed at 62–72 MB with no loss of throughput measurable on a shared machine; at 50
 * it stayed near 50 MB, but the extra full collections cost about a tenth of the
 * redirects answered. 0 leaves V8 its own factor.
 */
export function heapGrowthPercent(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.LOCAL_HEAP_GROWTH_PERCENT;
  if (value === undefined || value === '') return DEFAULT_HEAP_GROWTH_PERCENT;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 300) {
    throw new Error(`LOCAL_HEAP_GROWTH_PERCENT must be an integer from 0 to 300: ${value}`);
  }
  return parsed;
}

/**
 * Bounds the old generation's growth for every heap of this process (V8's flags are the
 * process's, so dynalite's thread gets the bound too). V8 reads this flag at each full
 * collection, so setting it once the process runs takes effect from the next one.
 */
export function boundHeapGrowth(percent: number, setFlags: (flags: string) => void = setFlagsFromString): void {
  if (percent > 0) setFlags(`--heap-growing-percent=${percent}`);
}
