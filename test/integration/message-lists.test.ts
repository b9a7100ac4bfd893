import fc from 'fast-check';
import { CAMPAIGN_STATUSES, type CampaignStatus } from '../../shared/domain/campaigns';
import { type CampaignState, listMessages, type MessageQuery, type MessageSortField } from '../../shared/domain/message-listing';
import { MESSAGE_STATUSES, type MessageStatus } from '../../shared/domain/message-status';
import type { Message } from '../../shared/domain/messages';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { MessageChanges } from '../../shared/store/message-changes';
import { MessageCombinations } from '../../shared/store/message-combos';
import { IndexedMessageLists } from '../../shared/store/message-lists';
import { MessageRecipients } from '../../shared/store/message-recipients';
import { MessageStatusTimes, statusWithTime } from '../../shared/store/message-status-times';
import { MessageTimeCriteria } from '../../shared/store/message-time-criteria';
import { MessageTimeRanges } from '../../shared/store/message-time-ranges';
import { MessagesRepository } from '../../shared/store/messages-repo';
import { startTestStore } from '../support/dynamo';

/**
 * Message/List from the indexes against the pure rule (domain/message-listing.ts): random
 * messages in two accounts, written through the repositories as sending and reports write
 * them (created NEW, claimed, accepted, reported; campaigns moved), then random criteria,
 * sorts and pages, and every text alone, compared item by item and by total.
 */

let store: Store;
let close: () => Promise<void>;
let messages: MessagesRepository;
let campaigns: CampaignsRepository;
let lists: IndexedMessageLists;
/** The same, finding pages in creation order through gsi11 however near the ends they are. */
let farLists: IndexedMessageLists;
/** Pages of time ranges in creation order answered by reading creation order backward (not the range). */
let timeRangePages = 0;
/** criteria[to] alone: pages read from creation order by its counts, and totals from its counts with the matches read. */
const toPages = { creationOrder: 0, matches: 0 };
/** Status, campaign status and sender combined: pages by the way they were read, and totals left to reading the matches whole. */
const comboPages = new Map<string, number>();
/** Status with a time range: pages by the range's kind (C created, S sent, U updated) and the way they were read. */
const statusTimePages = new Map<string, number>();
/** A creation range with another criterion or a sort: pages by the way they were read (the criterion's key range, or the sort's index). */
const createdWithPages = new Map<string, number>();
let nextAccount = 1;
let nextId = 1;

beforeAll(async () => {
  ({ store, close } = await startTestStore());
  const changes = new MessageChanges(store);
  messages = new MessagesRepository(store, changes);
  campaigns = new CampaignsRepository(store, changes);
  const timeRanges = new MessageTimeRanges(store);
  const page = timeRanges.page.bind(timeRanges);
  timeRanges.page = async (...args) => {
    const answered = await page(...args);
    if (answered) timeRangePages++;
    return answered;
  };
  const recipients = new MessageRecipients(store, changes.counted);
  const recipientPage = recipients.page.bind(recipients);
  recipients.page = async (...args) => {
    const answered = await recipientPage(...args);
    if (answered && 'listing' in answered) toPages.creationOrder++;
    else if (answered) toPages.matches++;
    return answered;
  };
  const combinations = new MessageCombinations(store, changes.counted);
  const combinationPage = combinations.page.bind(combinations);
  combinations.page = async (...args) => {
    const answered = await combinationPage(...args);
    const way = answered && ('listing' in answered ? answered.driven : 'matches');
    if (way) comboPages.set(way, (comboPages.get(way) ?? 0) + 1);
    return answered;
  };
  const statusTimes = new MessageStatusTimes(store, changes.counted, timeRanges);
  const statusTimePage = statusTimes.page.bind(statusTimes);
  statusTimes.page = async (...args) => {
    const answered = await statusTimePage(...args);
    const way = answered && `${statusWithTime(args[1])}/${answered.way}`;
    if (way) statusTimePages.set(way, (statusTimePages.get(way) ?? 0) + 1);
    return answered;
  };
  const counting = (timeCriteria: MessageTimeCriteria) => {
    for (const name of ['withCriterion', 'withSort'] as const) {
      const way: (...args: never[]) => ReturnType<MessageTimeCriteria[typeof name]> = timeCriteria[name].bind(timeCriteria);
      timeCriteria[name] = async (...args: never[]) => {
        const answered = await way(...args);
        if (answered) createdWithPages.set(answered.way, (createdWithPages.get(answered.way) ?? 0) + 1);
        return answered;
      };
    }
    return timeCriteria;
  };
  const timeCriteria = counting(new MessageTimeCriteria(store, changes.counted));
  lists = new IndexedMessageLists(store, changes.counted, undefined, timeRanges, recipients, combinations, statusTimes, timeCriteria);
  // Whole messages weighed as dear as can be: a creation range with a sort is read from the sort's index however few its messages.
  const sortIndexFirst = counting(new MessageTimeCriteria(store, changes.counted, Number.MAX_SAFE_INTEGER));
  farLists = new IndexedMessageLists(store, changes.counted, -Infinity, undefined, undefined, undefined, undefined, sortIndexFirst);
});
afterAll(() => close());

