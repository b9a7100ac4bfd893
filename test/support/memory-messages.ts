import { canMoveTo, type MessageStatus } from '../../shared/domain/message-status';
import { type Message, normalizeGatewayMessageId } from '../../shared/domain/messages';
import type { MessageStore } from '../../shared/domain/sms-dispatcher';

/**
 * The dispatcher's message store in memory, with the conditions of
 * shared/store/messages-repo.ts: a status moves only where canMoveTo allows (so the claim
 * only from NEW), the gateway's id is findable before the acceptance is written and is
 * recorded even when a report got there first, the ambiguous flag holds only on ENQUEUD, a
 * part keeps its first final report and SMSC ids form a set. Reads hand out copies shaped
 * as the repository reads items. `log` names every change made, in order; a conditional
 * write whose condition did not hold is not listed.
 */
export class MemoryMessageStore implements MessageStore {
  readonly items = new Map<number, Message>();
  /** The repository's GATEWAYMSG pointers: `<gateway>#<normalized id>` → message id. */
  readonly gatewayIds = new Map<string, number>();
  /** Ids on the ambiguous list, with why. */
  readonly ambiguous = new Map<number, string>();

  constructor(readonly log: string[] = []) {}

  async create(message: Message): Promise<void> {
    if (this.items.has(message.id)) throw new Error(`Message ${message.id} exists`);
    this.items.set(message.id, structuredClone(message));
  }

  async get(id: number): Promise<Message | undefined> {
    return this.#read(id);
  }

  async claimForSend(id: number, at: Date): Promise<Message | undefined> {
    return this.#move(id, 'ENQUEUD', at, {}, 'claimForSend');
  }

  async markAccepted(id: number, gateway: string, gatewayMessageId: string, at: Date): Promise<Message | undefined> {
    this.gatewayIds.set(`${gateway}#${normalizeGatewayMessageId(gatewayMessageId)}`, id);
    const accepted = this.#move(id, 'ACCEPTD', at, { gateway, gatewayMessageId, startSendAt: at.toISOString() }, 'markAccepted');
    if (accepted) return accepted;
    // A report got there first: the gateway's id and the sending time are kept all the same.
    const message = this.items.get(id);
    if (!message) return undefined;
    Object.assign(message, { gateway, gatewayMessageId, startSendAt: message.startSendAt ?? at.toISOString() });
    this.log.push(`recordAccepted:${id}`);
    return this.#read(id);
  }

  async markAmbiguous(id: number, reason: string, at: Date): Promise<void> {
    const message = this.items.get(id);
    if (message?.status !== 'ENQUEUD') return;
    Object.assign(message, { submitState: 'ambiguous', submitProblem: reason, statusUpdatedAt: at.toISOString() });
    this.ambiguous.set(id, reason);
    this.log.push(`markAmbiguous:${id}`);
  }

  async applyStatus(id: number, status: MessageStatus, at: Date): Promise<Message | undefined> {
    return this.#move(id, status, at, {}, `applyStatus:${status}`);
  }

  async findByGatewayId(gateway: string, gatewayMessageId: string): Promise<number | undefined> {
    return this.gatewayIds.get(`${gateway}#${normalizeGatewayMessageId(gatewayMessageId)}`);
  }

  async recordPartStatus(id: number, part: number, status: MessageStatus): Promise<Message | undefined> {
    const message = this.items.get(id);
    if (!message) return undefined;
    message.partStatuses ??= {};
    if (message.partStatuses[part] === undefined) {
      message.partStatuses[part] = status;
      this.log.push(`recordPartStatus:${id}:${part}:${status}`);
    }
    return this.#read(id);
  }

  async recordSmscMessageId(id: number, smscMessageId: string): Promise<void> {
    const message = this.items.get(id);
    if (!message || message.smscMessageIds?.includes(smscMessageId)) return;
    message.smscMessageIds = [...(message.smscMessageIds ?? []), smscMessageId];
    this.log.push(`recordSmscMessageId:${id}:${smscMessageId}`);
  }

  #move(id: number, status: MessageStatus, at: Date, fields: Partial<Message>, change: string): Message | undefined {
    const message = this.items.get(id);
    if (!message || !canMoveTo(message.status, status)) return undefined;
    Object.assign(message, fields, { status, statusUpdatedAt: at.toISOString() });
    this.log.push(`${change}:${id}`);
    return this.#read(id);
  }

  /** A copy as the repository's fromItem gives it: no empty part map, SMSC ids sorted, a problem or null. */
  #read(id: number): Message | undefined {
    const message = this.items.get(id);
    if (!message) return undefined;
    const { partStatuses, smscMessageIds, ...rest } = structuredClone(message);
    return {
      ...(partStatuses && Object.keys(partStatuses).length > 0 && { partStatuses }),
      ...(smscMessageIds && { smscMessageIds: smscMessageIds.sort() }),
      ...rest,
      submitProblem: rest.submitProblem ?? null,
    };
  }
}
