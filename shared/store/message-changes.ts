import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, type NativeAttributeValue, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CampaignStatus } from '../domain/campaigns';
import type { CampaignState } from '../domain/message-listing';
import type { Message } from '../domain/messages';
import { systemClock, ulidAt } from '../ids';
import type { Store } from './client';
import { type CountedOp, CountedWrites } from './counted-writes';
import { withoutNulls } from './items';
import { keys } from './keys';
import { COUNTED_FLAGS, type CountedIn, countsOf } from './message-counts';
import { fromMessageItem } from './message-items';
import { type MessageKeyFields, messageIndexKeys } from './message-keys';

export type Item = Record<string, NativeAttributeValue>;
/** What a change sets; null removes the attribute. */
export type Changes = Record<string, NativeAttributeValue | null>;

/** Items written by this code: index attributes, the campaign's state copied, counted. */
export const MESSAGE_SCHEMA = 2;
/** Attributes the index keys and counts are made from: a change is conditional on them as read. */
const GUARDED = ['status', 'statusUpdatedAt', 'startSendAt', 'campaignStatus', 'deferred', 'schema', ...Object.values(COUNTED_FLAGS)] as const;
/** A change retried this many times against concurrent changes gives up loudly. */
const MAX_ATTEMPTS = 20;

/**
 * Every write of a message that moves its index keys or its counts. Each is one conditional
 * single-item write (a Put at creation, else an UpdateItem of what changes, conditional on
 * the attributes it was computed from), marked with its counter additions, which
 * CountedWrites completes after it (and recovers after a crash). A message written by the
 * previous version (no `schema` 2) is upgraded by its next change: index attributes, the
 * campaign's state, and counted as new; one not yet in its text's counter (no
 * `textCounted`, written before that counter was kept), its number's (no `toCounted`), the
 * combinations' (no `combosCounted`: comboCells) or any other of COUNTED_FLAGS
 * (message-counts.ts) is added to them by its next change.
 */
export class MessageChanges {
  constructor(
    private readonly store: Store,
    readonly counted: CountedWrites = new CountedWrites(store, () => ulidAt(systemClock())),
  ) {}

  async create(message: Message, campaign: CampaignState): Promise<void> {
    const { item, op } = messageCreation(message, campaign);
    const marked = this.counted.mark(op);
    const key = keys.message(message.id);
    await this.store.db.send(
      new PutCommand({
        TableName: this.store.tableName,
        Item: { ...item, ...marked.set },
        ConditionExpression: `attribute_not_exists(pk) AND ${marked.condition}`,
      }),
    );
    await this.counted.finish(key, marked);
  }

  async get(id: number): Promise<Item | undefined> {
    const result = await this.store.db.send(new GetCommand({ TableName: this.store.tableName, Key: keys.message(id), ConsistentRead: true }));
    return result.Item;
  }

