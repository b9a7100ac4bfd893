import { BatchWriteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../../shared/store/client';
import { conditionally } from '../../shared/store/conditional';
import { type Item, type ItemUpgrade, migrate } from '../../shared/store/migration';
import { MigrationProgress } from '../../shared/store/migration-progress';
import { allItems, startTestStore } from '../support/dynamo';

let store: Store;
let close: () => Promise<void>;

beforeEach(async () => {
  ({ store, close } = await startTestStore());
});
afterEach(() => close());

/** Old items: `count` of `entity`, version 1, no schema; and a few of an entity nobody upgrades. */
async function seed(count: number, entity = 'Widget'): Promise<void> {
  const items: Item[] = [
    ...Array.from({ length: count }, (_, i) => ({ pk: `${entity.toUpperCase()}#${i}`, sk: '#ITEM', entity, version: 1, n: i })),
    ...Array.from({ length: 3 }, (_, i) => ({ pk: `OTHER#${i}`, sk: '#ITEM', entity: 'Other' })),
  ];
  for (let start = 0; start < items.length; start += 25) {
    await store.db.send(
      new BatchWriteCommand({ RequestItems: { [store.tableName]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })) } }),
    );
  }
}

/**
 * A fake upgrade built the way the real ones are: its candidates the items without a
 * schema, and one UpdateItem conditional on the item unchanged (same version, no schema),
 * counting how often each item was upgraded.
 */
function fakeUpgrade(entity = 'Widget', hooks: { before?: (item: Item) => Promise<void> } = {}) {
  const calls: Item[] = [];
  const upgrade: ItemUpgrade = {
    entity,
    candidates: { expression: 'attribute_not_exists(#schema)', names: { '#schema': 'schema' } },
    async upgrade(item) {
      calls.push(item);
      if (item.schema === 2) return 'skipped';
      await hooks.before?.(item);
      const written = await conditionally(() =>
        store.db.send(
          new UpdateCommand({
            TableName: store.tableName,
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: 'SET #schema = :two ADD upgrades :one',
            ConditionExpression: 'attribute_not_exists(#schema) AND version = :version',
            ExpressionAttributeNames: { '#schema': 'schema' },
            ExpressionAttributeValues: { ':two': 2, ':one': 1, ':version': item.version },
          }),
        ),
      );
      return written ? 'upgraded' : 'changed';
    },
  };
  return { upgrade, calls };
}

const ofEntity = async (entity: string) => (await allItems(store)).filter((item) => item.entity === entity);

