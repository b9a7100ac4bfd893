import { AsyncLocalStorage } from 'node:async_hooks';
import { type AttributeValue, type ConsumedCapacity, DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { Store } from '../../shared/store/client';
import { type Item, indexWriteUnits } from './index-writes';

/** Request units of some calls: reads, the table's writes (as dynalite reports them) and the indexes' writes (estimated). */
export interface Units {
  read: number;
  write: number;
  indexWrite: number;
}

export const noUnits = (): Units => ({ read: 0, write: 0, indexWrite: 0 });

/** A key of the table as the low-level API writes it. */
interface WrittenKey {
  table: string;
  key: Item;
}

/**
 * Counts the request units of every call a store client makes: ConsumedCapacity for the
 * table, and for each write the index units DynamoDB would add (scripts/bench/index-writes.ts),
 * from the written items read before and after through a client of their own, which is not
 * counted. Writes to one item are measured one at a time, so another write cannot slip in
 * between a write and its readings. Units go to the label the calling code runs under
 * (`labelled`), or to "other".
 */
export class UnitMeter {
  readonly #totals = new Map<string, Units>();
  readonly #label = new AsyncLocalStorage<string>();
  readonly #reader: DynamoDBClient;
  readonly #busy = new Map<string, Promise<void>>();
  /** Off while a bench makes its data: calls then go out unmeasured, at full speed. */
  on = true;

  constructor(store: Store, endpoint: string) {
    this.#reader = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const stack = store.db.middlewareStack;
    stack.add(
      (next) => async (args) => {
        (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
        return next(args);
      },
      { step: 'initialize', name: 'benchConsumedCapacity' },
    );
    // After the document client's marshalling: the input's keys and items are attribute values.
    stack.add(
      (next, context) => async (args) => {
        if (!this.on) return next(args);
        const written = writtenKeys(context.commandName ?? '', args.input as WriteInput);
        const measure = async () => {
          const before = await Promise.all(written.map((key) => this.#read(key)));
          const result = await next(args);
          const after = await Promise.all(written.map((key) => this.#read(key)));
          const units = this.#current();
          for (const i of written.keys()) units.indexWrite += indexWriteUnits(before[i], after[i]).units;
          return result;
        };
        const result = written.length > 0 ? await this.#oneAtATime(written, measure) : await next(args);
        const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
        const isWrite = /Put|Update|Delete|Write/.test(context.commandName ?? '');
        const units = this.#current();
        for (const capacity of [consumed ?? []].flat()) units[isWrite ? 'write' : 'read'] += capacity.CapacityUnits ?? 0;
        return result;
      },
      { step: 'build', name: 'benchRequestUnits' },
    );
  }

  /** Runs `act` with every call it makes counted under `label`. */
  labelled<T>(label: string, act: () => T): T {
    return this.#label.run(label, act);
  }

  /** The units counted under `label` since the last reset. */
  get(label = 'other'): Units {
    return { ...(this.#totals.get(label) ?? noUnits()) };
  }

  reset(): void {
    this.#totals.clear();
  }

  close(): void {
    this.#reader.destroy();
  }

  #current(): Units {
    const label = this.#label.getStore() ?? 'other';
    const units = this.#totals.get(label) ?? noUnits();
    this.#totals.set(label, units);
    return units;
  }

  async #read({ table, key }: WrittenKey): Promise<Item | undefined> {
    return (await this.#reader.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
  }

  /** Runs `act` once no other measured write holds any of `keys` (taken all at once, in arrival order: no deadlock). */
  async #oneAtATime<T>(keys: WrittenKey[], act: () => Promise<T>): Promise<T> {
    const names = [...new Set(keys.map((key) => `${key.table}\n${JSON.stringify(key.key.pk)}\n${JSON.stringify(key.key.sk)}`))];
    const earlier = names.map((name) => this.#busy.get(name));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    for (const name of names) this.#busy.set(name, held);
    await Promise.all(earlier);
    try {
      return await act();
    } finally {
      release();
      for (const name of names) if (this.#busy.get(name) === held) this.#busy.delete(name);
    }
  }
}

interface WriteInput {
  TableName?: string;
  Item?: Item;
  Key?: Item;
  RequestItems?: Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]>;
  TransactItems?: { Put?: { TableName: string; Item: Item }; Update?: { TableName: string; Key: Item }; Delete?: { TableName: string; Key: Item } }[];
}

/** The table keys a write command writes (none for reads). */
function writtenKeys(command: string, input: WriteInput): WrittenKey[] {
  const keyOf = (item: Item): Item => ({ pk: item.pk as AttributeValue, sk: item.sk as AttributeValue });
  if (command === 'TransactWriteItemsCommand' && input.TransactItems) {
    return input.TransactItems.flatMap((entry) => {
      const write = entry.Put ?? entry.Update ?? entry.Delete;
      if (!write) return [];
      return [{ table: write.TableName, key: keyOf('Item' in write ? write.Item : write.Key) }];
    });
  }
  if (command === 'BatchWriteItemCommand' && input.RequestItems) {
    return Object.entries(input.RequestItems).flatMap(([table, requests]) =>
      requests.flatMap((request) => {
        const item = request.PutRequest?.Item ?? request.DeleteRequest?.Key;
        return item ? [{ table, key: keyOf(item) }] : [];
      }),
    );
  }
  if (!input.TableName) return [];
  if (command === 'PutItemCommand' && input.Item) return [{ table: input.TableName, key: keyOf(input.Item) }];
  if ((command === 'UpdateItemCommand' || command === 'DeleteItemCommand') && input.Key) return [{ table: input.TableName, key: keyOf(input.Key) }];
  return [];
}
