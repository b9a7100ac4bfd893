import type { Message } from '../../shared/domain/messages';
import type { WebhookTargetPolicy } from '../../shared/domain/webhook-targets';
import {
  type DeliveryResult,
  MAX_ATTEMPTS,
  type Webhook,
  type WebhookEvent,
  WebhookService,
  type WebhookStore,
  webhookPayload,
} from '../../shared/domain/webhooks';

/** Webhooks and events in maps, with the claim's condition as the table states it; every call in `journal`. */
class MemoryWebhookStore implements WebhookStore {
  readonly webhooks = new Map<string, Webhook>();
  readonly events = new Map<string, WebhookEvent>();
  listReads = 0;

  constructor(private readonly journal: string[]) {}

  async addWebhook(webhook: Webhook): Promise<void> {
    this.webhooks.set(webhook.id, webhook);
  }
  async listWebhooks(accountId: number): Promise<Webhook[]> {
    this.listReads++;
    return [...this.webhooks.values()].filter((webhook) => webhook.accountId === accountId);
  }
  async removeWebhook(accountId: number, id: string): Promise<boolean> {
    return this.webhooks.get(id)?.accountId === accountId && this.webhooks.delete(id);
  }
  async createEvent(event: WebhookEvent): Promise<boolean> {
    const made = !this.events.has(event.eventId);
    this.journal.push(`create ${event.eventId}${made ? '' : ' refused'}`);
    if (made) this.events.set(event.eventId, structuredClone(event));
    return made;
  }
  async getEvent(eventId: string): Promise<WebhookEvent | undefined> {
    const event = this.events.get(eventId);
    return event && structuredClone(event);
  }
  async claimAttempt(eventId: string, seen: number, now: Date, nextAttemptAt: Date): Promise<boolean> {
    const event = this.events.get(eventId);
    const claimed = event?.state === 'pending' && event.attempts === seen && event.nextAttemptAt <= now.toISOString();
    this.journal.push(`claim ${eventId} ${seen + 1}${claimed ? '' : ' refused'}`);
    if (claimed) Object.assign(event, { attempts: seen + 1, nextAttemptAt: nextAttemptAt.toISOString() });
    return claimed;
  }
  async finish(eventId: string, state: 'delivered' | 'failed', error?: string): Promise<void> {
    this.journal.push(`finish ${eventId} ${state}`);
    Object.assign(this.events.get(eventId) ?? {}, { state }, error === undefined ? {} : { lastError: error });
  }
  async noteFailure(eventId: string, error: string): Promise<void> {
    this.journal.push(`note ${eventId}`);
    Object.assign(this.events.get(eventId) ?? {}, { lastError: error });
  }
}

const T0 = Date.parse('2032-03-01T09:00:00Z');
const minutes = (n: number) => n * 60_000;
const at = (ms: number) => new Date(T0 + ms).toISOString();

/** A service over in-memory ports with a clock the test moves, counting ids and secrets. */
function harness(options: { answer?: (attempt: number) => DeliveryResult; enqueue?: () => Promise<void>; targets?: WebhookTargetPolicy } = {}) {
  const journal: string[] = [];
  const store = new MemoryWebhookStore(journal);
  const posted: { url: string; body: Record<string, unknown> }[] = [];
  let now = T0;
  let ids = 0;
  const service = new WebhookService({
    ports: {
      store,
      scheduleTry: async (eventId, when) => void journal.push(`schedule ${eventId} ${when.toISOString()}`),
      unscheduleTry: async (eventId, when) => void journal.push(`unschedule ${eventId} ${when.toISOString()}`),
      enqueue: options.enqueue ?? (async (eventId) => void journal.push(`enqueue ${eventId}`)),
      zoneOf: async () => 'Asia/Almaty',
      post: async (url, body) => {
        const parsed = JSON.parse(body) as Record<string, unknown>;
        journal.push(`post ${parsed.eventId} ${parsed.attempt}`);
        posted.push({ url, body: parsed });
        return (options.answer ?? (() => ({ ok: true, detail: 'HTTP 204' })))(Number(parsed.attempt));
      },
    },
    targets: options.targets ?? { allowPrivate: false, ownBases: [] },
    clock: () => new Date(now),
    ids: (when) => `id-${++ids}@${when.toISOString()}`,
    eventIds: (when, key) => `event ${key}@${when.toISOString()}`,
    secrets: (bytes) => `secret-of-${bytes}-bytes`,
  });
  return {
    service,
    store,
    journal,
    posted,
    advance: (ms: number) => (now += ms),
  };
}