  /**
   * Reads the message and writes what `decide` makes of it (undefined: nothing to do),
   * again on a concurrent change. The item after, or undefined if absent or left as it was.
   */
  async change(id: number, decide: (item: Item) => Changes | undefined): Promise<Item | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const item = await this.get(id);
      if (!item) return undefined;
      const changes = decide(item);
      if (!changes) return undefined;
      const after = await this.apply(item, changes);
      if (after !== 'changed') return after;
    }
    throw new Error(`Message ${id} kept changing while being written`);
  }

  /**
   * One conditional write of `changes` over `item` as it was read: 'changed' when the item
   * changed since (a pending counted change of another write is completed first).
   */
  async apply(item: Item, asked: Changes): Promise<Item | 'changed'> {
    const current = item.schema === MESSAGE_SCHEMA;
    const state = current ? campaignStateOfItem(item) : await this.#campaignState(Number(item.campaignId));
    const changes = { ...asked, ...timesNotBeforeCreation({ ...item, ...asked }) };
    const merged: Item = { ...item, ...stateAttributes(state), ...changes };
    const before = current ? keyFields(item) : undefined;
    const flags = Object.entries(COUNTED_FLAGS) as [keyof CountedIn, string][];
    const counted = Object.fromEntries(flags.map(([name, flag]) => [name, current && item[flag] === 1])) as unknown as CountedIn;
    const after = keyFields(merged);
    const sets: Record<string, NativeAttributeValue> = current ? {} : { schema: MESSAGE_SCHEMA, ...stateAttributes(state) };
    for (const [name, flag] of flags) if (!counted[name]) sets[flag] = 1;
    const removes: string[] = [];
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) {
        if (item[name] !== undefined) removes.push(name);
      } else sets[name] = value;
    }
    const oldIndex = before ? messageIndexKeys(before) : {};
    // A string key stored otherwise than this version writes it (gsi2sk and gsi4sk before their status suffix) is written again.
    for (const [name, value] of Object.entries(messageIndexKeys(after)))
      if (oldIndex[name] !== value || (typeof value === 'string' && item[name] !== value)) sets[name] = value;
    const counters = countsOf(before, after, counted);
    const marked = counters.length > 0 ? this.counted.mark({ counters }) : undefined;
    Object.assign(sets, marked?.set);

    const names: Record<string, string> = {};
    const values: Record<string, NativeAttributeValue> = {};
    const name = (attribute: string) => {
      names[`#${attribute}`] = attribute;
      return `#${attribute}`;
    };
    const guards = ['attribute_exists(pk)'];
    for (const attribute of GUARDED) {
      if (item[attribute] === undefined) guards.push(`attribute_not_exists(${name(attribute)})`);
      else {
        values[`:was_${attribute}`] = item[attribute];
        guards.push(`${name(attribute)} = :was_${attribute}`);
      }
    }
    if (marked) guards.push(marked.condition);
    const setList = Object.entries(sets).map(([attribute, value]) => {
      values[`:set_${attribute}`] = value;
      return `${name(attribute)} = :set_${attribute}`;
    });
    const removeList = [...new Set(removes)].filter((attribute) => sets[attribute] === undefined).map(name);
    const key = keys.message(Number(item.id));
    try {
      const result = await this.store.db.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: key,
          UpdateExpression: [setList.length > 0 && `SET ${setList.join(', ')}`, removeList.length > 0 && `REMOVE ${removeList.join(', ')}`]
            .filter(Boolean)
            .join(' '),
          ConditionExpression: guards.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      if (marked) await this.counted.finish(key, marked);
      return result.Attributes ?? {};
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // Changed since it was read, or another write's count is still pending on it.
      await this.counted.settle(key);
      return 'changed';
    }
  }

  async #campaignState(campaignId: number): Promise<CampaignState> {
    const result = await this.store.db.send(
      new GetCommand({ TableName: this.store.tableName, Key: keys.campaign(campaignId), ConsistentRead: true }),
    );
    return { status: (result.Item?.status as CampaignStatus | undefined) ?? 'NEW', deferred: result.Item?.deferredTo !== undefined };
  }
}

const TIMES = ['startSendAt', 'statusUpdatedAt'] as const;

/**
 * A message's sending and status times are never before its creation: a time a report
 * brings (Kannel's `ts` in whole seconds, a gateway's or an SMSC's clock) or another
 * process's clock may be, and is then recorded as the creation time. Message/List relies
 * on it: a startSendTs or statusUpdateTs range's messages were created before its end
 * (message-time-ranges.ts). The changes that bring `item`'s times up to its creation.
 */
export function timesNotBeforeCreation(item: Item): Changes {
  const created = Date.parse(String(item.createdAt));
  const changes: Changes = {};
  for (const name of TIMES) {
    const value = item[name];
    if (typeof value === 'string' && Date.parse(value) < created) changes[name] = String(item.createdAt);
  }
  return changes;
}

/** What a message's creation writes: the item with its campaign's state copied, and its counted change. */
export function messageCreation(created: Message, campaign: CampaignState): { item: Item; op: CountedOp } {
  const message = { ...created, ...timesNotBeforeCreation(created) } as Message;
  const fields = keyFields({ ...message, campaignStatus: campaign.status, deferred: campaign.deferred });
  const item = {
    ...keys.message(message.id),
    entity: 'Message',
    ...withoutNulls(message),
    ...stateAttributes(campaign),
    schema: MESSAGE_SCHEMA,
    ...Object.fromEntries(Object.values(COUNTED_FLAGS).map((flag) => [flag, 1])),
    ...messageIndexKeys(fields),
  };
  return { item, op: { counters: countsOf(undefined, fields) } };
}

function stateAttributes(state: CampaignState): Item {
  return { campaignStatus: state.status, ...(state.deferred && { deferred: 1 }) };
}

/** The campaign's state as copied onto a message item. */
export function campaignStateOfItem(item: Item): CampaignState {
  return { status: item.campaignStatus as CampaignStatus, deferred: item.deferred === 1 };
}

function keyFields(item: Item): MessageKeyFields {
  return {
    ...fromMessageItem(item),
    campaignStatus: item.campaignStatus as CampaignStatus,
    deferred: item.deferred === 1 || item.deferred === true,
  };
}
