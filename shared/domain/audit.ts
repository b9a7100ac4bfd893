import type { ErrorKind } from './errors';
import type { NewId } from './ids';
import type { Operator } from './operators';
import type { Clock } from './time';

/** One change an operator asked of the operator API, whether it was made or refused. */
export interface AuditEntry {
  /** A ULID: entries sort by it, newest last. */
  id: string;
  at: string;
  operator: Operator;
  /** `<group>/<action>`: `campaigns/approve`. */
  action: string;
  /** The ids the change is about: `{ campaignId: 7 }`. */
  target: Record<string, unknown>;
  /** What was asked, without secrets. */
  input: Record<string, unknown>;
  /** `ok`, or the code of the error that refused it (`notFound`, `conflict`, …). */
  outcome: 'ok' | ErrorKind | 'conflict';
  /** The error's message when refused. */
  message?: string;
}

export interface AuditStore {
  record(entry: AuditEntry): Promise<void>;
  /** Newest first, at most `limit`, only entries older than the entry `before` when given. */
  list(limit: number, before?: string): Promise<AuditEntry[]>;
}

export const MAX_AUDIT_PAGE = 100;
/** Shown instead of a secret's value in an entry. */
export const REDACTED = '[redacted]';

export class AuditLog {
  constructor(private readonly deps: { store: AuditStore; ids: NewId; clock: Clock }) {}

  async record(change: Omit<AuditEntry, 'id' | 'at'>): Promise<AuditEntry> {
    const now = this.deps.clock();
    const entry: AuditEntry = { id: this.deps.ids(now), at: now.toISOString(), ...change };
    await this.deps.store.record(entry);
    return entry;
  }

  list(limit: number, before?: string): Promise<AuditEntry[]> {
    return this.deps.store.list(Math.min(Math.max(1, limit), MAX_AUDIT_PAGE), before);
  }
}

/** `input` with the values of `secrets` replaced, so no audit entry or log line holds one. */
export function withoutSecrets(input: Record<string, unknown>, secrets: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).map(([name, value]) => [name, secrets.includes(name) && value !== undefined ? REDACTED : value]));
}
