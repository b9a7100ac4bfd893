import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { LinkCodec } from '../../shared/domain/link-code';
import { type LinkQuery, listLinks } from '../../shared/domain/link-listing';
import type { Link } from '../../shared/domain/links';
import { type CampaignState, listMessages, type MessageQuery } from '../../shared/domain/message-listing';
import type { Message } from '../../shared/domain/messages';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { CountedWrites } from '../../shared/store/counted-writes';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import { keys } from '../../shared/store/keys';
import { linkCounts } from '../../shared/store/link-counts';
import { linkUpgrade } from '../../shared/store/link-migration';
import { linkCreation } from '../../shared/store/links-repo';
import { MessageChanges, messageCreation } from '../../shared/store/message-changes';
import { messageCounters } from '../../shared/store/message-keys';
import { IndexedMessageLists } from '../../shared/store/message-lists';
import { messageUpgrade } from '../../shared/store/message-migration';
import { MessagesRepository } from '../../shared/store/messages-repo';
import { migrate } from '../../shared/store/migration';
import { MigrationProgress } from '../../shared/store/migration-progress';
import { createCampaignOf } from '../support/before-text-counts';
import { startTestStore } from '../support/dynamo';
import { aLink, aMessage, anAccount } from '../support/fixtures';
import { testLinkService } from '../support/link-service';

/**
 * Long time ranges of Link/List and Message/List: whole days from the month counter items'
 * daily cells (`LINKS#M#<month>`, `MESSAGES#<C|S|U>#M#<month>`), kept by the same counted
 * changes as the day items; links and messages written before those items are counted in
 * them by their next change or by `admin migrate`, and until the migration has completed
 * the day items answer alone.
 */
let store: Store;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ store, close } = await startTestStore());
});
afterEach(() => close());

const HOUR = 60 * 60_000;
/** Four months from mid-December to mid-April, across a year's end and a short February. */
const T0 = Date.parse('2026-12-14T07:00:00.000Z');
const SPAN_HOURS = 24 * 122;
const codec = new LinkCodec('a-link-code-secret-of-32-characters!');
const counted = () => new CountedWrites(store, () => ulid());
/** Instant of item `i` of `n`: spread over the span, minutes apart within their hour, some on a day's first or last millisecond. */
const instant = (i: number, n: number) => {
  const hours = Math.floor((i * SPAN_HOURS) / n);
  if (i % 11 === 3) return new Date(T0 + hours * HOUR - (T0 % (24 * HOUR))).toISOString();
  if (i % 11 === 7) return new Date(T0 + hours * HOUR - (T0 % (24 * HOUR)) - 1).toISOString();
  return new Date(T0 + hours * HOUR + ((i * 7) % 60) * 60_000).toISOString();
};
const at = (iso: string) => new Date(iso);

/** Ranges over more than a week (the month items), within one (the day items), open ends, to the millisecond. */
const RANGES: [Date | undefined, Date | undefined][] = [
  [at('2026-12-20T13:30:00.000Z'), at('2027-03-02T04:10:00.000Z')],
  [at('2027-01-01T00:00:00.000Z'), at('2027-02-28T23:59:59.999Z')],
  [at('2026-12-31T23:59:59.999Z'), at('2027-03-01T00:00:00.000Z')],
  [at('2027-02-03T10:00:00.000Z'), at('2027-02-08T09:00:00.000Z')],
  [at('2027-01-15T12:00:00.000Z'), undefined],
  [undefined, at('2027-03-20T18:45:00.000Z')],
];

