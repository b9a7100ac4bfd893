import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Campaign } from '../../shared/domain/campaigns';
import { campaignUpgrade } from '../../shared/store/campaign-migration';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { HeldCampaigns } from '../../shared/store/held-campaigns';
import { keys } from '../../shared/store/keys';
import { migrate } from '../../shared/store/migration';
import { startTestStore } from '../support/dynamo';

let store: Store;
let close: () => Promise<void>;

beforeEach(async () => {
  ({ store, close } = await startTestStore());
});
afterEach(() => close());

const campaign = (id: number, status: Campaign['status'], createdAt = `2026-11-0${id}T10:00:00.000Z`): Campaign => ({
  id,
  accountId: 1,
  messageId: 100 + id,
  name: null,
  status,
  linkIds: [],
  createdAt,
  sentAt: null,
  deferredTo: null,
});

/** A campaign as versions before the held index wrote it: the same item, without index keys. */
async function putAsBefore(c: Campaign): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.tableName,
      Item: { ...keys.campaign(c.id), entity: 'Campaign', ...c, name: undefined, sentAt: undefined, deferredTo: undefined },
    }),
  );
}

const heldIds = async () => (await new HeldCampaigns(store).list(0, 100)).items.map((c) => c.id);

describe('held campaigns (the sparse held index)', () => {
  it('lists campaigns created in MODERATION, oldest first, until they leave it', async () => {
    // Prepare
    const campaigns = new CampaignsRepository(store);
    await campaigns.create(campaign(2, 'MODERATION'));
    await campaigns.create(campaign(1, 'MODERATION'));
    await campaigns.create(campaign(3, 'RUNNING'));
    await campaigns.create(campaign(4, 'MODERATION'));
    const before = await heldIds();

    // Act
    await campaigns.move(2, ['MODERATION'], 'READY_FOR_SEND');
    await campaigns.move(4, ['MODERATION'], 'DECLINED');

    // Assess
    expect(before).toEqual([1, 2, 4]);
    expect(await heldIds()).toEqual([1]);
    expect(await new HeldCampaigns(store).list(0, 100)).toEqual({ items: [campaign(1, 'MODERATION')], totalItemCount: 1 });
    const moved = await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.campaign(2) }));
    expect(moved.Item).not.toHaveProperty('gsi1pk');
  });

  it('pages them, counting all', async () => {
    // Prepare
    const campaigns = new CampaignsRepository(store);
    for (let id = 1; id <= 7; id++) await campaigns.create(campaign(id, 'MODERATION', `2026-11-01T10:00:0${id}.000Z`));

    // Act
    const pages = await Promise.all([0, 1, 2, 3].map((page) => new HeldCampaigns(store).list(page, 3)));

    // Assess
    expect(pages.map((p) => p.items.map((c) => c.id))).toEqual([[1, 2, 3], [4, 5, 6], [7], []]);
    expect(pages.map((p) => p.totalItemCount)).toEqual([7, 7, 7, 7]);
  });

  it('gives campaigns held by an earlier version the index at admin migrate, once, and leaves the others', async () => {
    // Prepare
    await putAsBefore(campaign(1, 'MODERATION'));
    await putAsBefore(campaign(2, 'DECLINED'));
    await putAsBefore(campaign(3, 'MODERATION'));
    expect(await heldIds()).toEqual([]);

    // Act
    const first = await migrate(store, [campaignUpgrade(store)], { segments: 2 });
    const second = await migrate(store, [campaignUpgrade(store)], { segments: 2 });

    // Assess
    expect(await heldIds()).toEqual([1, 3]);
    // The declined campaign, and then the held ones with the index, are no candidates: never handed over.
    expect([first.upgraded, first.skipped]).toEqual([2, 0]);
    expect([second.upgraded, second.skipped]).toEqual([0, 0]);
    await new CampaignsRepository(store).move(1, ['MODERATION'], 'READY_FOR_SEND');
    expect(await heldIds()).toEqual([3]);
  });

  it('skips a campaign decided between the scan and its upgrade', async () => {
    // Prepare
    await putAsBefore(campaign(1, 'MODERATION'));
    const read = (await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.campaign(1) }))).Item!;
    await new CampaignsRepository(store).move(1, ['MODERATION'], 'DECLINED');

    // Act
    const outcome = await campaignUpgrade(store).upgrade(read);

    // Assess
    expect(outcome).toBe('changed');
    expect(await heldIds()).toEqual([]);
  });
});
