import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { type Config, readConfig } from './config';
import { AccountService } from './domain/account-service';
import { LinkCache } from './domain/link-cache';
import { LinkService } from './domain/link-service';
import { MessageQueries } from './domain/message-queries';
import { RateLimiter } from './domain/rate-limit';
import type { Clock } from './domain/time';
import { cryptoRandomInt, systemClock, ulidAt } from './ids';
import { linkCodecSource } from './link-codec-source';
import { noQueues, type Queues, SqsQueues } from './queue/queues';
import { AccountsRepository, ApiKeysRepository } from './store/accounts-repo';
import { CampaignsRepository } from './store/campaigns-repo';
import { createStore, type Store } from './store/client';
import { CountedWrites } from './store/counted-writes';
import { IdAllocator } from './store/id-allocator';
import type { ListReaders } from './store/indexed-lists';
import { LinksRepository } from './store/links-repo';
import { MessageChanges } from './store/message-changes';
import { MessagesRepository } from './store/messages-repo';
import { SettingsRepository } from './store/settings-repo';

/**
 * What the API operations that send nothing need: accounts, links and the reads of
 * messages, built once per container (Link/GetStats adds its statistics service in its
 * own function, so that no other bundle carries it). The operations that send or moderate
 * (shared/api-runtime.ts) add the message services on top of the same object. Kept apart
 * so that the functions of those operations alone carry the sending code and its phone
 * number metadata (about 190 KB of a bundle).
 */
export interface ApiCore {
  config: Config;
  store: Store;
  /** Replaceable so tests can move time; services read it on every call. */
  clock: Clock;
  queues: Queues;
  accounts: AccountService;
  /** Per-account request rates of the API, kept per process (per Lambda container). */
  rateLimits: RateLimiter;
  links: LinkService;
  linksRepository: LinksRepository;
  settings: SettingsRepository;
  messageChanges: MessageChanges;
  messageStore: MessagesRepository;
  campaigns: CampaignsRepository;
  messageQueries: MessageQueries;
  /** Exact counters of lists (shared/store/counted-writes.ts); the scheduled sweep finishes crashed changes. */
  counted: CountedWrites;
}

export interface ApiCoreOverrides {
  queues?: Queues;
  /** Link/List's and Message/List's readers (shared/store/indexed-lists.ts): only where they are answered. */
  lists?: ListReaders;
  /** Settings of the store's SDK client beyond the config's (the local runtime's for dynalite). */
  storeClient?: Partial<DynamoDBClientConfig>;
}

let current: ApiCore | undefined;

/** The container's core; `overrides` count only on the first call (a function's entry makes it). */
export function apiCore(overrides: ApiCoreOverrides = {}): ApiCore {
  current ??= createApiCore(readConfig(), overrides);
  return current;
}

/** The local runtime's own (full) runtime serves every handler. */
export function installApiCore(installed: ApiCore): void {
  current = installed;
}

export function createApiCore(config: Config, overrides: ApiCoreOverrides = {}): ApiCore {
  const store = createStore(config, overrides.storeClient);
  const settings = new SettingsRepository(store);
  // Services read the runtime's clock on every call, so tests can move time.
  const clock: Clock = () => self.clock();
  // Counted changes time their steps by the real clock: it is about live processes, not business time.
  const counted = new CountedWrites(store, () => ulidAt(systemClock()));
  const linksRepository = new LinksRepository(store, counted, overrides.lists?.links);
  const messageChanges = new MessageChanges(store, counted);
  const campaigns = new CampaignsRepository(store, messageChanges);
  const queues =
    overrides.queues ??
    (config.clickQueueUrl || config.smsQueueUrl || config.webhookQueueUrl
      ? new SqsQueues({ clicks: config.clickQueueUrl, sms: config.smsQueueUrl, webhooks: config.webhookQueueUrl }, config.region)
      : noQueues);
  const links = new LinkService({
    links: linksRepository,
    ids: new IdAllocator(store, 'link'),
    codec: linkCodecSource(settings),
    cache: new LinkCache(config.linkCacheTtlMs),
    now: Date.now,
    shortLinkBase: config.shortLinkBase,
    clock,
  });
  const self: ApiCore = {
    config,
    store,
    clock: systemClock,
    settings,
    queues,
    accounts: new AccountService({
      accounts: new AccountsRepository(store),
      apiKeys: new ApiKeysRepository(store),
      ids: new IdAllocator(store, 'account', { maxBlock: 1 }),
      keyIds: ulidAt,
      random: cryptoRandomInt,
      clock,
      authCacheTtlMs: config.authCacheTtlMs,
    }),
    rateLimits: new RateLimiter({ clock, defaultPerSecond: config.apiRateLimit }),
    links,
    linksRepository,
    messageChanges,
    messageStore: new MessagesRepository(store, messageChanges),
    campaigns,
    messageQueries: new MessageQueries({ lists: overrides.lists?.messages?.(store, counted) ?? notListed, campaigns, links }),
    counted,
  };
  return self;
}

const notListed = {
  list(): never {
    throw new Error('Message/List is not answered by this function');
  },
};