describe('Link/List over long createTs ranges', () => {
  const account = anAccount({ id: 7 });
  const service = () => testLinkService(new IndexedLinksRepository(store));
  const links = Array.from({ length: 90 }, (_, i) =>
    aLink({
      id: 1000 + i,
      accountId: account.id,
      code: codec.encode(1000 + i),
      status: i % 4 === 0 ? 0 : 1,
      moderatorStatus: i % 9 === 0 ? 0 : 1,
      createdAt: instant(i, 90),
    }),
  );
  const queries: LinkQuery[] = RANGES.flatMap(([from, to]) =>
    [{}, { status: 1 as const }, { moderatorStatus: 0 as const }].map((criteria) => ({
      ...criteria,
      ...(from && { createdFrom: from }),
      ...(to && { createdTo: to }),
      sort: [],
      pagination: { pageSize: 25, currentPage: 1 },
    })),
  );

  /** A link as the version before the month items wrote it: counted in everything else, without `monthsCounted`. */
  async function createdBeforeMonths(link: Link): Promise<void> {
    const { item, op } = linkCreation(link);
    const { monthsCounted: _, ...before } = item;
    const writes = counted();
    const marked = writes.mark({ ...op, counters: op.counters.filter(({ key }) => !key.sk.startsWith('LINKS#M#')) });
    await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...before, ...marked.set } }));
    await writes.finish(keys.link(link.id), marked);
  }

  it('counts from the month items, exactly, with the day items read only at the edges', async () => {
    // Prepare
    const repository = new IndexedLinksRepository(store);
    for (const link of links) await repository.create(link);
    const starts: string[] = [];
    store.db.middlewareStack.add(
      (next, context) => (args) => {
        const values = (args.input as { ExpressionAttributeValues?: Record<string, unknown> }).ExpressionAttributeValues;
        if (context.commandName === 'QueryCommand' && values?.[':pk'] === linkCounts.pk(account.id)) starts.push(String(values[':from']));
        return next(args);
      },
      { step: 'initialize', name: 'counterQueries' },
    );

    // Act
    const answers = [];
    for (const query of queries) answers.push(await service().list(account, query));

    // Assess
    const read = [...starts];
    expect(answers).toEqual(queries.map((query) => listLinks(links, query)));
    const months = await counted().readRange(linkCounts.pk(account.id), linkCounts.monthSk('0000-00'), linkCounts.monthSk('9999-99'));
    expect(months.map(({ sk }) => sk)).toEqual(['2026-12', '2027-01', '2027-02', '2027-03', '2027-04'].map(linkCounts.monthSk));
    expect(months.reduce((sum, { cells }) => sum + Object.values(cells).reduce((a, b) => a + b, 0), 0)).toBe(links.length);
    // The counter Queries of the ranges over more than a week read month items; the week's (three queries) its days.
    expect(read.map((sk) => sk.slice(0, 8)).sort()).toEqual(
      [...queries.slice(0, 9), ...queries.slice(12)]
        .map(() => 'LINKS#M#')
        .concat(['LINKS#D#', 'LINKS#D#', 'LINKS#D#'])
        .sort(),
    );
  });

  it('answers the same before, during and after the migration that counts older links in the month items', async () => {
    // Prepare: links from before the month items, a migration begun (not completed), one link changed by this version
    for (const link of links) await createdBeforeMonths(link);
    await new MigrationProgress(store).begin(2, new Date().toISOString());
    const changed = await new IndexedLinksRepository(store).update(account.id, 1005, { status: 0 });
    const now = links.map((link) => (link.id === 1005 ? { ...link, status: 0 as const } : link));
    const during = [];
    for (const query of queries) during.push(await service().list(account, query));

    // Act
    const run = await migrate(store, [linkUpgrade(store, counted())]);

    // Assess
    expect(changed?.status).toBe(0);
    expect(run.completed).toBe(true);
    expect(run.upgraded).toBe(links.length - 1);
    expect(during).toEqual(queries.map((query) => listLinks(now, query)));
    for (const query of queries) expect({ query, answer: await service().list(account, query) }).toEqual({ query, answer: listLinks(now, query) });
    const months = await counted().readRange(linkCounts.pk(account.id), linkCounts.monthSk('0000-00'), linkCounts.monthSk('9999-99'));
    expect(months.reduce((sum, { cells }) => sum + Object.values(cells).reduce((a, b) => a + b, 0), 0)).toBe(links.length);
  });
});