const message = (status: string, accountId = 7, id = 52): Message =>
  ({
    id,
    accountId,
    campaignId: 41,
    segNum: 1,
    to: '447400123450',
    status,
    createdAt: at(-minutes(5)),
    statusUpdatedAt: new Date(T0 - 1_000),
  }) as unknown as Message;

describe('WebhookService', () => {
  describe('register', () => {
    it('takes the id from the id source, a generated secret of 24 bytes from the secret source, the time from the clock', async () => {
      // Prepare
      const { service, store } = harness();

      // Act
      const webhook = await service.register(7, 'https://hooks.example.com/sms');

      // Assess
      expect(webhook).toEqual({
        id: `id-1@${at(0)}`,
        accountId: 7,
        url: 'https://hooks.example.com/sms',
        secret: 'secret-of-24-bytes',
        createdAt: at(0),
      });
      expect([...store.webhooks.values()]).toEqual([webhook]);
    });

    it('keeps a given secret and refuses a refused target and a short secret, storing nothing', async () => {
      // Prepare
      const { service, store } = harness();

      // Act
      const kept = await service.register(7, 'https://hooks.example.com/sms', 'a-secret-of-sixteen+');
      const loopback = service.register(7, 'http://127.0.0.1/hook');
      const short = service.register(7, 'https://hooks.example.com/sms', 'short');

      // Assess
      expect(kept.secret).toBe('a-secret-of-sixteen+');
      await expect(loopback).rejects.toMatchObject({ kind: 'invalid', message: expect.stringContaining('127.0.0.1, a loopback address') });
      await expect(short).rejects.toMatchObject({ kind: 'invalid', message: 'Secret must be at least 16 characters' });
      expect(store.webhooks.size).toBe(1);
    });
  });

  describe('onMessageStatus', () => {
    it('makes one event per final status and webhook, written, scheduled a minute later and queued, in that order', async () => {
      // Prepare
      const { service, store, journal } = harness();
      const first = await service.register(7, 'https://one.example.com/hook');
      const second = await service.register(7, 'https://two.example.com/hook');
      await service.register(8, 'https://other-account.example.com/hook');

      // Act
      const made = await service.onMessageStatus(message('DELIVRD'));

      // Assess
      expect(made).toEqual({ eventIds: [first, second].map((webhook) => `event ${webhook.id}:52:DELIVRD@${at(-minutes(5))}`), notQueued: [] });
      expect(journal).toEqual(
        made.eventIds.flatMap((eventId) => [`create ${eventId}`, `schedule ${eventId} ${at(minutes(1))}`, `enqueue ${eventId}`]),
      );
      expect([...store.events.values()]).toEqual(
        [first, second].map((webhook, index) => ({
          eventId: made.eventIds[index],
          webhookId: webhook.id,
          accountId: 7,
          url: webhook.url,
          secret: webhook.secret,
          eventCreateTs: '2032-03-01 14:00:00', // Almaty, UTC+05:00
          data: { campaignId: 41, messageId: 52, segNum: 1, statusUpdateTs: '2032-03-01 13:59:59', status: 'DELIVRD', to: '447400123450' },
          attempts: 0,
          state: 'pending',
          nextAttemptAt: at(0),
        })),
      );
    });

    it('makes one event of a final status told twice: the second telling finds it and schedules and queues nothing', async () => {
      // Prepare
      const { service, store, journal } = harness();
      const webhook = await service.register(7, 'https://one.example.com/hook');
      const first = await service.onMessageStatus(message('DELIVRD'));
      journal.length = 0;

      // Act
      const again = await service.onMessageStatus(message('DELIVRD'));

      // Assess
      expect(again).toEqual({ eventIds: [], notQueued: [] });
      expect(journal).toEqual([`create ${first.eventIds[0]} refused`]);
      expect([...store.events.keys()]).toEqual([`event ${webhook.id}:52:DELIVRD@${at(-minutes(5))}`]);
    });

    it('makes no event for a status that is not final, nor for an account without webhooks', async () => {
      // Prepare
      const { service, store } = harness();
      await service.register(7, 'https://one.example.com/hook');

      // Act
      const interim = await service.onMessageStatus(message('ACCEPTD'));
      const unwatched = await service.onMessageStatus(message('DELIVRD', 9));

      // Assess
      expect([interim, unwatched]).toEqual([
        { eventIds: [], notQueued: [] },
        { eventIds: [], notQueued: [] },
      ]);
      expect(store.events.size).toBe(0);
    });

    it('reports an event the queue refused, which stays written and scheduled', async () => {
      // Prepare
      const refusal = new Error('queue unavailable');
      const { service, store, journal } = harness({ enqueue: () => Promise.reject(refusal) });
      await service.register(7, 'https://one.example.com/hook');

      // Act
      const made = await service.onMessageStatus(message('UNDELIV'));

      // Assess
      expect(made.notQueued).toEqual([{ eventId: made.eventIds[0], error: refusal }]);
      expect(store.events.get(made.eventIds[0]!)?.state).toBe('pending');
      expect(journal).toContain(`schedule ${made.eventIds[0]} ${at(minutes(1))}`);
    });

    it("reads an account's webhooks once per five seconds of the clock, and again at once after a registration", async () => {
      // Prepare
      const { service, store, advance } = harness();
      await service.register(7, 'https://one.example.com/hook');

      // Act
      for (let i = 0; i < 3; i++) await service.onMessageStatus(message('DELIVRD', 7, 60 + i));
      const burst = store.listReads;
      advance(5_000);
      await service.onMessageStatus(message('DELIVRD', 7, 63));
      const expired = store.listReads;
      await service.register(7, 'https://two.example.com/hook');
      const made = await service.onMessageStatus(message('DELIVRD', 7, 64));

      // Assess
      expect([burst, expired, store.listReads]).toEqual([1, 2, 3]);
      expect(made.eventIds).toHaveLength(2);
    });
  });

  describe('attempt', () => {
    async function pendingEvent(options: Parameters<typeof harness>[0] = {}, url = 'https://hooks.example.com/sms') {
      const h = harness(options);
      await h.service.register(7, url);
      const {
        eventIds: [eventId],
      } = await h.service.onMessageStatus(message('DELIVRD'));
      h.journal.length = 0;
      return { ...h, eventId: eventId! };
    }

    it('claims the attempt and schedules the next try before it posts; a 2xx finishes the event and drops that try', async () => {
      // Prepare
      const { service, store, journal, posted, eventId } = await pendingEvent();

      // Act
      const result = await service.attempt(eventId);

      // Assess
      expect(result).toEqual({ outcome: 'delivered', webhookId: `id-1@${at(0)}`, attempt: 1 });
      expect(journal).toEqual([
        `claim ${eventId} 1`,
        `schedule ${eventId} ${at(minutes(1))}`,
        `post ${eventId} 1`,
        `finish ${eventId} delivered`,
        `unschedule ${eventId} ${at(minutes(1))}`,
      ]);
      const event = store.events.get(eventId)!;
      expect(posted).toEqual([{ url: 'https://hooks.example.com/sms', body: JSON.parse(webhookPayload({ ...event, attempts: 0 }, 1)) }]);
      expect(event).toMatchObject({ state: 'delivered', attempts: 1 });
      expect(await service.attempt(eventId)).toEqual({ outcome: 'skipped' });
    });

    it('posts nothing when the claim is lost (another worker took the attempt)', async () => {
      // Prepare
      const { service, store, journal, posted, eventId } = await pendingEvent();
      const stale = store.getEvent.bind(store);
      // The event as read before another worker claimed attempt 1
      store.getEvent = async (id) => {
        const event = await stale(id);
        await store.claimAttempt(id, 0, new Date(T0), new Date(T0 + minutes(1)));
        return event;
      };

      // Act
      const result = await service.attempt(eventId);

      // Assess
      expect(result).toEqual({ outcome: 'skipped' });
      expect(journal).toEqual([`claim ${eventId} 1`, `claim ${eventId} 1 refused`]);
      expect(posted).toEqual([]);
    });

    it('waits one minute more after each failed attempt, skips early tries, and fails the event after 10 attempts', async () => {
      // Prepare: a receiver that always answers 500
      const { service, store, journal, posted, advance, eventId } = await pendingEvent({ answer: () => ({ ok: false, detail: 'HTTP 500' }) });
      const results = [];

      // Act: each try a millisecond early, then on time
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        if (attempt > 1) {
          advance(minutes(attempt - 1) - 1);
          expect(await service.attempt(eventId)).toEqual({ outcome: 'skipped' });
          advance(1);
        }
        results.push(await service.attempt(eventId));
      }
      advance(minutes(60));
      const after = await service.attempt(eventId);

      // Assess
      let elapsed = 0;
      const expected = [];
      for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
        elapsed += minutes(attempt);
        expected.push({ outcome: 'retry', webhookId: `id-1@${at(0)}`, attempt, retryAt: new Date(at(elapsed)), error: 'HTTP 500' });
      }
      expected.push({ outcome: 'failed', webhookId: `id-1@${at(0)}`, attempt: MAX_ATTEMPTS, error: 'HTTP 500' });
      expect(results).toEqual(expected);
      expect(after).toEqual({ outcome: 'skipped' });
      expect(posted.map(({ body }) => body.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(journal.filter((line) => line.startsWith('schedule'))).toHaveLength(MAX_ATTEMPTS - 1); // none after the last
      expect(store.events.get(eventId)).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS, lastError: 'HTTP 500' });
    });

    it('abandons an event whose stored URL is refused by itself, posting nothing', async () => {
      // Prepare: stored while private targets were allowed, attempted under the strict rule
      const relaxed = await pendingEvent({ targets: { allowPrivate: true, ownBases: [] } }, 'http://127.0.0.1:9/hook');
      const strict = harness();
      strict.store.events.set(relaxed.eventId, relaxed.store.events.get(relaxed.eventId)!);

      // Act
      const result = await strict.service.attempt(relaxed.eventId);

      // Assess
      expect(result).toEqual({
        outcome: 'failed',
        webhookId: `id-1@${at(0)}`,
        attempt: 1,
        error: expect.stringContaining('127.0.0.1, a loopback address'),
        refused: 'url',
      });
      expect(strict.journal).toEqual([`claim ${relaxed.eventId} 1`, `finish ${relaxed.eventId} failed`]);
      expect(strict.posted).toEqual([]);
    });

    it('counts a target the sender refused (where it resolved or redirected to) as a failed attempt, to be tried again', async () => {
      // Prepare
      const detail = 'Webhook host hooks.example.com resolves to 10.0.0.1, a private address';
      const { service, eventId } = await pendingEvent({ answer: () => ({ ok: false, refused: true, detail }) });

      // Act
      const result = await service.attempt(eventId);

      // Assess
      expect(result).toEqual({
        outcome: 'retry',
        webhookId: `id-1@${at(0)}`,
        attempt: 1,
        retryAt: new Date(at(minutes(1))),
        error: detail,
        refused: 'address',
      });
    });
  });
});