const T0 = Date.parse('2026-11-20T00:00:00.000Z');
const MINUTE = 60_000;
const at = (minutes: number) => new Date(T0 + minutes * MINUTE);
const SENDERS = ['Alerts', 'Shop', 'Shop 2', 'SMS'];
const NUMBERS = ['447700900123', '447700900124', '447711100123', '77012345670', '4477009', '12312', '12321'];
/** Digits sought in numbers: starts, ends, both (`12`, `1`), whole numbers, a middle (`7009`) and none. */
const TO_DIGITS = ['4477', '123', '7009', '0012', '447700900123', '5', '9', '12', '1', '12312', '4477009', '3', '0'];
const TEXTS = ['Hi', 'Hi there', 'hi', 'Привет', 'é', '😀 ok', `${'a'.repeat(205)}x`, `${'a'.repeat(205)}y`];
const SORT_FIELDS: MessageSortField[] = ['campaignId', 'from', 'to', 'text', 'status', 'startSendTs', 'statusUpdateTs', 'segNum'];

interface Spec {
  account: 0 | 1;
  from: string;
  to: string;
  text: string;
  segNum: number;
  created: number;
  status: MessageStatus;
  sentAfter: number;
  updatedAfter: number;
  campaignStatus: CampaignStatus;
  deferred: boolean;
}

const spec: fc.Arbitrary<Spec> = fc.record({
  // Most in the first account, so that it has pages past the first and a last page read from the end.
  account: fc.oneof({ arbitrary: fc.constant(0 as const), weight: 4 }, { arbitrary: fc.constant(1 as const), weight: 1 }),
  // One sender and one status most messages have, as in a business's account: a combination with them is common.
  from: fc.oneof({ arbitrary: fc.constant('Alerts'), weight: 2 }, { arbitrary: fc.constantFrom(...SENDERS), weight: 3 }),
  to: fc.constantFrom(...NUMBERS),
  text: fc.constantFrom(...TEXTS),
  segNum: fc.integer({ min: 1, max: 3 }),
  // Few distinct minutes, so that creation times tie.
  created: fc.integer({ min: 0, max: 40 }).map((k) => k * 37),
  status: fc.oneof({ arbitrary: fc.constant<MessageStatus>('DELIVRD'), weight: 3 }, { arbitrary: fc.constantFrom(...MESSAGE_STATUSES), weight: 2 }),
  // Some before creation (another clock, a report's own time): recorded as the creation time.
  sentAfter: fc.integer({ min: -30, max: 300 }),
  updatedAfter: fc.integer({ min: -400, max: 300 }),
  campaignStatus: fc.constantFrom(...CAMPAIGN_STATUSES),
  deferred: fc.boolean(),
});

const SENT: ReadonlySet<MessageStatus> = new Set(['ACCEPTD', 'PDLIVRD', 'DELIVRD', 'UNDELIV', 'EXPIRED']);