describe('Message/List over long time ranges', () => {
  const ACCOUNT = 9;
  const lists = () => new IndexedMessageLists(store);
  const changes = () => new MessageChanges(store, counted());
  const statuses: Message['status'][] = ['DELIVRD', 'UNDELIV', 'NEW', 'DELIVRD', 'EXPIRED'];
  const messages = Array.from({ length: 80 }, (_, i) => {
    const created = instant(i, 80);
    const status = statuses[i % statuses.length] as Message['status'];
    const sent = status !== 'NEW';
    return aMessage({
      id: 2000 + i,
      campaignId: 2000 + i,
      accountId: ACCOUNT,
      status,
      to: `4477009${String(i).padStart(5, '0')}`,
      createdAt: created,
      // Sent minutes to a day later, updated up to two days after (across day and month ends).
      startSendAt: sent ? new Date(Date.parse(created) + ((i * 37) % 1440) * 60_000).toISOString() : null,
      statusUpdatedAt: sent ? new Date(Date.parse(created) + ((i * 53) % 2880) * 60_000).toISOString() : null,
    });
  });
  const kinds = ['campaignCreated', 'startSend', 'statusUpdate'] as const;
  const queries: MessageQuery[] = RANGES.flatMap(([from, to]) =>
    kinds.flatMap((kind) =>
      [undefined, 'DELIVRD' as const, 'UNDELIV' as const].map((status) => ({
        ...(status && { status }),
        ...(from && { [`${kind}From`]: from }),
        ...(to && { [`${kind}To`]: to }),
        sort: [],
        pagination: { pageSize: 25, currentPage: 1 },
      })),
    ),
  );

  async function expected(query: MessageQuery) {
    const stored = await new MessagesRepository(store, changes()).getMany(messages.map((m) => m.id));
    const states = new Map<number, CampaignState>(
      (await new CampaignsRepository(store).getMany(messages.map((m) => m.id))).map((c) => [c.id, { status: c.status, deferred: false }]),
    );
    return listMessages(stored, states, query);
  }

  /** A message as the version before the month items wrote it: counted in everything else, without `monthsCounted`. */
  async function sentBeforeMonths(message: Message): Promise<void> {
    await createCampaignOf(store, message);
    const { item, op } = messageCreation(message, { status: 'NEW', deferred: false });
    const { monthsCounted: _, ...before } = item;
    const writes = counted();
    const marked = writes.mark({ counters: op.counters.filter(({ key }) => !/^MESSAGES#[CSU]#M#/.test(key.sk)) });
    await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...before, ...marked.set } }));
    await writes.finish(keys.message(message.id), marked);
  }

  /** Each kind's month items add up to the messages with that time, and their status cells to those with it. */
  async function monthTotals() {
    const read = (kind: 'C' | 'S' | 'U') =>
      counted().readRange(
        messageCounters.all(ACCOUNT).pk,
        messageCounters.month(ACCOUNT, kind, '0000-00').sk,
        messageCounters.month(ACCOUNT, kind, '9999-99').sk,
      );
    const totals: Record<string, number> = {};
    for (const kind of ['C', 'S', 'U'] as const) {
      for (const { cells } of await read(kind)) {
        for (const [cell, n] of Object.entries(cells)) {
          const name = `${kind}${cell.slice(3)}`;
          totals[name] = (totals[name] ?? 0) + n;
        }
      }
    }
    return totals;
  }

  function truth(stored: Message[]) {
    const totals: Record<string, number> = {};
    const add = (name: string) => {
      totals[name] = (totals[name] ?? 0) + 1;
    };
    for (const m of stored) {
      add('C');
      if (m.startSendAt) add('S');
      if (m.statusUpdatedAt) add('U');
      // The C, S and U cells per status: by creation, sending and update, with the status now.
      add(`C#st#${m.status}`);
      if (m.startSendAt) add(`S#st#${m.status}`);
      if (m.statusUpdatedAt) add(`U#st#${m.status}`);
    }
    return totals;
  }

  it('counts every kind of range from the month items, exactly', async () => {
    // Prepare
    const repository = new MessagesRepository(store, changes());
    for (const message of messages) {
      await createCampaignOf(store, message);
      await repository.create(message, { status: 'NEW', deferred: false });
    }

    // Act
    const answers = [];
    for (const query of queries) answers.push(await lists().list(ACCOUNT, query));

    // Assess
    for (const [i, query] of queries.entries()) expect({ query, answer: answers[i] }).toEqual({ query, answer: await expected(query) });
    expect(await monthTotals()).toEqual(truth(messages));
  });

  it('answers the same before and after the migration, status moves of older messages counted once', async () => {
    // Prepare: messages from before the month items, a migration begun; three of them reported by this version
    for (const message of messages) await sentBeforeMonths(message);
    await new MigrationProgress(store).begin(2, new Date().toISOString());
    const repository = new MessagesRepository(store, changes());
    for (const id of [2002, 2007, 2012]) await repository.applyStatus(id, 'DELIVRD', new Date(Date.parse('2027-01-10T10:00:00.000Z') + id * HOUR));
    const during = [];
    for (const query of queries) during.push(await lists().list(ACCOUNT, query));
    const duringExpected = await Promise.all(queries.map(expected));

    // Act
    const run = await migrate(store, [messageUpgrade(store, counted())]);

    // Assess
    expect(run.completed).toBe(true);
    expect(run.upgraded).toBe(messages.length - 3);
    expect(during).toEqual(duringExpected);
    for (const query of queries) expect({ query, answer: await lists().list(ACCOUNT, query) }).toEqual({ query, answer: await expected(query) });
    const stored = await repository.getMany(messages.map((m) => m.id));
    expect(await monthTotals()).toEqual(truth(stored));
  });
});
