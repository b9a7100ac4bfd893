import type { ScheduledTask } from '../../shared/domain/campaigns';
import { Scheduler, type TaskHandlers, type TaskOutcome } from '../../shared/domain/scheduler';
import { memoryPorts } from '../support/memory-messaging';

const NOW = new Date('2026-11-22T10:00:30Z');

/** A scheduler over the in-memory schedule, its handlers noting each task they are given. */
function build(outcome: (task: ScheduledTask) => TaskOutcome = () => 'done', handlers?: TaskHandlers) {
  const memory = memoryPorts();
  let now = NOW;
  const handled: string[] = [];
  const note = async (task: ScheduledTask) => {
    const id = task.kind === 'send' ? task.campaignId : task.kind === 'webhook' ? task.eventId : task.messageId;
    handled.push(`${task.kind} ${id}`);
    memory.writes.push(`handle:${task.kind}`);
    return outcome(task);
  };
  const scheduler = new Scheduler({
    schedule: memory.ports.schedule,
    clock: () => now,
    handlers: handlers ?? { send: note, recover: note, expire: note, webhook: note },
  });
  return { scheduler, ...memory, handled, setNow: (at: Date) => (now = at) };
}

const send = (campaignId: number): ScheduledTask => ({ kind: 'send', campaignId, messageId: campaignId });
const recover = (messageId: number, at: string): ScheduledTask => ({ kind: 'recover', messageId, at });

describe('Scheduler.sweep', () => {
  it('gives each task to the handler of its kind and removes it after', async () => {
    // Prepare
    const { scheduler, ports, handled, writes, scheduled } = build();
    await ports.schedule.schedule('2026-11-22T09:58', send(1));
    await ports.schedule.schedule('2026-11-22T09:59', recover(2, '2026-11-22T09:59:10.000Z'));
    await ports.schedule.schedule('2026-11-22T09:59', { kind: 'expire', messageId: 3, at: '2026-11-22T09:59:20.000Z' });
    await ports.schedule.schedule('2026-11-22T10:00', { kind: 'webhook', eventId: 'E4', at: '2026-11-22T10:00:00.000Z' });
    writes.length = 0;

    // Act
    await scheduler.sweep();

    // Assess: each handler's work comes before its task's removal; the swept minute last.
    expect(handled).toEqual(['send 1', 'recover 2', 'expire 3', 'webhook E4']);
    expect(writes).toEqual([
      'handle:send',
      'unschedule:send',
      'handle:recover',
      'unschedule:recover',
      'handle:expire',
      'unschedule:expire',
      'handle:webhook',
      'unschedule:webhook',
      'setSweptUntil:2026-11-22T09:59',
    ]);
    expect(scheduled()).toEqual([]);
  });

  it('leaves a task due later this minute, and runs it once its time has come', async () => {
    const { scheduler, ports, handled, scheduled, setNow } = build();
    await ports.schedule.schedule('2026-11-22T10:00', recover(1, '2026-11-22T10:00:40.000Z'));
    await ports.schedule.schedule('2026-11-22T10:00', recover(2, '2026-11-22T10:00:30.000Z'));

    await scheduler.sweep();
    expect(handled).toEqual(['recover 2']);
    expect(scheduled()).toEqual(['2026-11-22T10:00 recover 1']);

    setNow(new Date('2026-11-22T10:00:45Z'));
    await scheduler.sweep();
    expect(handled).toEqual(['recover 2', 'recover 1']);
    expect(scheduled()).toEqual([]);
  });

  it('keeps a task whose handler says later, and counts the campaigns released', async () => {
    const { scheduler, ports, scheduled } = build((task) => (task.kind === 'send' && task.campaignId === 1 ? 'later' : 'released'));
    await ports.schedule.schedule('2026-11-22T10:00', send(1));
    await ports.schedule.schedule('2026-11-22T10:00', send(2));
    await ports.schedule.schedule('2026-11-22T10:00', send(3));

    expect(await scheduler.sweep()).toBe(2);
    expect(scheduled()).toEqual(['2026-11-22T10:00 send 1']);
  });

  it('leaves a task of a kind without a handler in place and goes on with the rest', async () => {
    const handled: string[] = [];
    const { scheduler, ports, scheduled, state } = build(undefined, {
      send: async (task) => {
        handled.push(`send ${task.campaignId}`);
        return 'done';
      },
    });
    await ports.schedule.schedule('2026-11-22T09:59', { kind: 'webhook', eventId: 'E1', at: '2026-11-22T09:59:00.000Z' });
    await ports.schedule.schedule('2026-11-22T09:59', send(2));

    await scheduler.sweep();

    expect(handled).toEqual(['send 2']);
    expect(scheduled()).toEqual(['2026-11-22T09:59 webhook E1']);
    expect(state.sweptUntil).toBe('2026-11-22T09:59');
  });

  it('catches up from the minute after the last sweep, and sweeps the current minute again next time', async () => {
    const { scheduler, ports, handled, state } = build();
    state.sweptUntil = '2026-11-22T09:40';
    await ports.schedule.schedule('2026-11-22T09:40', send(1)); // swept already
    await ports.schedule.schedule('2026-11-22T09:41', send(2));
    await ports.schedule.schedule('2026-11-22T10:00', send(3));

    await scheduler.sweep();

    expect(handled).toEqual(['send 2', 'send 3']);
    expect(state.sweptUntil).toBe('2026-11-22T09:59');
  });

  it('reaches back at most a day after downtime, and an hour on a table never swept', async () => {
    // Prepare
    const longDown = build();
    longDown.state.sweptUntil = '2026-11-20T10:00';
    await longDown.ports.schedule.schedule('2026-11-21T09:59', send(1)); // more than a day ago
    await longDown.ports.schedule.schedule('2026-11-21T10:00', send(2));
    const fresh = build();
    await fresh.ports.schedule.schedule('2026-11-22T08:59', send(3));
    await fresh.ports.schedule.schedule('2026-11-22T09:00', send(4));

    // Act
    await longDown.scheduler.sweep();
    await fresh.scheduler.sweep();

    // Assess
    expect(longDown.handled).toEqual(['send 2']);
    expect(longDown.scheduled()).toEqual(['2026-11-21T09:59 send 1']);
    expect(fresh.handled).toEqual(['send 4']);
    expect(fresh.state.sweptUntil).toBe('2026-11-22T09:59');
  });
});
