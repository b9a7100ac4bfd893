import type { RedirectDeps } from './api/redirect';
import { readConfig } from './config';
import { LinkCache } from './domain/link-cache';
import { LinkResolver } from './domain/link-resolver';
import { linkCodecSource } from './link-codec-source';
import { noQueues, SqsQueues } from './queue/queues';
import { createStore } from './store/client';
import { LinksRepository } from './store/links-repo';
import { SettingsRepository } from './store/settings-repo';

let installed: RedirectDeps | undefined;

/**
 * What the redirect function needs, and no more: the table, the link cache and the click
 * queue. Built apart from shared/runtime.ts so the redirect's bundle carries none of the
 * API's and the SMS pipeline's code. The local runtime installs its own (one cache for
 * the redirect and the Link operations, so a change shows at once; its clock).
 */
export function redirectDeps(): RedirectDeps {
  installed ??= createRedirectDeps();
  return installed;
}

export function installRedirectDeps(deps: RedirectDeps): void {
  installed = deps;
}

function createRedirectDeps(): RedirectDeps {
  const config = readConfig();
  const store = createStore(config);
  const codec = linkCodecSource(new SettingsRepository(store));
  const resolver = new LinkResolver({
    links: new LinksRepository(store),
    codec: () => codec('read'),
    cache: new LinkCache(config.linkCacheTtlMs),
    now: Date.now,
  });
  return {
    links: { findForRedirect: (code) => resolver.find(code) },
    queues: config.clickQueueUrl ? new SqsQueues({ clicks: config.clickQueueUrl }, config.region) : noQueues,
    clock: () => new Date(),
  };
}
