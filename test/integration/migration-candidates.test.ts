import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { Campaign } from '../../shared/domain/campaigns';
import { campaignUpgrade } from '../../shared/store/campaign-migration';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { keys } from '../../shared/store/keys';
import { linkUpgrade } from '../../shared/store/link-migration';
import { linkCreation } from '../../shared/store/links-repo';
import { messageCreation } from '../../shared/store/message-changes';
import { messageUpgrade } from '../../shared/store/message-migration';
import { type Item, type ItemUpgrade, migrate } from '../../shared/store/migration';
import { sendBeforeComboCounts } from '../support/before-combo-counts';
import { sendBeforeTextCounts } from '../support/before-text-counts';
import { sendBeforeToCounts } from '../support/before-to-counts';
import { allItems, startTestStore } from '../support/dynamo';
import { aLink, aMessage } from '../support/fixtures';
import { oldData, writeOldData } from '../support/old-layout';

let store: Store;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ store, close } = await startTestStore());
});
afterEach(() => close());

const upgrades = (): ItemUpgrade[] => {
  const counted = new CountedWrites(store, ulid);
  return [linkUpgrade(store, counted), messageUpgrade(store, counted), campaignUpgrade(store)];
};
const keyOf = (item: Item) => `${item.pk} ${item.sk}`;

async function put(items: Item[]): Promise<void> {
  for (let start = 0; start < items.length; start += 25) {
    await store.db.send(
      new BatchWriteCommand({ RequestItems: { [store.tableName]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })) } }),
    );
  }
}

/** The keys of the items a pass hands to the upgrades (which write nothing). */
async function handedOver(): Promise<Set<string>> {
  const handed = new Set<string>();
  const spies = upgrades().map(
    (upgrade): ItemUpgrade => ({
      ...upgrade,
      async upgrade(item) {
        handed.add(keyOf(item));
        return 'skipped';
      },
    }),
  );
  await migrate(store, spies, { restart: true, pageSize: 40 });
  return handed;
}

/** The items of an upgraded entity the pass did not hand over whose upgrade does not skip them (it upgrades them, or fails). */
async function missed(items: Item[], handed: Set<string>): Promise<string[]> {
  const byEntity = new Map(upgrades().map((upgrade) => [upgrade.entity, upgrade]));
  const missed: string[] = [];
  for (const item of items) {
    const upgrade = byEntity.get(String(item.entity));
    if (!upgrade || handed.has(keyOf(item))) continue;
    const outcome = await upgrade.upgrade(item).catch((error: unknown) => `failed: ${error}`);
    if (outcome !== 'skipped') missed.push(`${keyOf(item)}: ${outcome} ${JSON.stringify(item)}`);
  }
  return missed;
}

const heldCampaign = (id: number): Campaign => ({
  id,
  accountId: 7,
  messageId: id,
  name: null,
  status: 'MODERATION',
  linkIds: [],
  createdAt: '2026-11-02T10:00:00.000Z',
  sentAt: null,
  deferredTo: null,
});

