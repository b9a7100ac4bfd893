import type { Store } from '../../shared/store/client';

/** What a process stopped dead looks like to the code that was running in it. */
export class Crash extends Error {
  constructor() {
    super('crashed');
    this.name = 'Crash';
  }
}

const WRITES = new Set(['PutCommand', 'UpdateCommand', 'DeleteCommand']);

/**
 * A store that "crashes" right after its `afterWrites`-th write has landed: that send
 * throws Crash, and so does every later one, without reaching the table (the process is
 * gone), writes sent alongside it included: exactly `afterWrites` writes land. Those sent
 * before it may land after the caller has seen the crash, as a dead process's requests in
 * flight do: `landed()` waits for them.
 */
export function crashingStore(store: Store, afterWrites: number): Store & { crashed(): boolean; landed(): Promise<void> } {
  let landed = 0;
  let inFlight = 0;
  const sending = new Set<Promise<unknown>>();
  let crashed = false;
  const die = () => {
    crashed = true;
    return new Crash();
  };
  const send = async (command: { constructor: { name: string } }) => {
    if (crashed) throw new Crash();
    if (!WRITES.has(command.constructor.name)) return store.db.send(command as never);
    // Dead before sending this one: the writes under way make up the last `afterWrites`.
    if (landed + inFlight >= afterWrites) throw die();
    inFlight++;
    let result: unknown;
    const sent = store.db.send(command as never);
    sending.add(sent);
    try {
      result = await sent;
    } finally {
      inFlight--;
      sending.delete(sent);
    }
    landed++;
    if (crashed || landed >= afterWrites) throw die();
    return result;
  };
  return {
    tableName: store.tableName,
    db: { send } as unknown as Store['db'],
    crashed: () => crashed,
    async landed() {
      while (sending.size > 0) await Promise.allSettled([...sending]);
    },
  };
}
