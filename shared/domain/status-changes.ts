import type { Message } from './messages';

/** Told of every status a message moves to, whatever moved it: a report, an expiry, a decline. */
export interface StatusSubscriber {
  onMessageStatus(message: Message): Promise<void>;
}

/** Where status changes are published: the dispatcher, the expiry and moderation depend on this. */
export interface StatusPublisher {
  publish(message: Message): Promise<void>;
}

/**
 * The one fan-out of status changes: each goes to every subscriber in the order they
 * subscribed, one after the other, so the campaign follows its message before a webhook
 * tells anyone about it. A subscriber that fails stops the rest: the change is reported
 * again by whatever retries it (the queue, the sweeper).
 */
export class StatusChanges implements StatusPublisher {
  readonly #subscribers: StatusSubscriber[];

  constructor(subscribers: StatusSubscriber[] = []) {
    this.#subscribers = [...subscribers];
  }

  /** Adds a subscriber after those already there. */
  subscribe(subscriber: StatusSubscriber): void {
    this.#subscribers.push(subscriber);
  }

  async publish(message: Message): Promise<void> {
    for (const subscriber of this.#subscribers) await subscriber.onMessageStatus(message);
  }
}
