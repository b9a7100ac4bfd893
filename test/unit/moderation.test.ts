import { Moderation } from '../../shared/domain/moderation';
import { StatusChanges } from '../../shared/domain/status-changes';
import { memoryPorts, storedCampaign, T0 } from '../support/memory-messaging';

function build() {
  const memory = memoryPorts();
  const published: string[] = [];
  const statusChanges = new StatusChanges([
    {
      onMessageStatus: async (message) => {
        published.push(`${message.id}:${message.status}`);
        memory.writes.push(`publish:${message.status}`);
      },
    },
  ]);
  const moderation = new Moderation({ ports: memory.ports, statusChanges, clock: () => T0 });
  const hold = (id: number, deferredTo: string | null = null) => {
    const { campaign, message } = storedCampaign(id, { status: 'MODERATION', deferredTo });
    memory.campaigns.set(id, campaign);
    memory.messages.set(id, message);
  };
  return { moderation, ...memory, published, hold };
}

describe('Moderation.approve', () => {
  it('schedules the send for now, then moves the campaign out of moderation', async () => {
    // Prepare
    const { moderation, hold, writes, scheduled } = build();
    hold(1);

    // Act
    const campaign = await moderation.approve(1);

    // Assess
    expect(campaign).toMatchObject({ id: 1, status: 'READY_FOR_SEND' });
    expect(writes).toEqual(['schedule:send', 'moveCampaign:READY_FOR_SEND']);
    expect(scheduled()).toEqual(['2026-11-22T10:00 send 1']);
  });

  it('schedules a deferred campaign for its own time', async () => {
    const { moderation, hold, scheduled } = build();
    hold(1, '2026-11-23T08:15:30.000Z');

    await moderation.approve(1);

    expect(scheduled()).toEqual(['2026-11-23T08:15 send 1']);
  });

  it('refuses a campaign not held, or unknown, writing nothing', async () => {
    const { moderation, campaigns, writes } = build();
    campaigns.set(1, storedCampaign(1, { status: 'DECLINED' }).campaign);

    await expect(moderation.approve(1)).rejects.toMatchObject({ kind: 'invalid', message: 'Campaign 1 is DECLINED, not in moderation' });
    await expect(moderation.approve(2)).rejects.toMatchObject({ kind: 'notFound', message: 'Campaign not found' });
    expect(writes).toEqual([]);
  });

  it('keeps its task when the campaign was decided meanwhile, and says how', async () => {
    // Prepare: a decline lands between the approval's read and its move.
    const { moderation, hold, campaigns, ports, scheduled } = build();
    hold(1);
    const move = ports.campaigns.move;
    ports.campaigns.move = async (...args) => {
      const held = campaigns.get(1);
      if (held) held.status = 'DECLINED';
      return move(...args);
    };

    // Act / Assess
    await expect(moderation.approve(1)).rejects.toThrow('Campaign 1 is DECLINED, not in moderation');
    expect(scheduled()).toEqual(['2026-11-22T10:00 send 1']);
  });
});

describe('Moderation.decline', () => {
  it('rejects the message and publishes it before the campaign is declined', async () => {
    const { moderation, hold, writes, published, messages } = build();
    hold(1);

    const campaign = await moderation.decline(1);

    expect(campaign).toMatchObject({ id: 1, status: 'DECLINED' });
    expect(writes).toEqual(['setMessageStatus:REJECTD', 'publish:REJECTD', 'moveCampaign:DECLINED']);
    expect(published).toEqual(['1:REJECTD']);
    expect(messages.get(1)?.status).toBe('REJECTD');
  });

  it('finishes a decline stopped after the message, without publishing it twice', async () => {
    const { moderation, hold, messages, writes } = build();
    hold(1);
    const message = messages.get(1);
    if (message) message.status = 'REJECTD';

    await moderation.decline(1);

    expect(writes).toEqual(['moveCampaign:DECLINED']);
  });

  it('refuses a campaign not held, writing nothing', async () => {
    const { moderation, campaigns, writes } = build();
    campaigns.set(1, storedCampaign(1, { status: 'READY_FOR_SEND' }).campaign);

    await expect(moderation.decline(1)).rejects.toThrow('Campaign 1 is READY_FOR_SEND, not in moderation');
    expect(writes).toEqual([]);
  });
});
