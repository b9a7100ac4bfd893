import { normalizeGatewayMessageId } from '../domain/messages';
/**
 * Every key format of the single table, built from labelled segments. Items carry
 * generic key attributes (pk, sk, gsi1pk, gsi1sk) and an `entity` attribute.
 *
 * | entity  | pk                 | sk        | gsi1pk                      | gsi1sk              |
 * |---------|--------------------|-----------|-----------------------------|---------------------|
 * | Account | ACCOUNT#<id>       | #ACCOUNT  | ACCOUNTS                    | <id, padded>        |
 * | ApiKey  | APIKEY#<sha256>    | #APIKEY   | ACCOUNT#<id>#APIKEYS        | <keyId>             |
 * | Link    | LINK#<id>          | #LINK     | ACCOUNT#<id>#LINKS          | <createdAt>#<id>    |
 * | LinkClicks | LINK#<id>       | #CLICKS   |                             |                     |
 * | ClickBucket | LINK#<id>      | STATS#<type>#<param> |                  |                     |
 * | ClickBatch  | CLICKBATCH#<key> | #CLICKBATCH | CLICKBATCHES#<minute>   | <key>               |
 * | ClickBatchDone | CLICKBATCH#<key> | #DONE |                           |                     |
 * | ClickRankPending | RANKS#PENDING | <batch key> |                           |                     |
 * | Campaign | CAMPAIGN#<id>     | #CAMPAIGN | CAMPAIGNS#HELD (only while in MODERATION) | <createdAt>#<id> |
 * | Message | MESSAGE#<id>       | #MESSAGE  | ACCOUNT#<id>#MESSAGES       | <createdAt>#<id>    |
 * | Scheduled | SCHEDULE#<minute> | SEND#<campaign id>, EXPIRE#<message id> or RECOVER#<message id> |  |                 |
 * | GatewayMessage | GATEWAYMSG#<gateway>#<gateway id> | #GATEWAYMSG |         |                     |
 * | Counter | COUNTER#<name>     | #COUNTER  |                             |                     |
 * | Setting | SETTING#<name>     | #SETTING  |                             |                     |
 *
 * Operator tokens and the audit log: operator-keys.ts (kept out of the API functions' bundles).
 * A link's list index keys (gsi2..gsi7), its comment-word items and its counter items: link-keys.ts.
 * | Count   | ACCOUNT#<id>#COUNTS | <counter name> |                          |                     |
 * (an entity with an unfinished counted change: gsi12pk CNTPEND#<0..15>, gsi12sk <change id>)
 */

export const GSI1 = 'gsi1';

export type Key = { pk: string; sk: string };

const pad = (id: number) => String(id).padStart(15, '0');
const AMBIGUOUS_MESSAGES = 'AMBIGUOUS#MESSAGES';
const CLICK_RANKS_PENDING = 'RANKS#PENDING';
const HELD_CAMPAIGNS = 'CAMPAIGNS#HELD';