/** Writes one message's life as the services do, up to its status and its campaign's. */
async function write(accountId: number, s: Spec): Promise<void> {
  const id = nextId++;
  const createdAt = at(s.created).toISOString();
  await campaigns.create({
    id,
    accountId,
    messageId: id,
    name: null,
    status: 'NEW',
    linkIds: [],
    createdAt,
    sentAt: null,
    deferredTo: s.deferred ? at(s.created + 120).toISOString() : null,
  });
  const message: Message = {
    id,
    accountId,
    campaignId: id,
    from: s.from,
    to: s.to,
    text: s.text,
    segNum: s.segNum,
    segUserBuy: 0.05,
    status: 'NEW',
    uuid: `U${id}`,
    countryA2: 'GB',
    validityMinutes: 1440,
    createdAt,
    startSendAt: null,
    statusUpdatedAt: null,
    gateway: null,
    gatewayMessageId: null,
    submitState: null,
  };
  await messages.create(message, { status: 'NEW', deferred: s.deferred });
  const sentAt = at(s.created + s.sentAfter);
  if (s.status !== 'NEW') await messages.claimForSend(id, at(s.created));
  if (SENT.has(s.status)) await messages.markAccepted(id, 'sim', `g${id}`, sentAt);
  if (s.status !== 'NEW' && s.status !== 'ENQUEUD' && s.status !== 'ACCEPTD') {
    await messages.applyStatus(id, s.status, new Date(sentAt.getTime() + s.updatedAfter * MINUTE));
  }
  if (s.campaignStatus !== 'NEW') await campaigns.move(id, ['NEW'], s.campaignStatus, SENT.has(s.status) ? sentAt.toISOString() : undefined);
}

/** Combinations of status, campaign status and sender: common (DELIVRD, Alerts, not yet sent) and rare, with and without a sort. */
const COMBINATIONS: (Pick<MessageQuery, 'status' | 'campaignStatus' | 'from'> & { sort?: MessageQuery['sort'] })[] = [
  { status: 'DELIVRD', from: 'Alerts' },
  { status: 'UNDELIV', from: 'Alerts' },
  { status: 'DELIVRD', campaignStatus: 'NOT_YET_SENT' },
  { status: 'DELIVRD', campaignStatus: 'DONE' },
  { campaignStatus: 'NOT_YET_SENT', from: 'Shop' },
  { campaignStatus: 'DEFERRED', from: 'Alerts' },
  { status: 'DELIVRD', campaignStatus: 'NOT_YET_SENT', from: 'Alerts' },
  { status: 'REJECTD', campaignStatus: 'MODERATION', from: 'SMS' },
  { status: 'DELIVRD', from: 'Alerts', sort: [{ field: 'segNum', direction: 'DESC' }] },
  { status: 'EXPIRED', from: 'Shop 2', sort: [{ field: 'segNum', direction: 'ASC' }] },
  { status: 'DELIVRD', campaignStatus: 'NOT_YET_SENT', sort: [{ field: 'to', direction: 'ASC' }] },
  { status: 'DELIVRD', from: 'Alerts', sort: [{ field: 'status', direction: 'DESC' }] },
  { status: 'DELIVRD', from: 'Alerts', sort: [{ field: 'from', direction: 'ASC' }] },
  { campaignStatus: 'DONE', sort: [{ field: 'campaignId', direction: 'DESC' }] },
];

/**
 * Status with a creation, sending or status time range: common, rare and absent statuses; whole hours, partial ones at the
 * edges, open ends; a campaign's sending time alone and with a message's (the same time, two criteria).
 */
const STATUS_TIMES: MessageQuery[] = (['DELIVRD', 'UNDELIV', 'EXPIRED', 'NEW'] as const).flatMap((status) =>
  [
    ...['campaignCreated', 'statusUpdate', 'startSend'].flatMap((name) =>
      [
        [at(-10), at(100_000)],
        [at(37), at(1000)],
        [at(540), undefined],
        [undefined, at(300)],
      ].map(([from, to]) => ({ ...(from && { [`${name}From`]: from }), ...(to && { [`${name}To`]: to }) })),
    ),
    { campaignSentFrom: at(37), campaignSentTo: at(1000) },
    { campaignSentFrom: at(-10), startSendFrom: at(120), startSendTo: at(1500), campaignSentTo: at(900) },
  ].flatMap((criteria) => [0, 1].map((currentPage) => ({ status, ...criteria, sort: [], pagination: { pageSize: 25 as const, currentPage } }))),
);

