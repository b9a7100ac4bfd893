import { readConfig, type Config } from './config';
import { AccountService } from './domain/account-service';
import { ClickAggregator } from './domain/click-aggregator';
import { LinkCache } from './domain/link-cache';
import { LinkCodec } from './domain/link-code';
import { LinkService } from './domain/link-service';
import { StatsService } from './domain/stats-service';
import { systemClock, type Clock } from './domain/time';
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
  links: LinkService;
  stats: StatsService;
  clicks: ClickAggregator;
  settings: SettingsRepository;
}

let current: Runtime | undefined;

export function runtime(): Runtime {
  current ??= createRuntime(readConfig());
  return current;
}

/** The local runtime builds its own (in-process queues) before any handler loads. */
export function installRuntime(installed: Runtime): void {
  current = installed;
}

export function createRuntime(config: Config, overrides: { queues?: Queues } = {}): Runtime {
  const store = createStore(config);
  const settings = new SettingsRepository(store);
  const linksRepository = new LinksRepository(store);
  const accountsRepository = new AccountsRepository(store);
  const clicksRepository = new ClicksRepository(store);
  let codec: Promise<LinkCodec> | undefined;
  /** Read-only callers look the secret up until it exists, then keep it like everyone else. */
  const readCodec = async (): Promise<LinkCodec | undefined> => {
    if (codec) return codec;
    const secret = await settings.existingLinkCodeSecret();
    if (secret === undefined) return undefined;
    codec ??= Promise.resolve(new LinkCodec(secret));
    return codec;
  };
  const accounts = new AccountService({
    accounts: accountsRepository,
    apiKeys: new ApiKeysRepository(store),
    ids: new IdAllocator(store, 'account', { maxBlock: 1 }),
    clock: () => self.clock(),
    authCacheTtlMs: config.authCacheTtlMs,
  });
  const self: Runtime = {
    config,
    store,
    clock: systemClock,
    settings,
    queues: overrides.queues ?? (config.clickQueueUrl ? new SqsQueues({ clicks: config.clickQueueUrl }, config.region) : noQueues),
    accounts,
    links: new LinkService({
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
      clock: () => self.clock(),
    }),
    stats: new StatsService({ links: linksRepository, buckets: clicksRepository, clock: () => self.clock() }),
    clicks: new ClickAggregator({
      clicks: clicksRepository,
      zonesOf: (ids) => accounts.zonesOf(ids),
      clock: () => self.clock(),
    }),
  };
  return self;
}
