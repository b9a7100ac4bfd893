import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mapLimited } from '../domain/concurrency';
import type { Store } from './client';
import { copyDaySpan, DAY_PREFIXES, lastSettledDay, nextDay } from './day-rollups';
import { keys } from './keys';
import { senderDayPrefix } from './message-keys';
import { accountSenders } from './message-senders';

/** How long one scheduled pass works at most (the sweep function has 50 s); what is left waits for the next. */
export const ROLLUP_PASS_BUDGET_MS = 20_000;
/** Where the passes are (a Setting item). */
const PASS_KEY = keys.setting('rollup-pass');
/** Accounts copied at once; the position is saved after each such group. */
const ACCOUNTS_AT_ONCE = 8;
/** An account's per-day counters copied at once (four, and one per sender). */
const PREFIXES_AT_ONCE = 8;

/** Where the passes are: every account's settled days are copied through `through`; a pass under way copies through `to` and has done the accounts up to `after`. */
interface PassState {
  through?: string;
  to?: string;
  after?: number;
}

/**
 * The scheduled copier of settled days onto their month items (day-rollups.ts), so a long
 * range's reader finds them there: the deployed list functions may only read the table, so
 * they cannot copy what they find missing, and late changes copy only their own days.
 *
 * A pass takes every account in id order and copies, for each of its per-day counters (DAY_PREFIXES and each sender's), the
 * days after the last pass's up to the last settled day (copyDaySpan: a counter with no day
 * item there writes nothing). A pass runs at most a budget's time; its position is saved
 * after each group of accounts, so the next run (a minute later) resumes after it, and a
 * pass stopped anywhere copies a few accounts again, which rewrites the same summaries. The
 * first pass copies each counter from its first day. Once a day, the pass copies that day.
 */
export class RollupPass {
  constructor(
    private readonly store: Store,
    private readonly accountIds: () => Promise<number[]>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Copies until every account is done or `budgetMs` has passed (at least one group of accounts); returns the days copied. */
  async run(budgetMs = Number.POSITIVE_INFINITY): Promise<number> {
    const started = performance.now();
    const state = await this.#state();
    const target = lastSettledDay(this.clock());
    const to = state.to ?? target;
    if (state.to === undefined && state.through !== undefined && state.through >= target) return 0;
    const from = state.through === undefined ? undefined : nextDay(state.through);
    const pending = (await this.accountIds()).filter((id) => state.after === undefined || id > state.after).sort((a, b) => a - b);
    let copied = 0;
    let after = state.after;
    for (let i = 0; i < pending.length; i += ACCOUNTS_AT_ONCE) {
      if (i > 0) {
        // Where a run stopped here, or cut short by its function's timeout, the next one resumes.
        await this.#save({ through: state.through, to, after });
        if (performance.now() - started >= budgetMs) return copied;
      }
      const group = pending.slice(i, i + ACCOUNTS_AT_ONCE);
      const days = await mapLimited(group, ACCOUNTS_AT_ONCE, (id) => this.#copyAccount(id, from, to));
      copied += days.reduce((sum, n) => sum + n, 0);
      after = group.at(-1);
    }
    await this.#save({ through: to });
    return copied;
  }

  /** The next passes copy every day again, from each counter's first (`admin rollups copy --restart`). */
  async restart(): Promise<void> {
    await this.store.db.send(new DeleteCommand({ TableName: this.store.tableName, Key: PASS_KEY }));
  }

  async #copyAccount(accountId: number, from: string | undefined, to: string): Promise<number> {
    if (from !== undefined && from > to) return 0;
    const pk = keys.accountCounts(accountId);
    // Each sender's day items too (message-keys.ts: senderDay), the senders named by their counter items.
    const senders = (await accountSenders(this.store, accountId)).map(senderDayPrefix);
    const days = await mapLimited([...DAY_PREFIXES, ...senders], PREFIXES_AT_ONCE, (prefix) => copyDaySpan(this.store, pk, prefix, from, to));
    return days.reduce((sum, n) => sum + n, 0);
  }

  async #state(): Promise<PassState> {
    const { Item } = await this.store.db.send(new GetCommand({ TableName: this.store.tableName, Key: PASS_KEY, ConsistentRead: true }));
    return { through: Item?.through, to: Item?.to, after: Item?.after };
  }

  async #save(state: PassState): Promise<void> {
    const defined = Object.fromEntries(Object.entries(state).filter(([, value]) => value !== undefined));
    await this.store.db.send(new PutCommand({ TableName: this.store.tableName, Item: { ...PASS_KEY, entity: 'Setting', ...defined } }));
  }
}
