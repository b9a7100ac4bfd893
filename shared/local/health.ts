import type { Store } from '../store/client';
import { SettingsRepository } from '../store/settings-repo';

export type Health = { status: 'ok' } | { status: 'unavailable'; reason: string };

/** How long /health waits for the store: dynalite answers a read in milliseconds. */
export const STORE_CHECK_TIMEOUT_MS = 2000;

/**
 * Whether the store answers one read of a fixed key within `timeoutMs`. /health may be
 * polled often: checks asked for while one is under way share its answer, so a store that
 * hangs costs one read at a time, not one per poll.
 */
export function storeHealthCheck(store: Store, timeoutMs = STORE_CHECK_TIMEOUT_MS): () => Promise<Health> {
  const settings = new SettingsRepository(store);
  let pending: Promise<Health> | undefined;
  const check = async (): Promise<Health> => {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      await settings.ping(signal);
      return { status: 'ok' };
    } catch (error) {
      const reason = signal.aborted
        ? `The store did not answer within ${timeoutMs} ms`
        : `The store failed: ${String((error as Error)?.message ?? error)}`;
      return { status: 'unavailable', reason };
    }
  };
  return () => (pending ??= check().finally(() => (pending = undefined)));
}
