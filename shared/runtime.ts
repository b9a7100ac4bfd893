import { type ApiRuntime, type ApiRuntimeOverrides, createApiRuntime, installApiRuntime } from './api-runtime';
import { type Config, readConfig } from './config';
import { ClickAggregator } from './domain/click-aggregator';
import type { SmsGateway } from './domain/gateway';
import { SmsDispatcher } from './domain/sms-dispatcher';
import { type Clock, utcMinuteOf } from './domain/time';
import type { WebhookTargetPolicy } from './domain/webhook-targets';
import { WebhookService } from './domain/webhooks';
import { cryptoToken, keyedUlid, ulidAt } from './ids';
import { webhookBody } from './queue/bodies';
import { installRedirectDeps } from './redirect-runtime';
import { AwsSmsGateway } from './sms/aws';
import { KannelGateway } from './sms/kannel';
import { SimulatorGateway } from './sms/simulator';
import { AccountsRepository } from './store/accounts-repo';
import { ClickRanks } from './store/click-ranks';
import { ClicksRepository } from './store/clicks-repo';
import { RollupPass } from './store/rollup-pass';
import { WebhooksRepository } from './store/webhooks-repo';
import { logNewEvents } from './webhooks/delivery-log';
import { webhookSender } from './webhooks/http-sender';

/**
 * Everything a handler needs, built once per container (cold start) from the
 * environment: what the API operations use (shared/api-runtime.ts) plus the gateway, the
 * dispatcher of delivery reports, webhook delivery and the click aggregator, for the
 * workers, the admin CLI and the local runtime.
 */
export interface Runtime extends ApiRuntime {
  clicks: ClickAggregator;
  /** Link/List's clickCnt order, moved after counting by the scheduled sweep (apply). */
  ranks: ClickRanks;
  /** Copies settled days onto their month items for long ranges' readers, run by the scheduled sweep. */
  rollups: RollupPass;
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
  installApiRuntime(installed);
  // The redirect shares this runtime's link cache (changes show at once) and its clock.
  installRedirectDeps({ links: installed.links, queues: installed.queues, clock: () => installed.clock() });
}

export interface RuntimeOverrides extends ApiRuntimeOverrides {
  /** Counter writes the click aggregator keeps in flight within a batch (ClickAggregator's default unless given). */
  clickWritesInFlight?: number;
}

export function createRuntime(config: Config, overrides: RuntimeOverrides = {}): Runtime {
  const core = createApiRuntime(config, overrides);
  const { store, queues, accounts, messageStore, schedule, statusChanges } = core;
  // Services read the runtime's clock on every call, so tests can move time.
  const clock: Clock = () => core.clock();
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
  const targets: WebhookTargetPolicy = {
    allowPrivate: config.webhookAllowPrivateTargets,
    ownBases: [config.shortLinkBase, config.kannel?.reportBaseUrl].filter((base) => base !== undefined),
  };
  const webhooks = new WebhookService({
    ports: {
      store: new WebhooksRepository(store),
      scheduleTry: (eventId, at) => schedule.schedule(utcMinuteOf(at), { kind: 'webhook', eventId, at: at.toISOString() }),
      unscheduleTry: (eventId, at) => schedule.unschedule(utcMinuteOf(at), { kind: 'webhook', eventId, at: at.toISOString() }),
      enqueue: (eventId) => queues.send('webhooks', webhookBody(eventId)),
      zoneOf: async (accountId) => (await accounts.zonesOf([accountId])).get(accountId) ?? 'UTC',
      post: webhookSender(targets),
    },
    targets,
    clock,
    ids: ulidAt,
    eventIds: keyedUlid,
    secrets: cryptoToken,
  });
  // Webhooks hear of a status change after the campaign has followed it.
  statusChanges.subscribe({ onMessageStatus: async (message) => logNewEvents(await webhooks.onMessageStatus(message)) });
  const dispatcher: SmsDispatcher = new SmsDispatcher({ messages: messageStore, gateway, clock, statusChanges });
  const ranks = new ClickRanks(store);
  const accountsRepository = new AccountsRepository(store);
  const rollups = new RollupPass(store, async () => (await accountsRepository.list()).map((account) => account.id), clock);
  // One object: a test that replaces `clock` on the runtime moves every service's time.
  return Object.assign(core, {
    clicks: new ClickAggregator({
      clicks: new ClicksRepository(store),
      zonesOf: (ids: number[]) => accounts.zonesOf(ids),
      clock,
      ranks,
      writesInFlight: overrides.clickWritesInFlight,
    }),
    ranks,
    rollups,
    dispatcher,
    gateway,
    webhooks,
    close: () => gateway.close?.(),
  });
}
