import { type MessageListDeps, messageList } from '../../../shared/api/operations/message-list';
import type { MessageQuery } from '../../../shared/domain/message-listing';
import { aMessage, anAccount, run } from './fakes';

/** Records the query Message/List asks for and answers one message. */
function fakeQueries() {
  const asked: MessageQuery[] = [];
  const messageQueries: MessageListDeps['messageQueries'] = {
    list: async (_account, query) => {
      asked.push(query);
      return { items: [{ message: aMessage({ id: 5 }) }], totalItemCount: 1 };
    },
  };
  return { messageQueries, asked };
}

async function queryOf(params: Record<string, unknown>, timeZone = 'UTC'): Promise<MessageQuery> {
  const { messageQueries, asked } = fakeQueries();
  await run(messageList, { messageQueries }, params, anAccount({ timeZone }));
  const [query] = asked;
  if (!query) throw new Error('Message/List asked for no messages');
  return query;
}

const refused = (message: string) => ({ kind: 'limit', message, fields: undefined });

async function refusal(params: Record<string, unknown>) {
  const { messageQueries, asked } = fakeQueries();
  const answer = run(messageList, { messageQueries }, params);
  await answer.catch(() => undefined);
  expect(asked).toEqual([]);
  return answer;
}

describe('Message/List criteria', () => {
  it('asks for everything, first page of 25, when nothing or only blanks are given', async () => {
    const everything = { pagination: { pageSize: 25, currentPage: 0 }, sort: [] };
    expect(await queryOf({})).toEqual(everything);
    expect(await queryOf({ criteria: '', sort: '', pagination: '', withNumberInfo: '' })).toEqual(everything);
    expect(await queryOf({ criteria: { status: '', from: '' }, pagination: { pageSize: '', currentPage: '' } })).toEqual(everything);
  });

  it('reads every criterion as the query names it', async () => {
    const query = await queryOf(
      {
        criteria: {
          campaignIds: '3, 1',
          from: ' Shop ',
          to: ' +4915 ',
          text: ' Hi ',
          status: ' delivrd ',
          groups: ['7', '8'],
          campaignStatus: 'not_yet_sent',
          campaignCreateTsFrom: '2026-03-01',
          campaignCreateTsTo: '2026-03-01',
          campaignSentTsFrom: '2026-03-01 10:00:00',
          campaignSentTsTo: '2026-03-02 10:00:00',
          startSendTsFrom: '2026-07-01',
          startSendTsTo: '2026-07-01',
          statusUpdateTsFrom: '2026-07-01 00:00:00',
          statusUpdateTsTo: '2026-07-02',
          unknown: 'ignored',
        },
        sort: { statusUpdateTs: 'desc', campaignId: ' Asc ' },
        pagination: { pageSize: ' 100 ', currentPage: '2' },
      },
      'Europe/Berlin',
    );
    expect(query).toEqual({
      campaignIds: [3, 1],
      from: 'Shop',
      to: '4915',
      text: ' Hi ',
      status: 'DELIVRD',
      groups: ['7', '8'],
      campaignStatus: 'NOT_YET_SENT',
      campaignCreatedFrom: new Date('2026-02-28T23:00:00.000Z'),
      campaignCreatedTo: new Date('2026-03-01T22:59:59.999Z'),
      campaignSentFrom: new Date('2026-03-01T09:00:00.000Z'),
      campaignSentTo: new Date('2026-03-02T09:00:00.000Z'),
      startSendFrom: new Date('2026-06-30T22:00:00.000Z'),
      startSendTo: new Date('2026-07-01T21:59:59.999Z'),
      statusUpdateFrom: new Date('2026-06-30T22:00:00.000Z'),
      statusUpdateTo: new Date('2026-07-02T21:59:59.999Z'),
      sort: [
        { field: 'statusUpdateTs', direction: 'DESC' },
        { field: 'campaignId', direction: 'ASC' },
      ],
      pagination: { pageSize: 100, currentPage: 2 },
    });
  });

  it('searches the first 100 campaign ids', async () => {
    const ids = Array.from({ length: 150 }, (_, index) => String(index + 1));
    expect((await queryOf({ criteria: { campaignIds: ids } })).campaignIds).toEqual(ids.slice(0, 100).map(Number));
  });

  it.each([
    [{ criteria: 'x' }, 'criteria must be given as criteria[field]=value'],
    [{ criteria: ['x'] }, 'criteria must be given as criteria[field]=value'],
    [{ criteria: { from: ['a'] } }, 'criteria[from] must be a single value'],
    [{ criteria: { status: 'SENT' } }, 'criteria[status] is not a message status: SENT'],
    [{ criteria: { status: 'x'.repeat(50) } }, `criteria[status] is not a message status: ${'X'.repeat(40)}…`],
    [
      { criteria: { campaignStatus: 'x' } },
      'criteria[campaignStatus] must be one of NEW, MODERATION, DECLINED, READY_FOR_SEND, AUTO_READY_FOR_SEND, RUNNING, SENT, DONE, NOT_YET_SENT, DEFERRED',
    ],
    [{ criteria: { campaignIds: '1,a' } }, 'criteria[campaignIds] must be ids, as a list or separated by commas'],
    [{ criteria: { groups: [['1']] } }, 'criteria[groups] must be ids, as a list or separated by commas'],
    [{ criteria: { startSendTsFrom: '2026-02-30' } }, 'criteria[startSendTsFrom] must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS'],
    [{ criteria: { statusUpdateTsTo: ['2026-01-01'] } }, 'criteria[statusUpdateTsTo] must be a single value'],
    [{ sort: 'x' }, 'sort must be given as sort[field]=ASC or DESC'],
    [{ sort: { uuid: 'ASC' } }, 'Cannot sort by uuid; use one of campaignId, from, to, text, status, startSendTs, statusUpdateTs, segNum'],
    [
      { sort: { constructor: 'ASC' } },
      'Cannot sort by constructor; use one of campaignId, from, to, text, status, startSendTs, statusUpdateTs, segNum',
    ],
    [{ sort: { to: 'up' } }, 'sort[to] must be ASC or DESC'],
    [{ sort: { to: '' } }, 'sort[to] must be ASC or DESC'],
    [{ sort: { to: ['ASC'] } }, 'sort[to] must be a single value'],
    [{ pagination: 'x' }, 'pagination must carry pagination[pageSize] and pagination[currentPage]'],
    [{ pagination: { pageSize: '30' } }, 'pagination[pageSize] must be one of 25, 50, 100'],
    [{ pagination: { pageSize: '0025' } }, 'pagination[pageSize] must be one of 25, 50, 100'],
    [{ pagination: { pageSize: ['25'] } }, 'pagination[pageSize] must be a single value'],
    [{ pagination: { currentPage: '-1' } }, 'pagination[currentPage] must be a whole number from 0'],
    [{ pagination: { currentPage: ['1'] } }, 'currentPage must be a single value'],
    [{ withNumberInfo: '2' }, 'withNumberInfo must be 0 or 1'],
    [{ withNumberInfo: ['1'] }, 'withNumberInfo must be a single value'],
  ])('refuses %j with code 12', async (params, message) => {
    await expect(refusal(params)).rejects.toMatchObject(refused(message));
  });

  it('reports the first problem in the order the parameters are read', async () => {
    const bad = { withNumberInfo: '2', criteria: { campaignIds: 'a', status: 'x' }, sort: { x: 'ASC' }, pagination: 'x' };
    await expect(refusal(bad)).rejects.toMatchObject(refused('withNumberInfo must be 0 or 1'));
    const withoutFlag = { ...bad, withNumberInfo: '1' };
    await expect(refusal(withoutFlag)).rejects.toMatchObject(refused('criteria[status] is not a message status: X'));
    await expect(refusal({ ...withoutFlag, criteria: {} })).rejects.toMatchObject(refused(expect.stringMatching(/^Cannot sort by x;/)));
    await expect(refusal({ ...withoutFlag, criteria: {}, sort: {} })).rejects.toMatchObject(refused(expect.stringMatching(/^pagination must/)));
  });

  it('presents the messages found, times in the account zone', async () => {
    const { messageQueries } = fakeQueries();
    const answer = await run(messageList, { messageQueries }, { withNumberInfo: '0' }, anAccount({ timeZone: 'Asia/Tokyo' }));
    expect(answer).toEqual({
      items: [
        {
          id: 5,
          campaignId: 1,
          segNum: 1,
          segUserBuy: 0.05,
          from: 'Shop',
          to: '4915112345678',
          text: 'Hello',
          status: 'DELIVRD',
          groups: '',
          uuid: '01J00000000000000000000000',
          startSendTs: '2026-01-02 12-04-06',
          statusUpdateTs: '2026-01-02 12-05-00',
        },
      ],
      totalItemCount: 1,
    });
  });
});
