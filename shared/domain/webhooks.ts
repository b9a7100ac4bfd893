import { createHash } from 'node:crypto';
import { AppError, invalidField } from './errors';
import type { KeyedId, NewId, RandomToken } from './ids';
import { isFinal } from './message-status';
import type { Message } from './messages';
import { lengthProblem } from './text-limits';
import { type Clock, formatRequestTs } from './time';
import { type WebhookTargetPolicy, webhookTargetProblem } from './webhook-targets';

/** A URL an account registered for its delivery reports, with the secret its events are signed with. */
export interface Webhook {
  id: string;
  accountId: number;
  url: string;
  secret: string;
  createdAt: string;
}

/** SPEC §7's `data`. */
export interface WebhookEventData {
  campaignId: number;
  messageId: number;
  segNum: number;
  statusUpdateTs: string;
  status: string;
  to: string;
}

/** One final status for one webhook, with its delivery state; kept across attempts. */
export interface WebhookEvent {
  eventId: string;
  webhookId: string;
  accountId: number;
  url: string;
  secret: string;
  eventCreateTs: string;
  data: WebhookEventData;
  /** Attempts made so far (claimed), 0..MAX_ATTEMPTS. */
  attempts: number;
  state: 'pending' | 'delivered' | 'failed';
  /** No attempt is claimed before this instant (ISO): the gap after the last one. */
  nextAttemptAt: string;
  lastError?: string;
}

export const MAX_ATTEMPTS = 10;
export const DELIVERY_TIMEOUT_MS = 5_000;
/** The gap after attempt n is n minutes (SPEC §7: growing by one minute each time). */
export const gapAfterAttempt = (attempt: number) => attempt * 60_000;

export interface WebhookStore {
  addWebhook(webhook: Webhook): Promise<void>;
  listWebhooks(accountId: number): Promise<Webhook[]>;
  removeWebhook(accountId: number, id: string): Promise<boolean>;
  /** Makes the event unless one with its id exists; whether it did. */
  createEvent(event: WebhookEvent): Promise<boolean>;
  getEvent(eventId: string): Promise<WebhookEvent | undefined>;
  /** Claims the next attempt: only if pending, `attempts` is still `seen` and its time has come. */
  claimAttempt(eventId: string, seen: number, now: Date, nextAttemptAt: Date): Promise<boolean>;
  finish(eventId: string, state: 'delivered' | 'failed', error?: string): Promise<void>;
  noteFailure(eventId: string, error: string): Promise<void>;
}

export interface WebhookPorts {
  store: WebhookStore;
  /** Durable wake-up for an event (the minute-partitioned schedule the sweeper reads). */
  scheduleTry(eventId: string, at: Date): Promise<void>;
  unscheduleTry(eventId: string, at: Date): Promise<void>;
  enqueue(eventId: string): Promise<void>;
  zoneOf(accountId: number): Promise<string>;
  /** POSTs to the URL if its target is allowed, following one redirect; ok only for a 2xx within the timeout. */
  post(url: string, body: string, timeoutMs: number): Promise<DeliveryResult>;
}

/**
 * What one call to `attempt` did, for the caller to count and log. `refused`: `url` when
 * the stored URL is refused by itself (the event is abandoned, nothing was sent),
 * `address` when where it resolved or redirected to was refused (an ordinary failed attempt).
 */
export type AttemptResult =
  | { outcome: 'skipped' }
  | { outcome: 'delivered'; webhookId: string; attempt: number }
  | { outcome: 'retry'; webhookId: string; attempt: number; retryAt: Date; error: string; refused?: 'address' }
  | { outcome: 'failed'; webhookId: string; attempt: number; error: string; refused?: 'url' | 'address' };

/** The events a final status made, and those the queue did not take (their scheduled try sends them). */
export interface NewEvents {
  eventIds: string[];
  notQueued: { eventId: string; error: unknown }[];
}

export interface DeliveryResult {
  ok: boolean;
  detail: string;
  /** The target (or where it resolved or redirected to) is not allowed; nothing was sent there. */
  refused?: boolean;
}

