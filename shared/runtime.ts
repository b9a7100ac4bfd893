import { readConfig, type Config } from './config';
import { AccountService } from './domain/account-service';
import { LinkCodec } from './domain/link-code';
import { LinkService } from './domain/link-service';
import { systemClock, type Clock } from './domain/time';
import { AccountsRepository, ApiKeysRepository } from './store/accounts-repo';
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
  accounts: AccountService;
  links: LinkService;
  settings: SettingsRepository;
}

let current: Runtime | undefined;

export function runtime(): Runtime {
  current ??= createRuntime(readConfig());
  return current;
}

export function createRuntime(config: Config): Runtime {
  const store = createStore(config);
  const settings = new SettingsRepository(store);
  let codec: Promise<LinkCodec> | undefined;
  /** Read-only callers look the secret up until it exists, then keep it like everyone else. */
  const readCodec = async (): Promise<LinkCodec | undefined> => {
    if (codec) return codec;
    const secret = await settings.existingLinkCodeSecret();
    if (secret === undefined) return undefined;
    codec ??= Promise.resolve(new LinkCodec(secret));
    return codec;
  };
  const self: Runtime = {
    config,
    store,
    clock: systemClock,
    settings,
    accounts: new AccountService({
      accounts: new AccountsRepository(store),
      apiKeys: new ApiKeysRepository(store),
      ids: new IdAllocator(store, 'account', { maxBlock: 1 }),
      clock: () => self.clock(),
      authCacheTtlMs: config.authCacheTtlMs,
    }),
    links: new LinkService({
      links: new LinksRepository(store),
      ids: new IdAllocator(store, 'link'),
      codec: (purpose) => {
        if (purpose === 'read') return readCodec();
        codec ??= settings.linkCodeSecret().then((secret) => new LinkCodec(secret));
        // A failed read must not stick: the next call tries again.
        codec.catch(() => (codec = undefined));
        return codec;
      },
      shortLinkBase: config.shortLinkBase,
      clock: () => self.clock(),
    }),
  };
  return self;
}
