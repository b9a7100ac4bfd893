import type { RedirectDeps } from './api/redirect';
import { readConfig } from './config';
import { LinkCache } from './domain/link-cache';
import { LinkCodec } from './domain/link-code';
import { LinkResolver } from './domain/link-resolver';
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
  const settings = new SettingsRepository(store);
  let codec: LinkCodec | undefined;
  const resolver = new LinkResolver({
    links: new LinksRepository(store),
    // Read-only: the secret is looked up until it exists (no link exists before), then kept.
    codec: async () => {
      if (codec) return codec;
      const secret = await settings.existingLinkCodeSecret();
      if (secret !== undefined) codec = new LinkCodec(secret);
      return codec;
    },
    cache: new LinkCache(config.linkCacheTtlMs),
  });
  return {
    links: { findForRedirect: (code) => resolver.find(code) },
    queues: config.clickQueueUrl ? new SqsQueues({ clicks: config.clickQueueUrl }, config.region) : noQueues,
    clock: () => new Date(),
  };
}