/** sha1(eventId|attempt|eventCreateTs|secret), hex (SPEC §7). */
export function signEvent(eventId: string, attempt: number, eventCreateTs: string, secret: string): string {
  return createHash('sha1').update(`${eventId}|${attempt}|${eventCreateTs}|${secret}`).digest('hex');
}

export function webhookPayload(event: WebhookEvent, attempt: number): string {
  return JSON.stringify({
    eventId: event.eventId,
    eventType: 'sms-delivery-report',
    eventCreateTs: event.eventCreateTs,
    webhookId: event.webhookId,
    attempt,
    data: event.data,
    sign: signEvent(event.eventId, attempt, event.eventCreateTs, event.secret),
  });
}

export const MAX_WEBHOOK_URL_LENGTH = 2000;
export const MIN_WEBHOOK_SECRET_LENGTH = 16;
export const MAX_WEBHOOK_SECRET_LENGTH = 256;
/** A secret made for a webhook registered without one: 24 random bytes, 32 characters. */
const GENERATED_SECRET_BYTES = 24;

export interface WebhookServiceDeps {
  ports: WebhookPorts;
  targets: WebhookTargetPolicy;
  clock: Clock;
  /** Webhook ids. */
  ids: NewId;
  /** Event ids: one per webhook, message and status, however often that status is told. */
  eventIds: KeyedId;
  /** Secrets for webhooks registered without one. */
  secrets: RandomToken;
  cacheTtlMs?: number;
}

/**
 * Delivery-report webhooks (SPEC §7). Every final status makes one event per webhook of
 * the account, written before anything is sent. Each attempt is claimed first (a
 * conditional write that also sets the earliest time of the next one), and the next try
 * is scheduled durably before the POST, so a process that dies mid-attempt loses nothing
 * and a queue redelivery never makes a second attempt early. A 2xx within 5 s ends it;
 * after 10 failed attempts it stops. Targets follow the WebhookTargetPolicy, at
 * registration and again at every attempt.
 */
export class WebhookService {
  /** An account's webhooks as last read, so a burst of final statuses costs one Query. */
  readonly #known = new Map<number, { webhooks: Promise<Webhook[]>; until: number }>();

  constructor(private readonly deps: WebhookServiceDeps) {}

