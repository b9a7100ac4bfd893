import { runtime } from '../shared/runtime';

const rt = runtime();

/** Runs on a schedule: releases deferred campaigns that are due (see MessageService.releaseDue). */
export const handler = async () => {
  const released = await rt.messages.releaseDue();
  return { released };
};
