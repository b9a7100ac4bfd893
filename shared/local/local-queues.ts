import type { QueueName, Queues } from '../queue/queues';
import type { LocalQueue } from './queue';

/** What every local send answers: there is nothing to wait for (one promise, shared). */
const SENT: Promise<void> = Promise.resolve();

/** The local runtime's queues by name, for producers (Queues) and for tests (drain). */
export class LocalQueues implements Queues {
  constructor(readonly queues: Record<QueueName, LocalQueue>) {}

  send(queue: QueueName, body: string): Promise<void> {
    try {
      this.queues[queue].send(body);
      return SENT;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Waits until every queue has delivered what is visible. */
  async drain(): Promise<void> {
    await Promise.all(Object.values(this.queues).map((queue) => queue.drain()));
  }

  async stop(): Promise<void> {
    await Promise.all(Object.values(this.queues).map((queue) => queue.stop()));
  }
}
