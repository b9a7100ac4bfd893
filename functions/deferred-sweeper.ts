import { runtime } from '../shared/runtime';

const rt = runtime();

/** Runs on a schedule: runs the timed tasks that are due, deferred campaigns among them (see Scheduler.sweep). */
export const handler = async () => {
  const released = await rt.scheduler.sweep();
  return { released };
};