describe('the candidates each upgrade declares', () => {
  it('take in every item of an earlier layout, and each item passed over is one its upgrade skips', async () => {
    // Prepare: the previous version's links, messages and campaigns (one held without the held index) …
    await writeOldData(store, oldData());
    // … messages of schema 2 before the text, number and combination counts, and with times before their creation …
    await sendBeforeTextCounts(store, aMessage({ id: 3001, campaignId: 5001, accountId: 7 }));
    await sendBeforeToCounts(store, aMessage({ id: 3002, campaignId: 5002, accountId: 7 }));
    await sendBeforeComboCounts(store, aMessage({ id: 3003, campaignId: 5003, accountId: 7 }));
    const sent = aMessage({ id: 3004, campaignId: 5004, accountId: 7 });
    const updated = aMessage({ id: 3005, campaignId: 5005, accountId: 7 });
    const campaign = { status: 'SENT', deferred: false } as const;
    // … a link of schema 2 before its comment's words were counted …
    const { wordsCounted: _, ...uncounted } = linkCreation(aLink({ id: 3101, accountId: 7, comment: 'Summer sale' })).item;
    const old = [
      { ...messageCreation(sent, campaign).item, startSendAt: '2026-01-02T03:04:04.999Z' },
      { ...messageCreation(updated, campaign).item, statusUpdatedAt: '2026-01-01T23:59:59.000Z' },
      uncounted,
    ];
    // … and current ones of each entity
    const current = [
      linkCreation(aLink({ id: 3102, accountId: 7, comment: 'Winter sale' })).item,
      messageCreation(aMessage({ id: 3006, campaignId: 5006, accountId: 7 }), campaign).item,
    ];
    await put([...old, ...current]);
    await new CampaignsRepository(store).create(heldCampaign(5007));
    const items = await allItems(store);

    // Act
    const handed = await handedOver();

    // Assess
    expect(await missed(items, handed)).toEqual([]);
    // Not vacuous: every earlier layout was handed over, and the current items were not.
    const ofUpgrades = items.filter(
      (item) => ['Link', 'Message'].includes(item.entity) || (item.entity === 'Campaign' && item.status === 'MODERATION'),
    );
    const earlier = ofUpgrades.filter((item) => ![...current.map(keyOf), keyOf(keys.campaign(5007))].includes(keyOf(item)));
    expect(earlier.length).toBeGreaterThan(45 + 35);
    expect(earlier.filter((item) => !handed.has(keyOf(item))).map(keyOf)).toEqual([]);
    expect([...current.map(keyOf), keyOf(keys.campaign(5007))].filter((key) => handed.has(key))).toEqual([]);
  });

  it('take in every variant of a current item that its upgrade does not skip (an attribute removed or set otherwise)', async () => {
    // Prepare: current items of each entity, then each with one attribute removed or set to another value
    await new CampaignsRepository(store).create(heldCampaign(9));
    const held = (await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.campaign(9) }))).Item!;
    const current: Item[] = [
      linkCreation(aLink({ id: 1, accountId: 7, comment: 'Summer sale', trackingCode: 'abc123', campaignId: 3 })).item,
      messageCreation(aMessage({ id: 1, accountId: 7 }), { status: 'SENT', deferred: false }).item,
      messageCreation(aMessage({ id: 2, accountId: 7, status: 'NEW', startSendAt: null, statusUpdatedAt: null }), {
        status: 'MODERATION',
        deferred: false,
      }).item,
      held,
    ];
    const keyFor = { Link: keys.link, Message: keys.message, Campaign: keys.campaign } as Record<string, (id: number) => { pk: string; sk: string }>;
    const variants: Item[] = [];
    for (const item of current) {
      const hour = 3_600_000;
      const times = [new Date(Date.parse(item.createdAt) - hour).toISOString(), new Date(Date.parse(item.createdAt) + 24 * hour).toISOString()];
      for (const name of Object.keys(item).filter((name) => !['pk', 'sk', 'entity', 'id'].includes(name))) {
        // An index key keeps its type.
        const numbers = [undefined, 0, 1, 2];
        const strings = [undefined, 'x', ...times];
        const index = /^gsi\d+(pk|sk)$/.test(name);
        const values = !index ? [...numbers, 'x', true, ...times] : typeof item[name] === 'string' ? strings : numbers;
        for (const value of values) {
          if (value === item[name]) continue;
          const id = 100 + variants.length;
          const variant: Item = { ...item, ...keyFor[item.entity]!(id), id, [name]: value };
          if (value === undefined) delete variant[name];
          variants.push(variant);
        }
      }
    }
    await put(variants);

    // Act
    const handed = await handedOver();

    // Assess
    expect(variants.length).toBeGreaterThan(500);
    expect(await missed(variants, handed)).toEqual([]);
    // Not vacuous: variants that need their upgrade were handed over.
    expect(handed.size).toBeGreaterThan(20);
  });

  it('once a pass has upgraded them, a new pass reads no item into the client', async () => {
    // Prepare: a few links and messages of the previous version, with their campaigns (one held)
    const { items } = oldData();
    const messages = items.filter((item) => item.entity === 'Message').filter((item, i) => i < 4 || item.status === 'NEW');
    const campaigns = new Set(messages.map((item) => item.campaignId));
    const links = items.filter((item) => item.entity === 'Link').slice(0, 4);
    await writeOldData(store, {
      ...oldData(),
      items: [...links, ...messages, ...items.filter((item) => campaigns.has(item.id) && item.entity === 'Campaign')],
    });
    const first = await migrate(store, upgrades());
    const read: Item[] = [];
    store.db.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (context.commandName === 'ScanCommand') read.push(...((result.output as { Items?: Item[] }).Items ?? []));
        return result;
      },
      { step: 'initialize', name: 'scanned' },
    );

    // Act
    const again = await migrate(store, upgrades(), { restart: true });

    // Assess
    expect(first.upgraded).toBeGreaterThanOrEqual(4 + 5 + 1);
    expect(again).toEqual(expect.objectContaining({ completed: true, upgraded: 0, skipped: 0 }));
    expect(again.seen).toBeGreaterThan(first.upgraded);
    expect(read).toEqual([]);
  });
});
