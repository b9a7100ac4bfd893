import type { MessageRecords } from './message-ports';
import type { TaskOf, TaskOutcome } from './scheduler';
import type { StatusPublisher } from './status-changes';

/** The scheduler's `expire` task: a message still undelivered when its validity runs out expires (SPEC §6). */
export class MessageExpiry {
  constructor(
    private readonly deps: {
      messages: Pick<MessageRecords, 'applyStatus'>;
      statusChanges: StatusPublisher;
    },
  ) {}

  async expire(task: TaskOf<'expire'>): Promise<TaskOutcome> {
    // Only a message still waiting for its report expires; a final one keeps its status.
    const expired = await this.deps.messages.applyStatus(task.messageId, 'EXPIRED', new Date(task.at));
    if (expired) await this.deps.statusChanges.publish(expired);
    return 'done';
  }
}
