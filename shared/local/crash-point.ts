import type { SendingPorts } from '../domain/message-service';

/**
 * Fault injection for kill tests of the local runtime, never set in production: with
 * LOCAL_CRASH_AFTER naming a step of sending, the process kills itself (SIGKILL) the first
 * time that step has been written, so a test can stop it at an exact instant. A step is
 * the name of a sending operation (`createCampaign`, `createMessage`, `enqueue`, …), with
 * the task kind for `schedule` (`schedule:recover`, `schedule:send`) and the new status
 * for `moveCampaign` (`moveCampaign:RUNNING`, `moveCampaign:READY_FOR_SEND`).
 */
export function crashingAfter(ports: SendingPorts, step: string, crash: () => void): SendingPorts {
  const wrapped: Record<string, unknown> = {};
  for (const [name, operation] of Object.entries(ports) as [string, (...args: unknown[]) => Promise<unknown>][]) {
    wrapped[name] = async (...args: unknown[]) => {
      const result = await operation(...args);
      if (stepOf(name, args) === step) crash();
      return result;
    };
  }
  return wrapped as unknown as SendingPorts;
}

function stepOf(name: string, args: unknown[]): string {
  if (name === 'schedule') return `schedule:${(args[1] as { kind: string }).kind}`;
  if (name === 'moveCampaign') return `moveCampaign:${String(args[2])}`;
  return name;
}
