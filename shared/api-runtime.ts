import { type ApiCore, type ApiCoreOverrides, createApiCore, installApiCore } from './api-core';
import { type Config, readConfig } from './config';
import type { SendingPorts } from './domain/message-ports';
import type { MessageSending } from './domain/message-sending';
import type { Moderation } from './domain/moderation';
import type { Scheduler } from './domain/scheduler';
import type { StatusChanges } from './domain/status-changes';
import { ulidAt } from './ids';
import { createMessaging } from './messaging-runtime';
import { smsBody, webhookBody } from './queue/bodies';
import { IdAllocator } from './store/id-allocator';
import { ScheduleRepository } from './store/schedule-repo';

/**
 * What the API operations need, built once per container from the environment: the core
 * (shared/api-core.ts) and the message services that send, moderate and schedule. Built
 * apart from shared/runtime.ts (which adds the gateways, the dispatcher, webhook delivery
 * and the click aggregator for the workers) so an API function's bundle carries none of
 * those, as shared/redirect-runtime.ts does for the redirect. The local runtime installs
 * its full runtime here too, so every handler in one process shares one set of services.
 */
export interface ApiRuntime extends ApiCore {
  sending: MessageSending;
  moderation: Moderation;
  scheduler: Scheduler;
  /** Every status change of a message: the campaign follow-up, then (full runtime) webhooks. */
  statusChanges: StatusChanges;
  schedule: ScheduleRepository;
}

export interface ApiRuntimeOverrides extends ApiCoreOverrides {
  /** Wraps the sending operations: for fault tests of the local runtime only (local/crash-point.ts). */
  sendingPorts?: (ports: SendingPorts) => SendingPorts;
}

let current: ApiRuntime | undefined;

export function apiRuntime(): ApiRuntime {
  current ??= createApiRuntime(readConfig());
  installApiCore(current);
  return current;
}

/** The local runtime's own (full) runtime serves the API handlers too. */
export function installApiRuntime(installed: ApiRuntime): void {
  current = installed;
  installApiCore(installed);
}

export function createApiRuntime(config: Config, overrides: ApiRuntimeOverrides = {}): ApiRuntime {
  const core = createApiCore(config, overrides);
  const { store, settings, queues, campaigns, messageStore, links } = core;
  const schedule = new ScheduleRepository(store, settings);
  const clock = () => core.clock();
  const ports: SendingPorts = {
    campaigns,
    messages: messageStore,
    schedule,
    sendQueue: { enqueue: (messageId) => queues.send('sms', smsBody(messageId)) },
  };
  const messaging = createMessaging({
    ports: overrides.sendingPorts ? overrides.sendingPorts(ports) : ports,
    webhookQueue: { enqueue: (eventId) => queues.send('webhooks', webhookBody(eventId)) },
    messageQueries: core.messageQueries,
    links,
    campaignIds: new IdAllocator(store, 'campaign'),
    messageIds: new IdAllocator(store, 'message'),
    uuids: () => ulidAt(clock()),
    clock,
    serviceSignature: config.serviceSignature,
    shortLinkHost: config.shortLinkBase ? new URL(config.shortLinkBase).hostname : '',
  });
  // One object: a test that moves the runtime's clock moves the core's services too.
  return Object.assign(core, {
    sending: messaging.sending,
    moderation: messaging.moderation,
    scheduler: messaging.scheduler,
    statusChanges: messaging.statusChanges,
    schedule,
  });
}
