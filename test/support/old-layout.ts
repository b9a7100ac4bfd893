import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { AccountService } from '../../shared/domain/account-service';
import { LinkCodec } from '../../shared/domain/link-code';
import { cryptoRandomInt, ulidAt } from '../../shared/ids';
import { AccountsRepository, ApiKeysRepository } from '../../shared/store/accounts-repo';
import type { Store } from '../../shared/store/client';
import { withoutNulls } from '../../shared/store/items';
import { keys } from '../../shared/store/keys';
import { SettingsRepository } from '../../shared/store/settings-repo';
import { tableDefinition } from '../../shared/store/table';

/**
 * A table as the previous version made and filled it: the definition with gsi1 only, and
 * links, messages and campaigns shaped exactly as its repositories wrote them (no schema,
 * no list index keys). The data are chosen so the previous lists and the current ones must
 * agree: every value a case sorts ascending by is distinct (ties were newest first in both
 * directions before, and follow the direction now), strings are lowercase ASCII (locale
 * and byte order agree), comment queries are whole words or word starts found nowhere
 * else, `to` queries are whole numbers, prefixes or suffixes found nowhere in the middle,
 * and no item sits within a second of a time criterion's edge.
 */

type Item = Record<string, NativeAttributeValue>;

export const ACCOUNT = 500;
export const OTHER_ACCOUNT = 501;
export const LINK_CODE_SECRET = '6f1d2c3b4a5968778695a4b3c2d1e0f1f2e3d4c5b6a798877665544332211000';
const BASE = Date.parse('2026-09-01T00:00:00.000Z');
const HOUR = 60 * 60_000;

export function oldTableDefinition(tableName: string): CreateTableCommandInput {
  const current = tableDefinition(tableName);
  return {
    ...current,
    AttributeDefinitions: current.AttributeDefinitions!.filter((a) => ['pk', 'sk', 'gsi1pk', 'gsi1sk'].includes(a.AttributeName!)),
    GlobalSecondaryIndexes: current.GlobalSecondaryIndexes!.filter((index) => index.IndexName === 'gsi1'),
  };
}

/** A deterministic sequence, so the fixture (and the answers recorded on it) never move. */
function sequence(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const shuffled = <T>(values: T[]) => {
    const copy = [...values];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  };
  return { next, shuffled };
}

