import type { Campaign, ScheduledTask } from './campaigns';
import { AppError, ConflictError } from './errors';
import type { SendingPorts } from './message-ports';
import type { StatusPublisher } from './status-changes';
import { type Clock, utcMinuteOf } from './time';

/** An administrator's decision on a campaign held for moderation (the admin CLI). */
export class Moderation {
  constructor(
    private readonly deps: {
      ports: Pick<SendingPorts, 'campaigns' | 'messages' | 'schedule'>;
      statusChanges: StatusPublisher;
      clock: Clock;
    },
  ) {}

  /**
   * Approves a held campaign. It is scheduled, for its deferred time or for now, and the
   * sweeper sends it: approval works from any process, the admin CLI included, without
   * reaching the send queue itself. The task is written before the campaign leaves
   * moderation, so an approval stopped between the two leaves it held (approve it again),
   * never approved with nothing to send it.
   */
  async approve(campaignId: number): Promise<Campaign> {
    const { campaigns, schedule } = this.deps.ports;
    const held = await this.#held(campaignId);
    await schedule.schedule(utcMinuteOf(held.deferredTo ? new Date(held.deferredTo) : this.deps.clock()), sendTask(held));
    const campaign = await campaigns.move(campaignId, ['MODERATION'], 'READY_FOR_SEND');
    // Decided meanwhile (declined, or approved by another call): the task stays, and the
    // sweeper releases the campaign once if it is READY_FOR_SEND, or removes the task.
    if (!campaign) throw notHeld((await campaigns.get(campaignId)) ?? held);
    return campaign;
  }

  /**
   * Declines a held campaign: its message REJECTD, then the campaign DECLINED. The message
   * first: a decline stopped between the two leaves a final message and a campaign still
   * held (decline it again), never a message left NEW.
   */
  async decline(campaignId: number): Promise<Campaign> {
    const { campaigns, messages } = this.deps.ports;
    const held = await this.#held(campaignId);
    const rejected = await messages.applyStatus(held.messageId, 'REJECTD', this.deps.clock());
    if (rejected) await this.deps.statusChanges.publish(rejected);
    const campaign = await campaigns.move(campaignId, ['MODERATION'], 'DECLINED');
    if (!campaign) throw notHeld((await campaigns.get(campaignId)) ?? held);
    return campaign;
  }

  async #held(campaignId: number): Promise<Campaign> {
    const held = await this.deps.ports.campaigns.get(campaignId);
    if (!held) throw notFoundCampaign();
    if (held.status !== 'MODERATION') throw notHeld(held);
    return held;
  }
}

export function notFoundCampaign(): AppError {
  return new AppError('notFound', 'Campaign not found');
}

function notHeld(campaign: Campaign): AppError {
  return new ConflictError(`Campaign ${campaign.id} is ${campaign.status}, not in moderation`);
}

function sendTask(campaign: Campaign): ScheduledTask {
  return { kind: 'send', campaignId: campaign.id, messageId: campaign.messageId };
}
