import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../../shared/store/client';
import { conditionally } from '../../shared/store/conditional';
import { type CountedWrites, markUpdate } from '../../shared/store/counted-writes';
import type { Key } from '../../shared/store/keys';

/**
 * A small entity counted through CountedWrites, for its tests: a Thing has a `state`;
 * counters `ALL` (a cell per state) and `D#<state>` (cell `n`) count things by state, and
 * a side item `TAGS#<run>` / `<n>#<state>` names each thing's state.
 */
export type State = string;

export const thingKey = (run: string, n: number): Key => ({ pk: `THING#${run}#${n}`, sk: '#THING' });
const tagKey = (run: string, n: number, state: State): Key => ({ pk: `TAGS#${run}`, sk: `${n}#${state}` });
const countsPk = (run: string) => `COUNTS#${run}`;
const countKeys = (run: string, states: State[]): Key[] => [
  { pk: countsPk(run), sk: 'ALL' },
  ...states.map((s) => ({ pk: countsPk(run), sk: `D#${s}` })),
];

function counters(run: string, state: State, delta: number) {
  return [
    { key: { pk: countsPk(run), sk: 'ALL' }, add: { [`n_${state}`]: delta } },
    { key: { pk: countsPk(run), sk: `D#${state}` }, add: { n: delta } },
  ];
}

/** Creates thing `n` in `state`; false if it exists or carries a mark. */
export async function createThing(store: Store, counted: CountedWrites, run: string, n: number, state: State): Promise<boolean> {
  const marked = counted.mark({ counters: counters(run, state, 1), puts: [{ ...tagKey(run, n, state), thing: n }] });
  const written = await conditionally(() =>
    store.db.send(
      new PutCommand({
        TableName: store.tableName,
        Item: { ...thingKey(run, n), state, ...marked.set },
        ConditionExpression: `attribute_not_exists(pk) AND ${marked.condition}`,
      }),
    ),
  );
  if (written) await counted.finish(thingKey(run, n), marked);
  return written;
}

/** Moves thing `n` from `from` to `to` (or deletes it when `to` is undefined); false if it was not in `from` or carries a mark. */
export async function changeThing(store: Store, counted: CountedWrites, run: string, n: number, from: State, to?: State): Promise<boolean> {
  const marked = counted.mark({
    counters: [...counters(run, from, -1), ...(to === undefined ? [] : counters(run, to, 1))],
    puts: to === undefined ? [] : [{ ...tagKey(run, n, to), thing: n }],
    deletes: [tagKey(run, n, from)],
    deleteEntity: to === undefined,
  });
  const mark = markUpdate(marked);
  const written = await conditionally(() =>
    store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: thingKey(run, n),
        UpdateExpression: to === undefined ? `SET deleted = :one, ${mark.set}` : `SET #state = :to, ${mark.set}`,
        ConditionExpression: `#state = :from AND attribute_not_exists(deleted) AND ${marked.condition}`,
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ...mark.values, ':from': from, ...(to === undefined ? { ':one': 1 } : { ':to': to }) },
      }),
    ),
  );
  if (written) await counted.finish(thingKey(run, n), marked);
  return written;
}

/** The thing as stored (consistent read), undefined when gone. */
export async function thing(store: Store, run: string, n: number) {
  return (await store.db.send(new GetCommand({ TableName: store.tableName, Key: thingKey(run, n), ConsistentRead: true }))).Item;
}

/** What the counters say, zero cells left out: `{ ALL: {n_a: 2}, 'D#a': {n: 2} }`. */
export async function countsOf(counted: CountedWrites, run: string, states: State[]) {
  const keysRead = countKeys(run, states);
  const cells = await counted.read(keysRead, true);
  const read: Record<string, Record<string, number>> = {};
  keysRead.forEach((key, i) => {
    const found = nonZero(cells[i] ?? {});
    if (Object.keys(found).length > 0) read[key.sk] = found;
  });
  return read;
}

/** What the counters should say for things in these states. */
export function truthOf(states: (State | undefined)[]) {
  const all: Record<string, number> = {};
  const truth: Record<string, Record<string, number>> = {};
  for (const state of states) {
    if (state === undefined) continue;
    all[`n_${state}`] = (all[`n_${state}`] ?? 0) + 1;
    truth[`D#${state}`] = { n: (truth[`D#${state}`]?.n ?? 0) + 1 };
  }
  return Object.keys(all).length > 0 ? { ALL: all, ...truth } : truth;
}

/** The side items of a run, as `<n>#<state>`, sorted. */
export async function tagsOf(store: Store, run: string): Promise<string[]> {
  const result = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `TAGS#${run}` },
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? []).map((item) => item.sk as string).sort();
}

/** The raw `ops` set of a counter item of a run. */
export async function opsOf(store: Store, run: string, sk: string): Promise<string[]> {
  const item = (await store.db.send(new GetCommand({ TableName: store.tableName, Key: { pk: countsPk(run), sk }, ConsistentRead: true }))).Item;
  return [...((item?.ops as Set<string> | undefined) ?? [])].sort();
}

function nonZero(cells: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(cells).filter(([, value]) => value !== 0));
}