const iso = (t: number) => new Date(t).toISOString();
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A ULID-shaped message uuid (time part and a fixed-sequence random part). */
function uuid(at: number, rnd: () => number): string {
  let time = '';
  for (let t = at, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  return time + Array.from({ length: 16 }, () => CROCKFORD[Math.floor(rnd() * 32)]).join('');
}

const WORDS = ['spring', 'newsletter', 'winter', 'launch', 'promo', 'partner', 'invoice', 'survey', 'webinar', 'coupon', 'loyalty'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export interface OldData {
  items: Item[];
  /** Values the list cases search for. */
  samples: { code: string; trackingCode: string; to: string; toSuffix: string; campaignIds: number[] };
}

export function oldData(): OldData {
  const codec = new LinkCodec(LINK_CODE_SECRET);
  const rnd = sequence(7);
  const items: Item[] = [];
  const links: Item[] = [];
  const clickCounts = rnd.shuffled(Array.from({ length: 45 }, (_, i) => i * 7 + 3));
  const expirations = rnd.shuffled(Array.from({ length: 45 }, (_, i) => iso(Date.parse('2027-01-01') + i * 3 * 24 * HOUR).slice(0, 10)));
  for (let i = 0; i < 45; i++) {
    const id = 1001 + i;
    const accountId = i < 40 ? ACCOUNT : OTHER_ACCOUNT;
    const createdAt = iso(BASE + i * 5 * HOUR + 13 * 60_000 + 7_123);
    const shortened = i % 3 === 1;
    const expirationDate = i === 17 ? null : expirations[i]!;
    const path = Array.from({ length: 8 }, () => LETTERS[Math.floor(rnd.next() * 26)]).join('');
    const link = {
      id,
      accountId,
      code: codec.encode(id),
      fullLink: `https://example.com/${path}`,
      status: i % 5 === 0 ? 0 : 1,
      moderatorStatus: i === 9 || i === 22 ? 0 : 1,
      moderatorComment: i === 9 ? 'blocked by a moderator' : null,
      comment: i % 4 === 3 ? null : `${WORDS[i % WORDS.length]} ${WORDS[(i * 5 + 2) % WORDS.length]} ${i}`,
      expirationDate,
      expiresAt: expirationDate && `${expirationDate}T23:59:59.999Z`,
      clickCnt: clickCounts[i]!,
      redirectCnt: clickCounts[i]! + (i % 3),
      createdAt,
      campaignId: shortened ? 3001 + i : null,
      trackingCode: shortened ? uuid(Date.parse(createdAt), rnd.next) : null,
    };
    links.push(link);
    items.push({ ...keys.link(id), ...keys.linkIndex(accountId, createdAt, id), entity: 'Link', ...withoutNulls(link) });
  }

  const SENDERS = ['alerts', 'shopco', 'info', 'news'];
  const TEXTS = ['your order has shipped.', 'reminder: your appointment is tomorrow.', 'thanks for your purchase!'];
  const STATUSES = ['DELIVRD', 'DELIVRD', 'UNDELIV', 'ACCEPTD', 'EXPIRED', 'DELIVRD', 'REJECTD', 'PDLIVRD', 'DELETED', 'DELIVRD'];
  const recipients = rnd.shuffled([
    ...Array.from({ length: 12 }, (_, i) => `4477009${String(10_000 + i * 7_919).padStart(5, '0')}`),
    ...Array.from({ length: 10 }, (_, i) => `49151${String(30_000_000 + i * 1_234_567)}`),
    ...Array.from({ length: 13 }, (_, i) => `1202555${String(1_000 + i * 613)}`),
  ]);
  const segments = rnd.shuffled(Array.from({ length: 35 }, (_, i) => i + 1));
  const messages: Item[] = [];
  for (let i = 0; i < 35; i++) {
    const id = 2001 + i;
    const campaignId = 4001 + i;
    const accountId = i < 30 ? ACCOUNT : OTHER_ACCOUNT;
    const createdAt = iso(BASE + i * 7 * HOUR + 29 * 60_000 + 11_357);
    const held = i === 12;
    const status = held ? 'NEW' : STATUSES[i % STATUSES.length]!;
    const startSendAt = held ? null : iso(Date.parse(createdAt) + 1_500 + i * 37);
    const statusUpdatedAt = startSendAt && iso(Date.parse(startSendAt) + 60_000 + i * 1_009);
    const campaignStatus = held ? 'MODERATION' : ['ACCEPTD', 'PDLIVRD'].includes(status) ? 'SENT' : 'DONE';
    const text = i % 4 === 0 ? TEXTS[(i / 4) % 3]! : `your verification code is ${String(100_000 + i * 7_717)}`;
    const to = recipients[i]!;
    const campaign = {
      id: campaignId,
      accountId,
      messageId: id,
      name: i % 3 === 0 ? `campaign ${i}` : null,
      status: campaignStatus,
      linkIds: [],
      createdAt,
      sentAt: startSendAt,
      deferredTo: null,
    };
    const message = {
      id,
      accountId,
      campaignId,
      from: SENDERS[i % SENDERS.length]!,
      to,
      text,
      segNum: segments[i]!,
      segUserBuy: 0.05,
      status,
      uuid: uuid(Date.parse(createdAt), rnd.next),
      countryA2: to.startsWith('44') ? 'GB' : to.startsWith('49') ? 'DE' : 'US',
      validityMinutes: 1440,
      createdAt,
      startSendAt,
      statusUpdatedAt,
      gateway: held ? null : 'simulator',
      gatewayMessageId: held ? null : `sim-${id}`,
      submitState: null,
    };
    messages.push(message);
    items.push({ ...keys.campaign(campaignId), entity: 'Campaign', ...withoutNulls(campaign) });
    items.push({ ...keys.message(id), ...keys.messageIndex(accountId, createdAt, id), entity: 'Message', ...withoutNulls(message) });
  }
  const own = messages.filter((m) => m.accountId === ACCOUNT);
  const to = own[5]!.to as string;
  const toSuffix = (own[8]!.to as string).slice(-4);
  // The searches find what both the previous containment and the current prefix/suffix reading find.
  for (const needle of ['4477009', toSuffix, to]) {
    const contains = own.filter((m) => m.to.includes(needle)).length;
    const ends = own.filter((m) => m.to.startsWith(needle) || m.to.endsWith(needle)).length;
    if (contains !== ends) throw new Error(`The fixture's numbers hold ${needle} in the middle`);
  }
  for (const needle of ['webinar', 'laun']) {
    if (links.some((l) => l.code.includes(needle))) throw new Error(`A code holds ${needle}`);
  }
  return {
    items,
    samples: {
      code: links[20]!.code,
      trackingCode: links[31]!.trackingCode,
      to,
      toSuffix,
      campaignIds: [own[3]!.campaignId, own[11]!.campaignId, own[12]!.campaignId, messages[32]!.campaignId],
    },
  };
}

/** A list call: the operation and its parameters. */
export interface ListCase {
  name: string;
  path: 'Link/List' | 'Message/List';
  body: Record<string, string>;
}

export function listCases(samples: OldData['samples']): ListCase[] {
  const link = (name: string, body: Record<string, string>): ListCase => ({ name: `Link/List ${name}`, path: 'Link/List', body });
  const message = (name: string, body: Record<string, string>): ListCase => ({ name: `Message/List ${name}`, path: 'Message/List', body });
  const cases = [link('default', {}), link('second page', { 'pagination[currentPage]': '1' })];
  for (const field of ['createTs', 'expirationDate', 'clickCnt', 'code', 'fullLink'])
    for (const direction of ['ASC', 'DESC']) cases.push(link(`sort[${field}]=${direction}`, { [`sort[${field}]`]: direction }));
  cases.push(
    link('status=0', { 'criteria[status]': '0' }),
    link('moderatorStatus=0', { 'criteria[moderatorStatus]': '0' }),
    link('status=1 moderatorStatus=1 sort[fullLink]=ASC', { 'criteria[status]': '1', 'criteria[moderatorStatus]': '1', 'sort[fullLink]': 'ASC' }),
    link('createTs week', { 'criteria[createTsFrom]': '2026-09-03 00:00:00', 'criteria[createTsTo]': '2026-09-09 23:59:59' }),
    link('status=1 + createTs week + sort[clickCnt]=DESC', {
      'criteria[status]': '1',
      'criteria[createTsFrom]': '2026-09-03 00:00:00',
      'criteria[createTsTo]': '2026-09-09 23:59:59',
      'sort[clickCnt]': 'DESC',
    }),
    link('query exact code', { 'criteria[query]': samples.code }),
    link('query tracking code', { 'criteria[query]': samples.trackingCode }),
    link('query comment word', { 'criteria[query]': 'webinar' }),
    link('query comment word start', { 'criteria[query]': 'laun' }),
    message('default', {}),
    message('second page', { 'pagination[currentPage]': '1' }),
  );
  for (const [field, directions] of [
    ['campaignId', ['ASC', 'DESC']],
    ['from', ['DESC']],
    ['to', ['ASC', 'DESC']],
    ['text', ['DESC']],
    ['status', ['DESC']],
    ['startSendTs', ['ASC', 'DESC']],
    ['statusUpdateTs', ['ASC', 'DESC']],
    ['segNum', ['ASC', 'DESC']],
  ] as const)
    for (const direction of directions) cases.push(message(`sort[${field}]=${direction}`, { [`sort[${field}]`]: direction }));
  const week = (name: string) => ({ [`criteria[${name}From]`]: '2026-09-04 00:00:00', [`criteria[${name}To]`]: '2026-09-10 23:59:59' });
  cases.push(
    message('campaignIds', { 'criteria[campaignIds]': samples.campaignIds.join(',') }),
    message('status=DELIVRD', { 'criteria[status]': 'DELIVRD' }),
    message('from=shopco', { 'criteria[from]': 'shopco' }),
    message('to whole number', { 'criteria[to]': samples.to }),
    message('to prefix', { 'criteria[to]': '4477009' }),
    message('to suffix', { 'criteria[to]': samples.toSuffix }),
    message('text', { 'criteria[text]': 'your order has shipped.' }),
    message('campaignStatus=SENT', { 'criteria[campaignStatus]': 'SENT' }),
    message('campaignStatus=MODERATION', { 'criteria[campaignStatus]': 'MODERATION' }),
    message('campaignStatus=NOT_YET_SENT', { 'criteria[campaignStatus]': 'NOT_YET_SENT' }),
    message('status=DELIVRD sort[segNum]=ASC', { 'criteria[status]': 'DELIVRD', 'sort[segNum]': 'ASC' }),
  );
  for (const range of ['campaignCreateTs', 'campaignSentTs', 'startSendTs', 'statusUpdateTs']) cases.push(message(`${range} week`, week(range)));
  return cases;
}

/** Fixed API keys of the fixture's two accounts. */
export const API_KEYS: Record<number, string> = {
  [ACCOUNT]: 'oldlayout000000000000000000000000000key1',
  [OTHER_ACCOUNT]: 'oldlayout000000000000000000000000000key2',
};

/** Writes the fixture into the store's table: the two accounts and their keys, the code secret, the links, messages and campaigns. */
export async function writeOldData(store: Store, data: OldData): Promise<void> {
  for (const id of [ACCOUNT, OTHER_ACCOUNT]) {
    const accounts = new AccountService({
      accounts: new AccountsRepository(store),
      apiKeys: new ApiKeysRepository(store),
      ids: { next: async () => id },
      keyIds: ulidAt,
      random: cryptoRandomInt,
      clock: () => new Date(BASE),
      authCacheTtlMs: 0,
    });
    await accounts.createAccount({ name: `old layout ${id}`, timeZone: 'UTC' });
    await accounts.issueKey(id, API_KEYS[id]);
  }
  await new SettingsRepository(store).put('link-code-secret', LINK_CODE_SECRET);
  for (let start = 0; start < data.items.length; start += 25) {
    await store.db.send(
      new BatchWriteCommand({ RequestItems: { [store.tableName]: data.items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })) } }),
    );
  }
}
