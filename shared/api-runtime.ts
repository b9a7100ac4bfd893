import { type Config, readConfig } from './config';
import { AccountService } from './domain/account-service';
import { LinkCache } from './domain/link-cache';
import { LinkService } from './domain/link-service';
import type { SendingPorts } from './domain/message-ports';
import type { MessageQueries } from './domain/message-queries';
import type { MessageSending } from './domain/message-sending';
import type { Moderation } from './domain/moderation';
import { RateLimiter } from './domain/rate-limit';
import type { Scheduler } from './domain/scheduler';
import { StatsService } from './domain/stats-service';
import type { StatusChanges } from './domain/status-changes';
import type { Clock } from './domain/time';
import { cryptoRandomInt, systemClock, ulidAt } from './ids';
import { linkCodecSource } from './link-codec-source';
import { createMessaging } from './messaging-runtime';
import { smsBody, webhookBody } from './queue/bodies';
import { noQueues, type Queues, SqsQueues } from './queue/queues';
import { AccountsRepository, ApiKeysRepository } from './store/accounts-repo';
import { CampaignsRepository } from './store/campaigns-repo';
import { ClicksRepository } from './store/clicks-repo';
import { createStore, type Store } from './store/client';
import { CountedWrites } from './store/counted-writes';
import { IdAllocator } from './store/id-allocator';
import { LinksRepository } from './store/links-repo';
import { MessageChanges } from './store/message-changes';
import { IndexedMessageLists } from './store/message-lists';
import { MessagesRepository } from './store/messages-repo';
import { ScheduleRepository } from './store/schedule-repo';
import { SettingsRepository } from './store/settings-repo';

/**
 * What the API operations need, built once per container from the environment: one
 * DynamoDB client, the repositories and the services the ten operations call. Built apart
 * from shared/runtime.ts (which adds the gateways, the dispatcher, webhook delivery and
 * the click aggregator for the workers) so an API function's bundle carries none of those,
 * as shared/redirect-runtime.ts does for the redirect. The local runtime installs its full
 * runtime here too, so every handler in one process shares one set of services.
 */
export interface ApiRuntime {
  config: Config;
  store: Store;
  /** Replaceable so tests can move time; services read it on every call. */
  clock: Clock;
  queues: Queues;
  accounts: AccountService;
  /** Per-account request rates of the API, kept per process (per Lambda container). */
  rateLimits: RateLimiter;
  links: LinkService;
  stats: StatsService;
  settings: SettingsRepository;
  sending: MessageSending;
  messageQueries: MessageQueries;
  moderation: Moderation;
  scheduler: Scheduler;
  /** Every status change of a message: the campaign follow-up, then (full runtime) webhooks. */
  statusChanges: StatusChanges;
  messageStore: MessagesRepository;
  campaigns: CampaignsRepository;
  schedule: ScheduleRepository;
  /** Exact counters of lists (shared/store/counted-writes.ts); the scheduled sweep finishes crashed changes. */
  counted: CountedWrites;
}

export interface ApiRuntimeOverrides {
  queues?: Queues;
  /** Wraps the sending operations: for fault tests of the local runtime only (local/crash-point.ts). */
  sendingPorts?: (ports: SendingPorts) => SendingPorts;
}

let current: ApiRuntime | undefined;

export function apiRuntime(): ApiRuntime {
  current ??= createApiRuntime(readConfig());
  return current;
}

/** The local runtime's own (full) runtime serves the API handlers too. */
export function installApiRuntime(installed: ApiRuntime): void {
  current = installed;
}

export function createApiRuntime(config: Config, overrides: ApiRuntimeOverrides = {}): ApiRuntime {
  const store = createStore(config);
  const settings = new SettingsRepository(store);
  const schedule = new ScheduleRepository(store, settings);
  // Services read the runtime's clock on every call, so tests can move time.
  const clock: Clock = () => self.clock();
  // Counted changes time their steps by the real clock: it is about live processes, not business time.
  const counted = new CountedWrites(store, () => ulidAt(systemClock()));
  const linksRepository = new LinksRepository(store, counted);
  const messageChanges = new MessageChanges(store, counted);
  const messageStore = new MessagesRepository(store, messageChanges);
  const campaigns = new CampaignsRepository(store, messageChanges);
  const queues =
    overrides.queues ??
    (config.clickQueueUrl || config.smsQueueUrl || config.webhookQueueUrl
      ? new SqsQueues({ clicks: config.clickQueueUrl, sms: config.smsQueueUrl, webhooks: config.webhookQueueUrl }, config.region)
      : noQueues);
  const accounts = new AccountService({
    accounts: new AccountsRepository(store),
    apiKeys: new ApiKeysRepository(store),
    ids: new IdAllocator(store, 'account', { maxBlock: 1 }),
    keyIds: ulidAt,
    random: cryptoRandomInt,
    clock,
    authCacheTtlMs: config.authCacheTtlMs,
  });
  const links = new LinkService({
    links: linksRepository,
    ids: new IdAllocator(store, 'link'),
    codec: linkCodecSource(settings),
    cache: new LinkCache(config.linkCacheTtlMs),
    now: Date.now,
    shortLinkBase: config.shortLinkBase,
    clock,
  });
  const ports: SendingPorts = {
    campaigns,
    messages: messageStore,
    schedule,
    sendQueue: { enqueue: (messageId) => queues.send('sms', smsBody(messageId)) },
  };
  const messaging = createMessaging({
    ports: overrides.sendingPorts ? overrides.sendingPorts(ports) : ports,
    webhookQueue: { enqueue: (eventId) => queues.send('webhooks', webhookBody(eventId)) },
    messageLists: new IndexedMessageLists(store, counted),
    links,
    campaignIds: new IdAllocator(store, 'campaign'),
    messageIds: new IdAllocator(store, 'message'),
    uuids: () => ulidAt(clock()),
    clock,
    serviceSignature: config.serviceSignature,
    shortLinkHost: config.shortLinkBase ? new URL(config.shortLinkBase).hostname : '',
  });
  const { sending, messageQueries } = messaging;
  const self: ApiRuntime = {
    config,
    store,
    clock: systemClock,
    settings,
    queues,
    accounts,
    rateLimits: new RateLimiter({ clock, defaultPerSecond: config.apiRateLimit }),
    links,
    stats: new StatsService({ links: linksRepository, buckets: new ClicksRepository(store), clock }),
    sending,
    messageQueries,
    moderation: messaging.moderation,
    scheduler: messaging.scheduler,
    statusChanges: messaging.statusChanges,
    messageStore,
    campaigns,
    schedule,
    counted,
  };
  return self;
}