/** A creation range with each criterion one key range can serve (and some it cannot: a number others start with), in its own order too, and with each sort. */
const CREATED_RANGES: Pick<MessageQuery, 'campaignCreatedFrom' | 'campaignCreatedTo'>[] = [
  { campaignCreatedFrom: at(37), campaignCreatedTo: at(1000) },
  { campaignCreatedFrom: at(300) },
  { campaignCreatedTo: at(700) },
];
const CREATED_WITH: MessageQuery[] = [
  ...CREATED_RANGES.flatMap((range, r) =>
    [
      { from: 'Alerts' },
      { from: SENDERS[r + 1] },
      { text: 'Hi' },
      { text: TEXTS[6] },
      { to: '447700900123' },
      { to: '12312' },
      { to: '4477' },
      { campaignStatus: 'NOT_YET_SENT' as const },
      { campaignStatus: CAMPAIGN_STATUSES[r + 3] },
    ].map((criterion, c) => ({ ...range, ...criterion, sort: [], pagination: { pageSize: 25 as const, currentPage: c % 2 } })),
  ),
  { ...CREATED_RANGES[0], from: 'Alerts', sort: [{ field: 'from', direction: 'ASC' }], pagination: { pageSize: 25, currentPage: 0 } },
  { ...CREATED_RANGES[1], text: 'Hi', sort: [{ field: 'text', direction: 'DESC' }], pagination: { pageSize: 25, currentPage: 0 } },
  { ...CREATED_RANGES[2], to: '447700900124', sort: [{ field: 'to', direction: 'ASC' }], pagination: { pageSize: 25, currentPage: 0 } },
  ...SORT_FIELDS.flatMap((field, f) =>
    [0, 1].map(
      (currentPage): MessageQuery => ({
        ...CREATED_RANGES[f % 3],
        sort: [{ field, direction: f % 2 === 0 ? 'DESC' : 'ASC' }],
        pagination: { pageSize: 25, currentPage },
      }),
    ),
  ),
];

const instant = fc.integer({ min: -10, max: 1900 }).map(at);

/** A query; its campaign ids are positions among the run's messages, some past the last (no such campaign). */
function queryOf(): fc.Arbitrary<MessageQuery> {
  return fc
    .record({
      campaignIds: fc.uniqueArray(fc.integer({ min: 0, max: 75 }), { maxLength: 6 }),
      from: fc.constantFrom(...SENDERS, 'Nobody'),
      to: fc.constantFrom(...TO_DIGITS),
      text: fc.constantFrom(...TEXTS, 'Hi the'),
      status: fc.constantFrom(...MESSAGE_STATUSES),
      groups: fc.constant<string[]>(['5']),
      campaignStatus: fc.constantFrom(...CAMPAIGN_STATUSES, 'NOT_YET_SENT' as const, 'DEFERRED' as const),
      campaignCreatedFrom: instant,
      campaignCreatedTo: instant,
      campaignSentFrom: instant,
      campaignSentTo: instant,
      startSendFrom: instant,
      startSendTo: instant,
      statusUpdateFrom: instant,
      statusUpdateTo: instant,
    })
    .chain((criteria) =>
      fc
        .record({
          sort: fc.uniqueArray(fc.record({ field: fc.constantFrom(...SORT_FIELDS), direction: fc.constantFrom('ASC' as const, 'DESC' as const) }), {
            maxLength: 2,
            selector: (s) => s.field,
          }),
          pagination: fc.record({ pageSize: fc.constant(25 as const), currentPage: fc.integer({ min: 0, max: 2 }) }),
        })
        .map((rest) => ({ ...criteria, ...rest })),
    );
}

