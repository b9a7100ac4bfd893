import { DeleteCommand, GetCommand, type NativeAttributeValue, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CampaignState } from '../domain/message-listing';
import { type MessageStatus, statusesBefore } from '../domain/message-status';
import type { Message } from '../domain/messages';
import { batchGetAll } from './batch';
import type { Store } from './client';
import { conditionally } from './conditional';
import { keys } from './keys';
import { MessageChanges } from './message-changes';
import { fromMessageItem } from './message-items';
import { queryAll } from './query';

/**
 * Messages and their status changes. Every change that moves an index key or a count is
 * one conditional UpdateItem through MessageChanges, after the status rule
 * (domain/message-status.ts) allowed it on the message as read: the message must be in a
 * status that may move to the new one, so a late, repeated or out-of-order report never
 * regresses a message and a final status never changes (the write is conditional on the
 * status it read).
 */
export class MessagesRepository {
  readonly #changes: MessageChanges;

  constructor(
    private readonly store: Store,
    changes?: MessageChanges,
  ) {
    this.#changes = changes ?? new MessageChanges(store);
  }

  /** A new message, with its campaign's state copied onto it (the list criteria on the campaign read it there). */
  create(message: Message, campaign: CampaignState): Promise<void> {
    return this.#changes.create(message, campaign);
  }

  async get(id: number): Promise<Message | undefined> {
    const item = await this.#changes.get(id);
    return item ? fromMessageItem(item) : undefined;
  }

  /** Messages by id; missing ids are simply absent. */
  async getMany(ids: number[]): Promise<Message[]> {
    return (
      await batchGetAll(
        this.store,
        ids.map((id) => keys.message(id)),
      )
    ).map(fromMessageItem);
  }

  /** Every message of the account, newest first, from the account's index partition (tools and tests). */
  async listByAccount(accountId: number): Promise<Message[]> {
    const items = await queryAll(this.store, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.messageIndex(accountId, '', 0).gsi1pk },
      ScanIndexForward: false,
    });
    return items.map(fromMessageItem);
  }

  /**
   * The worker's claim, NEW → ENQUEUD. Only one claim can win, so a redelivered queue
   * message or a second worker never submits the same SMS again.
   */
  claimForSend(id: number, at: Date): Promise<Message | undefined> {
    return this.#move(id, 'ENQUEUD', at, {});
  }

  /** The gateway took the message: ACCEPTD, with its id at the gateway, findable by that id. */
  async markAccepted(id: number, gateway: string, gatewayMessageId: string, at: Date): Promise<Message | undefined> {
    // The pointer first: a fast delivery report may arrive before the status is written.
    await this.store.db.send(
      new PutCommand({
        TableName: this.store.tableName,
        Item: { ...keys.gatewayMessage(gateway, gatewayMessageId), entity: 'GatewayMessage', messageId: id },
      }),
    );
    // Usually one write: the status with the gateway's id and the sending time.
    const accepted = await this.#move(id, 'ACCEPTD', at, { gateway, gatewayMessageId, startSendAt: at.toISOString() });
    if (accepted) return accepted;
    // A report got there first (the status is past ACCEPTD): the gateway's id and the
    // sending time are recorded all the same, and the status stays as it is.
    const recorded = await this.#changes.change(id, (item) => ({ gateway, gatewayMessageId, startSendAt: item.startSendAt ?? at.toISOString() }));
    return recorded && fromMessageItem(recorded);
  }

  /**
   * A submit without a clear answer: the message stays ENQUEUD, flagged for reconciliation.
   * The list entry is written before the flag, so a process killed between the two writes
   * never leaves a flagged message off the list; an entry whose message is not flagged (the
   * flag's condition failed, or the kill came first) is left out by listAmbiguous.
   */
  async markAmbiguous(id: number, reason: string, at: Date): Promise<void> {
    const entry = keys.ambiguousMessage(id);
    await this.store.db.send(
      new PutCommand({
        TableName: this.store.tableName,
        Item: { ...entry, entity: 'AmbiguousMessage', messageId: id, at: at.toISOString(), reason },
      }),
    );
    // Unless the gateway's answer was recorded meanwhile (the status moved on).
    const flagged = await this.#changes.change(id, (item) =>
      item.status === 'ENQUEUD' ? { submitState: 'ambiguous', submitProblem: reason, statusUpdatedAt: at.toISOString() } : undefined,
    );
    if (!flagged) await this.store.db.send(new DeleteCommand({ TableName: this.store.tableName, Key: entry }));
  }

  /** Messages flagged ambiguous, oldest id first: one Query of their index partition. */
  async listAmbiguous(): Promise<Message[]> {
    const items = await queryAll(this.store, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.ambiguousMessages() },
    });
    const messages = await Promise.all(items.map((item) => this.get(Number(item.messageId))));
    return messages.filter((message): message is Message => message?.submitState === 'ambiguous');
  }

  /** Moves the message to `status` if the rule allows; the updated message, or undefined. */
  applyStatus(id: number, status: MessageStatus, at: Date): Promise<Message | undefined> {
    return this.#move(id, status, at, {});
  }

  /**
   * A part's final report, kept as the first one that part got (a part's outcome never
   * changes either); the message with every part report so far, or undefined if unknown.
   */
  async recordPartStatus(id: number, part: number, status: MessageStatus): Promise<Message | undefined> {
    let updated: Message | undefined;
    await conditionally(async () => {
      const result = await this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: keys.message(id),
          UpdateExpression: 'SET #part = if_not_exists(#part, :status)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#part': partAttribute(part) },
          ExpressionAttributeValues: { ':status': status },
          ReturnValues: 'ALL_NEW',
        }),
      );
      updated = result.Attributes && fromMessageItem(result.Attributes);
    });
    return updated;
  }

  /** Adds an id the SMSC gave the message (or one of its parts); a set, so repeats add nothing. */
  async recordSmscMessageId(id: number, smscMessageId: string): Promise<void> {
    await conditionally(() =>
      this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: keys.message(id),
          UpdateExpression: 'ADD smscMessageIds :ids',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':ids': new Set([smscMessageId]) },
        }),
      ),
    );
  }

  async findByGatewayId(gateway: string, gatewayMessageId: string): Promise<number | undefined> {
    const result = await this.store.db.send(new GetCommand({ TableName: this.store.tableName, Key: keys.gatewayMessage(gateway, gatewayMessageId) }));
    return result.Item ? Number(result.Item.messageId) : undefined;
  }

  /** The status rule: only from a status that may move to this one (domain/message-status.ts). */
  async #move(id: number, status: MessageStatus, at: Date, extra: Record<string, NativeAttributeValue>): Promise<Message | undefined> {
    const allowed = statusesBefore(status);
    const moved = await this.#changes.change(id, (item) =>
      allowed.includes(item.status as MessageStatus) ? { status, statusUpdatedAt: at.toISOString(), ...extra } : undefined,
    );
    return moved && fromMessageItem(moved);
  }
}

/** Each part's report is an attribute of its own: one write sets it without reading the rest. */
function partAttribute(part: number): string {
  return `part${part}Status`;
}
