import { readConfig, type Config } from './config';
import { installRedirectDeps } from './redirect-runtime';
import { AccountService } from './domain/account-service';
import { ClickAggregator } from './domain/click-aggregator';
import { LinkCache } from './domain/link-cache';
import { LinkCodec } from './domain/link-code';
import { LinkService } from './domain/link-service';
import { RateLimiter } from './domain/rate-limit';
import { MessageService, type SendingPorts } from './domain/message-service';
import { SmsDispatcher } from './domain/sms-dispatcher';
import { StatsService } from './domain/stats-service';
import type { SmsGateway } from './sms/gateway';
import { AwsSmsGateway } from './sms/aws';
import { KannelGateway } from './sms/kannel';
import { WebhookService } from './domain/webhooks';
import type { WebhookTargetPolicy } from './domain/webhook-targets';
import { webhookSender } from './webhooks/http-sender';
import { WebhooksRepository } from './store/webhooks-repo';
import { SimulatorGateway } from './sms/simulator';
import { CampaignsRepository } from './store/campaigns-repo';
import { MessagesRepository } from './store/messages-repo';
import { systemClock, utcMinuteOf, type Clock } from './domain/time';
import { noQueues, SqsQueues, type Queues } from './queue/queues';
import { AccountsRepository, ApiKeysRepository } from './store/accounts-repo';
import { ClicksRepository } from './store/clicks-repo';
import { createStore, type Store } from './store/client';
import { IdAllocator } from './store/id-allocator';
import { LinksRepository } from './store/links-repo';
import { SettingsRepository } from './store/settings-repo';

/**
 * Everything a handler needs, built once per container (cold start) from the
 * environment: one DynamoDB client, the repositories and the services over them.
 */
export interface Runtime {
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
  clicks: ClickAggregator;
  settings: SettingsRepository;
  messages: MessageService;
  messageStore: MessagesRepository;
  campaigns: CampaignsRepository;
  dispatcher: SmsDispatcher;
  gateway: SmsGateway;
  webhooks: WebhookService;
  /** Stops background work the runtime itself started (simulated reports). */
  close(): void;
}

let current: Runtime | undefined;

export function runtime(): Runtime {
  current ??= createRuntime(readConfig());
  return current;
}

/** The local runtime builds its own (in-process queues) before any handler loads. */
export function installRuntime(installed: Runtime): void {
  current = installed;
  // The redirect shares this runtime's link cache (changes show at once) and its clock.
  installRedirectDeps({ links: installed.links, queues: installed.queues, clock: () => installed.clock() });
}

/** The storage and queue operations sending needs, over the table and the sms queue. */
export function createSendingPorts(store: Store, queues: Queues): SendingPorts {
  const messages = new MessagesRepository(store);
  const campaigns = new CampaignsRepository(store);
  const settings = new SettingsRepository(store);
  return {
    createMessage: (message) => messages.create(message),
    createCampaign: (campaign) => campaigns.create(campaign),
    getCampaign: (id) => campaigns.get(id),
    moveCampaign: (id, from, status, sentAt) => campaigns.move(id, from, status, sentAt),
    noteCampaignSent: (id, sentAt) => campaigns.noteSent(id, sentAt),
    schedule: (minute, task) => campaigns.schedule(minute, task),
    dueIn: (minute) => campaigns.dueIn(minute),
    unschedule: (minute, task) => campaigns.unschedule(minute, task),
    sweptUntil: () => settings.get('schedule-swept-until'),
    setSweptUntil: (minute) => settings.put('schedule-swept-until', minute),
    enqueue: (messageId) => queues.send('sms', JSON.stringify({ messageId })),
    getMessage: (id) => messages.get(id),
    enqueueWebhook: (eventId) => queues.send('webhooks', JSON.stringify({ eventId })),
    markAmbiguous: (id, reason, at) => messages.markAmbiguous(id, reason, at),
    listMessages: (accountId) => messages.listByAccount(accountId),
    setMessageStatus: (id, status, at) => messages.applyStatus(id, status, at),
    getCampaigns: (ids) => campaigns.getMany(ids),
  };
}

export interface RuntimeOverrides {
  queues?: Queues;
  /** Wraps the sending operations: for fault tests of the local runtime only (local/crash-point.ts). */
  sendingPorts?: (ports: SendingPorts) => SendingPorts;
}

