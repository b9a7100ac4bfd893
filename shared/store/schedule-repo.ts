import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ScheduledTask } from '../domain/campaigns';
import type { ScheduleStore } from '../domain/scheduler';
import type { Store } from './client';
import { keys } from './keys';
import { queryAll } from './query';
import type { SettingsRepository } from './settings-repo';

/** The setting that holds the last minute the scheduler swept. */
const SWEPT_UNTIL = 'schedule-swept-until';

/** Timed tasks, one partition per minute they are due in (keys.scheduled), read by the Scheduler. */
export class ScheduleRepository implements ScheduleStore {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsRepository,
  ) {}

  /** Records a timed task under the minute it is due in. */
  async schedule(minute: string, task: ScheduledTask): Promise<void> {
    await this.store.db.send(
      new PutCommand({ TableName: this.store.tableName, Item: { ...scheduledKey(minute, task), entity: 'Scheduled', ...task } }),
    );
  }

  /** Tasks due in one minute: one Query of that minute's partition, never a scan. */
  async dueIn(minute: string): Promise<ScheduledTask[]> {
    const items = await queryAll(this.store, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.scheduledAt(minute) } });
    return items.map(
      (item): ScheduledTask =>
        item.kind === 'webhook'
          ? { kind: 'webhook', eventId: String(item.eventId), at: String(item.at) }
          : item.kind === 'expire' || item.kind === 'recover'
            ? { kind: item.kind, messageId: Number(item.messageId), at: String(item.at) }
            : { kind: 'send', campaignId: Number(item.campaignId), messageId: Number(item.messageId) },
    );
  }

  async unschedule(minute: string, task: ScheduledTask): Promise<void> {
    await this.store.db.send(new DeleteCommand({ TableName: this.store.tableName, Key: scheduledKey(minute, task) }));
  }

  sweptUntil(): Promise<string | undefined> {
    return this.settings.get(SWEPT_UNTIL);
  }

  setSweptUntil(minute: string): Promise<void> {
    return this.settings.put(SWEPT_UNTIL, minute);
  }
}

function scheduledKey(minute: string, task: ScheduledTask) {
  if (task.kind === 'send') return keys.scheduled(minute, 'SEND', task.campaignId);
  if (task.kind === 'webhook') return keys.scheduledWebhookTry(minute, task.eventId);
  return keys.scheduled(minute, task.kind === 'expire' ? 'EXPIRE' : 'RECOVER', task.messageId);
}
