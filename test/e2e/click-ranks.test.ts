import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../shared/store/keys';
import { startService, type TestService } from '../support/local-service';

const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** Clicks are counted by the aggregator; their links move in Link/List's clickCnt order at the sweep's rank pass. */
describe("Link/List's clickCnt order after clicks", () => {
  let service: TestService;
  let sweep: typeof import('../../functions/deferred-sweeper').handler;

  beforeAll(async () => {
    service = await startService();
    sweep = (await import('../../functions/deferred-sweeper')).handler;
  });
  afterAll(() => service.close());

  const visit = (code: string) => fetch(`${service.baseUrl}/${code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });

  async function item(key: { pk: string; sk: string }) {
    const { store } = service.runtime;
    return (await store.db.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true }))).Item;
  }

  /** Links whose gsi3 key is below their total clicks (link item and click item). */
  async function behind(ids: number[]): Promise<number[]> {
    const late: number[] = [];
    for (const id of ids) {
      const link = await item(keys.link(id));
      const total = Number(link?.clickCnt ?? 0) + Number((await item(keys.linkClicks(id)))?.clicks ?? 0);
      if (BigInt(link?.gsi3sk) < BigInt(total) * 10n ** 15n + BigInt(id)) late.push(id);
    }
    return late;
  }

  async function pendingLinks(): Promise<number[]> {
    const { store } = service.runtime;
    const page = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.clickRanksPending() },
        ConsistentRead: true,
      }),
    );
    return (page.Items ?? []).flatMap((pending) => [...(pending.links as Set<number>)].map(Number)).sort((a, b) => a - b);
  }

  it('lists links by their clicks once the sweep has run after counting', async () => {
    // Prepare: four links clicked 1, 3, 0 and 2 times over HTTP, counted by the click queue's consumer
    const { key } = await service.account();
    const links: { id: number; code: string }[] = [];
    for (let i = 0; i < 4; i++) links.push((await service.api('Link/Create', key, { 'data[fullLink]': `https://example.com/${i}` })).data);
    const [one, three, none, two] = links as [(typeof links)[number], (typeof links)[number], (typeof links)[number], (typeof links)[number]];
    for (const [link, times] of [
      [one, 1],
      [three, 3],
      [two, 2],
    ] as const) {
      for (let n = 0; n < times; n++) expect((await visit(link.code)).status).toBe(302);
    }
    await service.local.queues.drain();
    const told = await pendingLinks();
    const late = await behind(links.map((link) => link.id));

    // Act
    const { ranked } = await sweep();

    // Assess: every clicked link was handed to the pass, which moved each one that was behind
    expect(told).toEqual([one.id, three.id, two.id].sort((a, b) => a - b));
    expect(ranked).toBe(late.length);
    expect(await behind(links.map((link) => link.id))).toEqual([]);
    expect(await pendingLinks()).toEqual([]);
    const ids = async (direction: string) =>
      (await service.api('Link/List', key, { 'sort[clickCnt]': direction })).data.items.map((link: { id: number }) => link.id);
    expect(await ids('DESC')).toEqual([three.id, two.id, one.id, none.id]);
    expect(await ids('ASC')).toEqual([none.id, one.id, two.id, three.id]);
    const counts = await service.api('Link/List', key, { 'sort[clickCnt]': 'DESC' });
    expect(counts.data.items.map((link: { clickCnt: number }) => link.clickCnt)).toEqual([3, 2, 1, 0]);
  });
});