export function createRuntime(config: Config, overrides: RuntimeOverrides = {}): Runtime {
  const store = createStore(config);
  const settings = new SettingsRepository(store);
  const linksRepository = new LinksRepository(store);
  const accountsRepository = new AccountsRepository(store);
  const clicksRepository = new ClicksRepository(store);
  const messageStore = new MessagesRepository(store);
  // Services read the runtime's clock on every call, so tests can move time.
  const clock: Clock = () => self.clock();
  let codec: Promise<LinkCodec> | undefined;
  /** Read-only callers look the secret up until it exists, then keep it like everyone else. */
  const readCodec = async (): Promise<LinkCodec | undefined> => {
    if (codec) return codec;
    const secret = await settings.existingLinkCodeSecret();
    if (secret === undefined) return undefined;
    codec ??= Promise.resolve(new LinkCodec(secret));
    return codec;
  };
  const queues =
    overrides.queues ??
    (config.clickQueueUrl || config.smsQueueUrl || config.webhookQueueUrl
      ? new SqsQueues({ clicks: config.clickQueueUrl, sms: config.smsQueueUrl, webhooks: config.webhookQueueUrl }, config.region)
      : noQueues);
  const accounts = new AccountService({
    accounts: accountsRepository,
    apiKeys: new ApiKeysRepository(store),
    ids: new IdAllocator(store, 'account', { maxBlock: 1 }),
    clock,
    authCacheTtlMs: config.authCacheTtlMs,
  });
  const links = new LinkService({
    links: linksRepository,
    ids: new IdAllocator(store, 'link'),
    codec: (purpose) => {
      if (purpose === 'read') return readCodec();
      codec ??= settings.linkCodeSecret().then((secret) => new LinkCodec(secret));
      // A failed read must not stick: the next call tries again.
      codec.catch(() => (codec = undefined));
      return codec;
    },
    cache: new LinkCache(config.linkCacheTtlMs),
    shortLinkBase: config.shortLinkBase,
    clock,
  });
  const messages = new MessageService({
    ports: overrides.sendingPorts ? overrides.sendingPorts(createSendingPorts(store, queues)) : createSendingPorts(store, queues),
    links,
    campaignIds: new IdAllocator(store, 'campaign'),
    messageIds: new IdAllocator(store, 'message'),
    clock,
    serviceSignature: config.serviceSignature,
    shortLinkHost: config.shortLinkBase ? new URL(config.shortLinkBase).hostname : '',
    statusListener: (message) => webhooks.onMessageStatus(message),
  });
  // The simulator reports through the dispatcher: the path real gateways' reports take.
  const gateway: SmsGateway & { close?(): void } = config.kannel
    ? new KannelGateway(config.kannel)
    : config.aws
      ? new AwsSmsGateway(config.aws)
      : new SimulatorGateway({
    report: (report) => dispatcher.report(report),
    latencyMs: config.simulatorLatencyMs,
    submitDelayMs: config.simulatorSubmitDelayMs,
    clock,
  });
  const schedule = new CampaignsRepository(store);
  const targets: WebhookTargetPolicy = {
    allowPrivate: config.webhookAllowPrivateTargets,
    ownBases: [config.shortLinkBase, config.kannel?.reportBaseUrl].filter((base) => base !== undefined),
  };
  const webhooks = new WebhookService({
    ports: {
      store: new WebhooksRepository(store),
      scheduleTry: (eventId, at) => schedule.schedule(utcMinuteOf(at), { kind: 'webhook', eventId, at: at.toISOString() }),
      unscheduleTry: (eventId, at) => schedule.unschedule(utcMinuteOf(at), { kind: 'webhook', eventId, at: at.toISOString() }),
      enqueue: (eventId) => queues.send('webhooks', JSON.stringify({ eventId })),
      zoneOf: async (accountId) => (await accounts.zonesOf([accountId])).get(accountId) ?? 'UTC',
      post: webhookSender(targets),
    },
    targets,
    clock,
  });
  const dispatcher: SmsDispatcher = new SmsDispatcher({
    messages: messageStore,
    gateway,
    clock,
    onStatus: (message) => messages.onMessageStatus(message),
  });
  const self: Runtime = {
    config,
    store,
    clock: systemClock,
    settings,
    queues,
    accounts,
    rateLimits: new RateLimiter({ clock, defaultPerSecond: config.apiRateLimit }),
    links,
    stats: new StatsService({ links: linksRepository, buckets: clicksRepository, clock }),
    clicks: new ClickAggregator({ clicks: clicksRepository, zonesOf: (ids) => accounts.zonesOf(ids), clock }),
    messages,
    messageStore,
    campaigns: new CampaignsRepository(store),
    dispatcher,
    gateway,
    webhooks,
    close: () => gateway.close?.(),
  };
  return self;
}