describe('migrate', () => {
  it('upgrades every item of a registered entity once, in parallel segments, leaves the others alone and records the pass as complete', async () => {
    // Prepare
    await seed(60);
    const { upgrade } = fakeUpgrade();

    // Act
    const result = await migrate(store, [upgrade], { pageSize: 7 });

    // Assess
    expect(result).toEqual(expect.objectContaining({ completed: true, resumed: false, segments: 4, upgraded: 60, skipped: 0 }));
    expect(result.seen).toBe((await allItems(store)).length);
    expect((await ofEntity('Widget')).map((item) => [item.schema, item.upgrades])).toEqual(Array(60).fill([2, 1]));
    expect((await ofEntity('Other')).every((item) => item.schema === undefined)).toBe(true);
    expect(await new MigrationProgress(store).completed()).toBe(true);
  });

  it('upgrades nothing when run again: a new pass passes over every item, at schema 2, within the store', async () => {
    // Prepare
    await seed(30);
    await migrate(store, [fakeUpgrade().upgrade]);
    const { upgrade, calls } = fakeUpgrade();
    const scanned: Item[] = [];
    store.db.middlewareStack.add(
      (next) => async (args) => {
        const result = await next(args);
        // The migration's Scans (allItems below reads without a filter)
        if ((args.input as { FilterExpression?: string }).FilterExpression) scanned.push(...((result.output as { Items?: Item[] }).Items ?? []));
        return result;
      },
      { step: 'initialize', name: 'scannedItems' },
    );

    // Act
    const again = await migrate(store, [upgrade], { segments: 2 });

    // Assess
    expect(again).toEqual(expect.objectContaining({ completed: true, resumed: false, segments: 2, upgraded: 0, skipped: 0 }));
    expect(again.seen).toBe((await allItems(store)).length);
    // No item is a candidate any more: none reaches the client, none is handed to the upgrade.
    expect(scanned).toEqual([]);
    expect(calls).toEqual([]);
    expect((await ofEntity('Widget')).every((item) => item.upgrades === 1)).toBe(true);
  });

  it('hands an upgrade only its candidates, of its own entity, with declarations whose placeholders coincide', async () => {
    // Prepare: Widgets 0-59 and Gadgets 0-19; the candidates: 1, 3, 5 and those past 6 (Widgets) or past 16 (Gadgets)
    await seed(60);
    await seed(20, 'Gadget');
    const odd = (entity: string) => {
      const fake = fakeUpgrade(entity);
      fake.upgrade.candidates = { expression: '#n IN (:a, :b, :c) OR #n > :d', names: { '#n': 'n' }, values: { ':a': 1, ':b': 3, ':c': 5, ':d': 6 } };
      return fake;
    };
    const widgets = odd('Widget');
    const gadgets = odd('Gadget');
    gadgets.upgrade.candidates = { ...gadgets.upgrade.candidates, values: { ':a': 1, ':b': 3, ':c': 5, ':d': 16 } };

    // Act
    const result = await migrate(store, [widgets.upgrade, gadgets.upgrade], { pageSize: 9 });

    // Assess
    const numbers = (calls: Item[]) => calls.map((item) => item.n).sort((a, b) => a - b);
    expect(numbers(widgets.calls)).toEqual([1, 3, 5, ...Array.from({ length: 53 }, (_, i) => 7 + i)]);
    expect(numbers(gadgets.calls)).toEqual([1, 3, 5, 17, 18, 19]);
    expect(widgets.calls.every((item) => item.entity === 'Widget') && gadgets.calls.every((item) => item.entity === 'Gadget')).toBe(true);
    expect(result).toEqual(expect.objectContaining({ completed: true, upgraded: 62, skipped: 0, seen: (await allItems(store)).length }));
  });

  it('resumes a stopped run after the last page each segment finished, and finishes it', async () => {
    // Prepare: stopped after the third page
    await seed(80);
    const first = fakeUpgrade();
    const stop = new AbortController();
    let pages = 0;
    const stopped = await migrate(store, [first.upgrade], { pageSize: 5, signal: stop.signal, onPage: () => ++pages === 3 && stop.abort() });
    const second = fakeUpgrade();

    // Act
    const resumed = await migrate(store, [second.upgrade], { pageSize: 5 });

    // Assess
    expect(stopped.completed).toBe(false);
    expect(stopped.upgraded).toBeGreaterThan(0);
    expect(stopped.upgraded).toBeLessThan(80);
    expect(resumed).toEqual(expect.objectContaining({ completed: true, resumed: true, segments: 4 }));
    expect(stopped.upgraded + resumed.upgraded).toBe(80);
    // The pages finished before the stop were not read again.
    const firstRun = new Set(first.calls.map((item) => item.pk));
    expect(second.calls.filter((item) => firstRun.has(item.pk))).toEqual([]);
    expect((await ofEntity('Widget')).every((item) => item.schema === 2 && item.upgrades === 1)).toBe(true);
  });

  it('after a crash in the middle of a page, reads that page again and skips what it had upgraded', async () => {
    // Prepare: the upgrade fails for good on its 12th item
    await seed(40);
    let upgrades = 0;
    const crashing = fakeUpgrade('Widget', {
      before: async () => {
        if (++upgrades === 12) throw new Error('crash');
      },
    });
    await expect(migrate(store, [crashing.upgrade], { pageSize: 10, segments: 1, concurrency: 1 })).rejects.toThrow('crash');

    // Act
    const resumed = await migrate(store, [fakeUpgrade().upgrade], { pageSize: 10 });

    // Assess
    expect(resumed).toEqual(expect.objectContaining({ completed: true, resumed: true, segments: 1, upgraded: 29 }));
    expect((await ofEntity('Widget')).every((item) => item.schema === 2 && item.upgrades === 1)).toBe(true);
  });

  it('reads an item that changed under the upgrade again (consistently) and upgrades what it holds now', async () => {
    // Prepare: WIDGET#7 is changed by someone else just before its first upgrade writes
    await seed(10);
    let changed = false;
    const { upgrade, calls } = fakeUpgrade('Widget', {
      before: async (item) => {
        if (item.pk !== 'WIDGET#7' || changed) return;
        changed = true;
        await store.db.send(
          new UpdateCommand({
            TableName: store.tableName,
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: 'SET version = :two',
            ExpressionAttributeValues: { ':two': 2 },
          }),
        );
      },
    });

    // Act
    const result = await migrate(store, [upgrade]);

    // Assess
    expect(result.upgraded).toBe(10);
    expect(calls.filter((item) => item.pk === 'WIDGET#7').map((item) => item.version)).toEqual([1, 2]);
    const item = (await store.db.send(new GetCommand({ TableName: store.tableName, Key: { pk: 'WIDGET#7', sk: '#ITEM' } }))).Item;
    expect(item).toEqual(expect.objectContaining({ schema: 2, version: 2, upgrades: 1 }));
  });

  it('starts again from the table start with restart, ignoring a stopped run', async () => {
    // Prepare
    await seed(40);
    const stop = new AbortController();
    stop.abort();
    const stopped = await migrate(store, [fakeUpgrade().upgrade], { segments: 2, signal: stop.signal });
    const { upgrade } = fakeUpgrade();

    // Act
    const restarted = await migrate(store, [upgrade], { restart: true, segments: 3 });

    // Assess
    expect(stopped).toEqual(expect.objectContaining({ completed: false, seen: 0 }));
    expect(restarted).toEqual(expect.objectContaining({ completed: true, resumed: false, segments: 3, upgraded: 40 }));
  });

  it('refuses to resume a stopped run over another number of segments', async () => {
    // Prepare
    await seed(5);
    const stop = new AbortController();
    stop.abort();
    await migrate(store, [fakeUpgrade().upgrade], { segments: 2, signal: stop.signal });

    // Act
    const resumed = migrate(store, [fakeUpgrade().upgrade], { segments: 5 });

    // Assess
    await expect(resumed).rejects.toThrow('A pass over 2 segments is in progress');
  });
});