export const keys = {
  account: (id: number): Key => ({ pk: `ACCOUNT#${id}`, sk: '#ACCOUNT' }),
  accountsIndex: (id: number) => ({ gsi1pk: 'ACCOUNTS', gsi1sk: pad(id) }),
  allAccounts: () => 'ACCOUNTS',

  apiKey: (hash: string): Key => ({ pk: `APIKEY#${hash}`, sk: '#APIKEY' }),
  apiKeyIndex: (accountId: number, keyId: string) => ({ gsi1pk: accountApiKeys(accountId), gsi1sk: keyId }),
  accountApiKeys,

  link: (id: number): Key => ({ pk: `LINK#${id}`, sk: '#LINK' }),
  linkIndex: (accountId: number, createdAt: string, id: number) => ({
    gsi1pk: accountLinks(accountId),
    gsi1sk: `${createdAt}#${pad(id)}`,
  }),
  accountLinks,
  /** A link's click totals and recent buckets, kept apart from the link so counting touches no index. */
  linkClicks: (id: number): Key => ({ pk: `LINK#${id}`, sk: '#CLICKS' }),

  clickBucket: (linkId: number, type: string, param: string): Key => ({ pk: `LINK#${linkId}`, sk: `STATS#${type}#${param}` }),
  clickBatch: (batchKey: string): Key => ({ pk: `CLICKBATCH#${batchKey}`, sk: '#CLICKBATCH' }),
  clickBatchDone: (batchKey: string): Key => ({ pk: `CLICKBATCH#${batchKey}`, sk: '#DONE' }),
  /** Batches by the UTC minute they were claimed in (`2026-11-22T10:05`), to find recent ones. */
  clickBatchIndex: (batchKey: string, minute: string) => ({ gsi1pk: clickBatchesAt(minute), gsi1sk: batchKey }),
  clickBatchesAt,
  /** Links a counted batch changed, waiting for the rank pass to move their clickCnt keys (store/click-ranks.ts). */
  clickRankPending: (batchKey: string): Key => ({ pk: CLICK_RANKS_PENDING, sk: batchKey }),
  clickRanksPending: () => CLICK_RANKS_PENDING,

  campaign: (id: number): Key => ({ pk: `CAMPAIGN#${id}`, sk: '#CAMPAIGN' }),
  /** Sparse: a campaign carries it only while held in MODERATION, so the index lists exactly the held ones, oldest first. */
  heldCampaignIndex: (createdAt: string, id: number) => ({ gsi1pk: HELD_CAMPAIGNS, gsi1sk: `${createdAt}#${pad(id)}` }),
  heldCampaigns: () => HELD_CAMPAIGNS,
  /** Deferred campaigns by the UTC minute they are due in (`2026-11-22T10:05`). */
  /** A timed task in the minute it is due: `SEND#<campaign id>`, `EXPIRE#<message id>` or `RECOVER#<message id>`. */
  scheduled: (minute: string, task: string, id: number): Key => ({ pk: `SCHEDULE#${minute}`, sk: `${task}#${pad(id)}` }),
  scheduledAt: (minute: string) => `SCHEDULE#${minute}`,
  /** A webhook event's next try, in the minute it is due. */
  scheduledWebhookTry: (minute: string, eventId: string): Key => ({ pk: `SCHEDULE#${minute}`, sk: `WEBHOOK#${eventId}` }),
  /** An account's webhooks live in the account's partition. */
  webhook: (accountId: number, id: string): Key => ({ pk: `ACCOUNT#${accountId}`, sk: `WEBHOOK#${id}` }),
  webhookEvent: (eventId: string): Key => ({ pk: `WEBHOOKEVENT#${eventId}`, sk: '#EVENT' }),
  message: (id: number): Key => ({ pk: `MESSAGE#${id}`, sk: '#MESSAGE' }),
  /** Messages flagged ambiguous (may or may not have gone out), for operators to reconcile. */
  ambiguousMessage: (id: number): Key => ({ pk: AMBIGUOUS_MESSAGES, sk: `MESSAGE#${pad(id)}` }),
  ambiguousMessages: () => AMBIGUOUS_MESSAGES,
  messageIndex: (accountId: number, createdAt: string, id: number) => ({
    gsi1pk: `ACCOUNT#${accountId}#MESSAGES`,
    gsi1sk: `${createdAt}#${pad(id)}`,
  }),
  /** Gateway message ids are normalised (lowercase) before they become keys. */
  gatewayMessage: (gateway: string, gatewayMessageId: string): Key => ({
    pk: `GATEWAYMSG#${gateway}#${normalizeGatewayMessageId(gatewayMessageId)}`,
    sk: '#GATEWAYMSG',
  }),

  counter: (name: string): Key => ({ pk: `COUNTER#${name}`, sk: '#COUNTER' }),
  setting: (name: string): Key => ({ pk: `SETTING#${name}`, sk: '#SETTING' }),
  /**
   * The migration (admin migrate): the run, and each Scan segment's position. v3: a pass
   * after v2's also puts messages into their text's counter, so a table v2 completed runs again.
   * v4: brings message times that lie before their creation up to it (message lists rely on it).
   * v5: counts links by the starts of their comment words, and messages by the digits their
   * number starts and ends with, so those searches take their totals from counters.
   * v6: counts messages by status × campaign status, and per sender, so combinations of
   * those criteria take their totals from counters.
   * v7: files each distinct comment's counter under each of its words, so several comment
   * words take their totals from the comments having the rarest one; counts messages by
   * status in the hourly cells of their creation and status-update days.
   * v8: puts links with a comment in the clickCnt order of their comment (gsi13); counts
   * messages by status in the hourly cells of their sending day.
   * v9: puts the comment word items of links in the clickCnt order of their word (gsi14).
   * v10: puts them in the expirationDate, code and fullLink orders of their word too (gsi16–gsi18).
   * v11: puts links with a comment in their comment's partitions of gsi14 and gsi16–gsi18 (gsi14pk),
   * and every link in its flags' and month's clickCnt order (gsi19).
   * v12: counts links with a comment in their comment's day counters (`LINKS#CD#…`), so a
   * comment query with a creation range takes its total from the range's days; writes again
   * the sending and status-update keys of messages written before those ended with the status.
   * v13: counts messages in their sender's day items (`MESSAGES#FD#…`), so a sender with a
   * creation range takes its total from the range's days.
   */
  migration: (): Key => ({ pk: 'SETTING#migrate-v13', sk: '#SETTING' }),
  migrationSegment: (segment: number): Key => ({ pk: `SETTING#migrate-v13#${segment}`, sk: '#SETTING' }),

  /** An account's counter items (exact totals), one partition per account; the sk names the counter. */
  counts: (accountId: number, name: string): Key => ({ pk: accountCounts(accountId), sk: name }),
  accountCounts,
  /** An entity with an unfinished counted change, in gsi12 by the change's id (a ULID), spread over PENDING_SHARDS partitions. */
  countedPending: (opId: string) => ({ gsi12pk: countedPendingShard(shardOf(opId)), gsi12sk: opId }),
  countedPendingShard,
};

/** Partitions of gsi12's unfinished counted changes. */
export const PENDING_SHARDS = 16;

function countedPendingShard(shard: number): string {
  return `CNTPEND#${shard}`;
}

/** FNV-1a of the id, so the changes of one instant spread over the shards. */
function shardOf(opId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < opId.length; i++) hash = Math.imul(hash ^ opId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % PENDING_SHARDS;
}

function accountCounts(accountId: number): string {
  return `ACCOUNT#${accountId}#COUNTS`;
}

function clickBatchesAt(minute: string): string {
  return `CLICKBATCHES#${minute}`;
}

function accountApiKeys(accountId: number): string {
  return `ACCOUNT#${accountId}#APIKEYS`;
}

function accountLinks(accountId: number): string {
  return `ACCOUNT#${accountId}#LINKS`;
}