/** The query with only the criteria named. */
const withCriteria = (query: MessageQuery, names: string[]): MessageQuery => {
  const { sort, pagination, ...criteria } = query;
  return { ...Object.fromEntries(Object.entries(criteria).filter(([name]) => names.includes(name))), sort, pagination };
};
const CRITERIA = [
  'campaignIds',
  'from',
  'to',
  'text',
  'status',
  'groups',
  'campaignStatus',
  'campaignCreated',
  'campaignSent',
  'startSend',
  'statusUpdate',
];
/** A criterion's names in the query: a time range is one, with either end or both. */
const criterionNames: fc.Arbitrary<string[]> = fc
  .constantFrom(...CRITERIA)
  .chain(
    (name): fc.Arbitrary<string[]> =>
      ['campaignCreated', 'campaignSent', 'startSend', 'statusUpdate'].includes(name)
        ? fc.constantFrom<string[]>([`${name}From`], [`${name}To`], [`${name}From`, `${name}To`])
        : fc.constant([name]),
  );
/** None (a sort alone), mostly one criterion (served in its index's order), or up to three. */
const chosen: fc.Arbitrary<string[]> = fc.oneof(
  { arbitrary: fc.constant<string[]>([]), weight: 2 },
  { arbitrary: criterionNames, weight: 4 },
  { arbitrary: fc.array(criterionNames, { minLength: 2, maxLength: 3 }).map((names) => names.flat()), weight: 2 },
);

/** Writes the messages into two new accounts, then lists each query in both and compares it with the rule, item by item and by total. */
async function answersAsTheRule(specs: Spec[], queries: [MessageQuery, string[]][]): Promise<void> {
  const accounts = [nextAccount++, nextAccount++];
  const first = nextId;
  for (const s of specs) await write(accounts[s.account] as number, s);
  const ids = Array.from({ length: nextId - first }, (_, i) => first + i);
  const stored = await messages.getMany(ids);
  const states = new Map<number, CampaignState>(
    (await campaigns.getMany(ids)).map((campaign) => [campaign.id, { status: campaign.status, deferred: campaign.deferredTo !== null }]),
  );
  for (const [generated, names] of queries) {
    const query = withCriteria({ ...generated, campaignIds: generated.campaignIds?.map((i) => first + i) }, names);
    for (const accountId of accounts) {
      const expected = listMessages(
        stored.filter((m) => m.accountId === accountId),
        states,
        query,
      );
      for (const lister of [lists, farLists]) {
        const actual = await lister.list(accountId, query);
        const described = JSON.stringify(query);
        expect({ query: described, ids: actual.items.map(({ message }) => message.id), total: actual.totalItemCount }).toEqual({
          query: described,
          ids: expected.items.map(({ message }) => message.id),
          total: expected.totalItemCount,
        });
      }
    }
  }
}

const messageSpecs = fc.array(spec, { minLength: 30, maxLength: 60, size: 'max' });

/**
 * Values drawn once from fixed seeds, run first by each property: the ways counted after it
 * are reached on every run from these, whatever its random values draw.
 */
const covering = <T>(arbitrary: fc.Arbitrary<T>, seeds: number[]): T[] => seeds.map((seed) => fc.sample(arbitrary, { numRuns: 1, seed })[0] as T);

