import { ulid } from 'ulid';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { MessageChanges } from '../../shared/store/message-changes';
import { messageCounters } from '../../shared/store/message-keys';
import { IndexedMessageLists } from '../../shared/store/message-lists';
import { MessagesRepository } from '../../shared/store/messages-repo';
import { crashingStore } from '../support/crashing-store';
import { startTestStore } from '../support/dynamo';
import { aMessage } from '../support/fixtures';

/**
 * A campaign's move copies its status onto its message first, then moves the campaign: a
 * process stopped after any of the writes in between leaves a state that the move's retry
 * (as the scheduler's send task makes it) and the counted writes' recovery bring to the
 * campaign and its message agreeing, in the lists and in the counts.
 */
let store: Store;
let close: () => Promise<void>;

beforeEach(async () => {
  ({ store, close } = await startTestStore());
});
afterEach(() => close());

const QUERY = { sort: [], pagination: { pageSize: 25 as const, currentPage: 0 } };
const counted = (on: Store, ageMs = 0) => new CountedWrites(on, () => ulid(Date.now() - ageMs));
/** The stopped process's changes are dated a minute back: crash leftovers, as the sweep finds them. */
const repositories = (on: Store, ageMs = 0) => {
  const changes = new MessageChanges(on, counted(on, ageMs));
  return { campaigns: new CampaignsRepository(on, changes), messages: new MessagesRepository(on, changes) };
};

async function deferredCampaign(): Promise<void> {
  const { campaigns, messages } = repositories(store);
  const message = aMessage({ id: 1, campaignId: 1, accountId: 2, status: 'NEW', startSendAt: null, statusUpdatedAt: null });
  await campaigns.create({
    id: 1,
    accountId: 2,
    messageId: 1,
    name: null,
    status: 'READY_FOR_SEND',
    linkIds: [],
    createdAt: message.createdAt,
    sentAt: null,
    deferredTo: '2026-01-03T00:00:00.000Z',
  });
  await messages.create(message, { status: 'READY_FOR_SEND', deferred: true });
}

describe('the campaign status copied onto its message', () => {
  it('agrees with the campaign after a release stopped after any of its writes and retried', async () => {
    for (let writes = 1; ; writes++) {
      // Prepare
      await close();
      ({ store, close } = await startTestStore());
      await deferredCampaign();
      const crashing = crashingStore(store, writes);

      // Act: the release stops after `writes` writes; the send task runs again while the campaign waits.
      await repositories(crashing, 60_000)
        .campaigns.move(1, ['READY_FOR_SEND'], 'RUNNING')
        .catch(() => undefined);
      const { campaigns } = repositories(store);
      if ((await campaigns.get(1))?.status === 'READY_FOR_SEND') await campaigns.move(1, ['READY_FOR_SEND'], 'RUNNING');
      await counted(store).recover(0);

      // Assess
      expect(await campaigns.get(1)).toMatchObject({ status: 'RUNNING' });
      const lists = new IndexedMessageLists(store, counted(store));
      expect((await lists.list(2, { ...QUERY, campaignStatus: 'RUNNING' })).items.map(({ message }) => message.id)).toEqual([1]);
      expect((await lists.list(2, { ...QUERY, campaignStatus: 'DEFERRED' })).totalItemCount).toBe(0);
      const [cells] = await counted(store).read([messageCounters.all(2)], true);
      expect(cells).toMatchObject({ all: 1, 'cs#RUNNING#D': 1, 'cs#READY_FOR_SEND#D': 0 });
      if (!crashing.crashed()) break;
    }
  }, 60_000);
});