  /** The account's webhooks, read at most once per cacheTtlMs (another process's change shows within it). */
  #webhooksOf(accountId: number): Promise<Webhook[]> {
    const now = this.deps.clock().getTime();
    const known = this.#known.get(accountId);
    if (known && known.until > now) return known.webhooks;
    const webhooks = this.deps.ports.store.listWebhooks(accountId);
    if (this.#known.size >= 10_000) this.#known.clear();
    this.#known.set(accountId, { webhooks, until: now + (this.deps.cacheTtlMs ?? 5_000) });
    webhooks.catch(() => this.#known.delete(accountId));
    return webhooks;
  }

  async register(accountId: number, url: string, secret?: string): Promise<Webhook> {
    const problem = lengthProblem('Webhook URL', url, MAX_WEBHOOK_URL_LENGTH) ?? webhookTargetProblem(url, this.deps.targets);
    if (problem) throw invalidField('url', problem);
    if (secret !== undefined && secret.length < MIN_WEBHOOK_SECRET_LENGTH) {
      throw invalidField('secret', `Secret must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters`);
    }
    const secretProblem = secret === undefined ? undefined : lengthProblem('Secret', secret, MAX_WEBHOOK_SECRET_LENGTH);
    if (secretProblem) throw invalidField('secret', secretProblem);
    const now = this.deps.clock();
    const webhook: Webhook = {
      id: this.deps.ids(now),
      accountId,
      url,
      secret: secret ?? this.deps.secrets(GENERATED_SECRET_BYTES),
      createdAt: now.toISOString(),
    };
    await this.deps.ports.store.addWebhook(webhook);
    this.#known.delete(accountId);
    return webhook;
  }

  list(accountId: number): Promise<Webhook[]> {
    return this.deps.ports.store.listWebhooks(accountId);
  }

  async remove(accountId: number, id: string): Promise<void> {
    if (!(await this.deps.ports.store.removeWebhook(accountId, id))) throw new AppError('notFound', 'No such webhook');
    this.#known.delete(accountId);
  }

  /** Called on every status change; final ones become events for the account's webhooks. */
  async onMessageStatus(message: Message): Promise<NewEvents> {
    const made: NewEvents = { eventIds: [], notQueued: [] };
    if (!isFinal(message.status)) return made;
    const { ports, clock } = this.deps;
    const webhooks = await this.#webhooksOf(message.accountId);
    if (webhooks.length === 0) return made;
    const zone = await ports.zoneOf(message.accountId);
    const now = clock();
    for (const webhook of webhooks) {
      const event: WebhookEvent = {
        eventId: this.deps.eventIds(new Date(message.createdAt), `${webhook.id}:${message.id}:${message.status}`),
        webhookId: webhook.id,
        accountId: message.accountId,
        url: webhook.url,
        secret: webhook.secret,
        eventCreateTs: formatRequestTs(now, zone),
        data: {
          campaignId: message.campaignId,
          messageId: message.id,
          segNum: message.segNum,
          statusUpdateTs: formatRequestTs(message.statusUpdatedAt ?? now, zone),
          status: message.status,
          to: message.to,
        },
        attempts: 0,
        state: 'pending',
        nextAttemptAt: now.toISOString(),
      };
      // A status told twice (a report that overtook the gateway's answer to the submit is
      // told again with that answer) finds its event made already: one event per status.
      if (!(await ports.store.createEvent(event))) continue;
      // The safety net first: should the queue lose the event (or this process have no
      // queue, as the admin CLI declining a campaign), the sweeper sends it a minute later.
      await ports.scheduleTry(event.eventId, new Date(now.getTime() + gapAfterAttempt(1)));
      made.eventIds.push(event.eventId);
      await ports.enqueue(event.eventId).catch((error: unknown) => made.notQueued.push({ eventId: event.eventId, error }));
    }
    return made;
  }

  /** One attempt, when its time has come; what the webhook worker runs per queue message. */
  async attempt(eventId: string): Promise<AttemptResult> {
    const { ports, clock } = this.deps;
    const skipped = { outcome: 'skipped' } as const;
    const event = await ports.store.getEvent(eventId);
    if (event?.state !== 'pending' || event.attempts >= MAX_ATTEMPTS) return skipped;
    const now = clock();
    if (Date.parse(event.nextAttemptAt) > now.getTime()) return skipped; // an early redelivery
    const attempt = event.attempts + 1;
    const retryAt = new Date(now.getTime() + gapAfterAttempt(attempt));
    if (!(await ports.store.claimAttempt(eventId, event.attempts, now, retryAt))) return skipped;
    const { webhookId } = event;
    // A URL refused by itself stays refused (one stored before the rule, or the service's
    // own host): no point in nine more tries. Refusals that depend on DNS are ordinary
    // failed attempts, retried, since what a name resolves to can change.
    const refusal = webhookTargetProblem(event.url, this.deps.targets);
    if (refusal) {
      await ports.store.finish(eventId, 'failed', refusal);
      return { outcome: 'failed', webhookId, attempt, error: refusal, refused: 'url' };
    }
    if (attempt < MAX_ATTEMPTS) await ports.scheduleTry(eventId, retryAt);
    const result = await ports.post(event.url, webhookPayload(event, attempt), DELIVERY_TIMEOUT_MS);
    if (result.ok) {
      await ports.store.finish(eventId, 'delivered');
      if (attempt < MAX_ATTEMPTS) await ports.unscheduleTry(eventId, retryAt);
      return { outcome: 'delivered', webhookId, attempt };
    }
    const failure = { webhookId, attempt, error: result.detail, ...(result.refused ? { refused: 'address' as const } : {}) };
    if (attempt >= MAX_ATTEMPTS) {
      await ports.store.finish(eventId, 'failed', result.detail);
      return { outcome: 'failed', ...failure };
    }
    await ports.store.noteFailure(eventId, result.detail);
    return { outcome: 'retry', retryAt, ...failure };
  }
}