describe('Message/List from the indexes', () => {
  it('answers as the pure rule does, for random messages, criteria, sorts and pages', async () => {
    const randomQueries = fc.array(fc.tuple(queryOf(), chosen), { minLength: 24, maxLength: 24 });
    await fc.assert(
      fc.asyncProperty(messageSpecs, randomQueries, async (specs, queries) => {
        // Every text alone (its total from the text's counter, and its page read from the end that total says is nearer).
        const textQueries = [...TEXTS, 'Hi the'].map((text): [MessageQuery, string[]] => [
          { text, sort: [], pagination: { pageSize: 25, currentPage: 0 } },
          ['text'],
        ]);
        // Every time range alone over the whole data set, first page: a page creation order
        // answers (random queries reach that case only now and then).
        const timeQueries = ['campaignSent', 'startSend', 'statusUpdate'].map((name): [MessageQuery, string[]] => [
          { [`${name}From`]: at(-10), [`${name}To`]: at(100_000), sort: [], pagination: { pageSize: 25, currentPage: 0 } },
          [`${name}From`, `${name}To`],
        ]);
        // Every `to` alone, first and last pages: its total from the number counts, its page
        // from creation order or from the matches, whichever those counts say reads less.
        const toQueries = TO_DIGITS.flatMap((to) =>
          [0, 1].map((currentPage): [MessageQuery, string[]] => [{ to, sort: [], pagination: { pageSize: 25, currentPage } }, ['to']]),
        );
        // Status, campaign status and sender combined, common and rare, first and later pages, in
        // creation order and sorted: totals from their cells, pages read from an index in order.
        const comboQueries = COMBINATIONS.flatMap(({ sort = [], ...criteria }) =>
          [0, 1].map((currentPage): [MessageQuery, string[]] => [
            { ...criteria, sort, pagination: { pageSize: 25, currentPage } },
            Object.keys(criteria),
          ]),
        );
        const statusTimeQueries = STATUS_TIMES.map((query): [MessageQuery, string[]] => [query, Object.keys(query)]);
        await answersAsTheRule(specs, [...queries, ...textQueries, ...timeQueries, ...toQueries, ...comboQueries, ...statusTimeQueries]);
      }),
      { numRuns: 6, examples: covering(fc.tuple(messageSpecs, randomQueries), [1, 2]) },
    );
    // The property saw time ranges in creation order answered from creation order, not only from the range.
    expect(timeRangePages).toBeGreaterThan(0);
    // And `to` alone answered both ways its counts choose between.
    expect(toPages.creationOrder).toBeGreaterThan(0);
    expect(toPages.matches).toBeGreaterThan(0);
    // And status, campaign status and sender combined read from each index that can drive them, and from their matches whole.
    const ways = ['creation', 'status', 'campaignStatus', 'sort', 'matches'];
    expect(Object.fromEntries(ways.map((way) => [way, (comboPages.get(way) ?? 0) > 0]))).toEqual(Object.fromEntries(ways.map((way) => [way, true])));
    // And status with a time range: created in it from gsi10's key range, sent or updated in it through creation order and
    // through the status's entries.
    const timed = ['C/created', 'S/creation', 'S/status', 'U/creation', 'U/status'];
    expect(Object.fromEntries(timed.map((way) => [way, (statusTimePages.get(way) ?? 0) > 0]))).toEqual(
      Object.fromEntries(timed.map((way) => [way, true])),
    );
  }, 600_000);

  it('answers a creation range with another criterion or a sort, and a time range with text, as the pure rule does', async () => {
    // A sending or status time range with a text, a sender or a number, where the range or the criterion may drive.
    const timedWith = fc.tuple(
      fc.constantFrom('startSend', 'campaignSent', 'statusUpdate', 'campaignCreated'),
      fc.constantFrom<Partial<MessageQuery>>(
        { text: 'Hi' },
        { text: TEXTS[6] },
        { from: 'Alerts' },
        { to: '447700900123' },
        { text: 'hi', from: 'SMS' },
      ),
      instant,
      fc.integer({ min: 0, max: 600 }),
      fc.integer({ min: 0, max: 1 }),
    );
    const timedQueries = fc.array(timedWith, { minLength: 8, maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(messageSpecs, timedQueries, async (specs, timed) => {
        const timedQueries = timed.map(([name, criteria, from, minutes, currentPage]): [MessageQuery, string[]] => {
          const range = { [`${name}From`]: from, [`${name}To`]: new Date(from.getTime() + minutes * MINUTE) };
          return [{ ...criteria, ...range, sort: [], pagination: { pageSize: 25, currentPage } }, [...Object.keys(criteria), ...Object.keys(range)]];
        });
        const createdWithQueries = CREATED_WITH.map((query): [MessageQuery, string[]] => [query, Object.keys(query)]);
        await answersAsTheRule(specs, [...createdWithQueries, ...timedQueries]);
      }),
      { numRuns: 3, examples: covering(fc.tuple(messageSpecs, timedQueries), [1]) },
    );
    // A creation range with each criterion read from that criterion's key range; with a sort from its values' key ranges, and from the sort's index.
    const createdWays = ['from', 'text', 'to', 'campaignStatus', 'values', 'sortIndex'];
    expect(Object.fromEntries(createdWays.map((way) => [way, (createdWithPages.get(way) ?? 0) > 0]))).toEqual(
      Object.fromEntries(createdWays.map((way) => [way, true])),
    );
  }, 600_000);
});
