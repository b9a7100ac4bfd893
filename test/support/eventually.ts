export interface EventuallyOptions {
  /** How long to keep looking before the wait fails (10 s): a bound on a wait that would never end, not a measure of speed. */
  timeoutMs?: number;
  /** How long to wait between looks (20 ms); longer for a check that costs another process work. */
  intervalMs?: number;
  /** What the failure says, made when the wait fails (the state the check last saw, say). */
  failure?: () => string | Promise<string>;
}

/**
 * Waits until `check` holds, looking again every 20 ms (or `intervalMs`): for effects that
 * come on a timer rather than through the queues a test can drain (the simulator's delivery
 * reports, a child process), however loaded the machine is.
 */
export async function eventually(check: () => boolean | Promise<boolean>, options: EventuallyOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(options.failure ? await options.failure() : `Condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 20));
  }
}
