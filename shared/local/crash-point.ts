import type { SendingPorts } from '../domain/message-ports';

/**
 * Fault injection for kill tests of the local runtime, never set in production: with
 * LOCAL_CRASH_AFTER naming a step of sending, the process kills itself (SIGKILL) the first
 * time that step has been written, so a test can stop it at an exact instant. A step is
 * the name of a sending operation (`createCampaign`, `createMessage`, `enqueue`, …), with
 * the task kind for `schedule` (`schedule:recover`, `schedule:send`) and the new status
 * for `moveCampaign` (`moveCampaign:RUNNING`, `moveCampaign:READY_FOR_SEND`).
 */
export function crashingAfter(ports: SendingPorts, step: string, crash: () => void): SendingPorts {
  return {
    campaigns: crashing(ports.campaigns, step, crash, (name, args) =>
      name === 'move' ? `moveCampaign:${String(args[2])}` : (CAMPAIGN_STEPS[name] ?? name),
    ),
    messages: crashing(ports.messages, step, crash, (name) => MESSAGE_STEPS[name] ?? name),
    schedule: crashing(ports.schedule, step, crash, (name, args) => (name === 'schedule' ? `schedule:${(args[1] as { kind: string }).kind}` : name)),
    sendQueue: crashing(ports.sendQueue, step, crash, (name) => name),
  };
}

/** The steps' names for operations whose port names them differently. */
const CAMPAIGN_STEPS: Record<string, string> = {
  create: 'createCampaign',
  get: 'getCampaign',
  getMany: 'getCampaigns',
  noteSent: 'noteCampaignSent',
};
const MESSAGE_STEPS: Record<string, string> = {
  create: 'createMessage',
  get: 'getMessage',
  applyStatus: 'setMessageStatus',
  listByAccount: 'listMessages',
};

/** The port with each operation followed by `crash` when it is `step`. */
function crashing<T extends object>(port: T, step: string, crash: () => void, stepOf: (name: string, args: unknown[]) => string): T {
  return new Proxy(port, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function' || typeof name !== 'string') return value;
      return async (...args: unknown[]) => {
        const result = await value.apply(target, args);
        if (stepOf(name, args) === step) crash();
        return result;
      };
    },
  });
}
