import { messageGetSmsStatus } from '../../../shared/api/operations/message-get-sms-status';
import { accountMessages, type MessagesById } from '../../../shared/domain/message-statuses';
import type { Message } from '../../../shared/domain/messages';
import { aMessage, anAccount, run } from './fakes';

/** Messages of several accounts in memory, returned in store order as a repository may. */
function fakeMessages(messages: Message[]) {
  const asked: number[][] = [];
  const port: MessagesById = {
    getMany: async (ids) => {
      asked.push(ids);
      return messages.filter((message) => ids.includes(message.id));
    },
  };
  return { port, asked };
}

const stored = [
  aMessage({ id: 1 }),
  aMessage({ id: 2, accountId: 2 }),
  aMessage({ id: 3, status: 'ENQUEUD', startSendAt: null, statusUpdatedAt: '2026-01-02T03:05:00.000Z' }),
  aMessage({ id: 4, status: 'UNDELIV' }),
];

describe('accountMessages', () => {
  it("keeps the account's messages in the order asked, each once; unknown and other accounts' ids give nothing", async () => {
    const { port, asked } = fakeMessages(stored);
    const found = await accountMessages(port, { id: 1 }, [4, 2, 9, 1, 4]);
    expect(found.map((message) => message.id)).toEqual([4, 1]);
    expect(asked).toEqual([[4, 2, 9, 1]]);
  });

  it("finds another account's messages for that account only", async () => {
    const { port } = fakeMessages(stored);
    expect((await accountMessages(port, { id: 2 }, [1, 2, 3])).map((message) => message.id)).toEqual([2]);
  });
});

describe('Message/GetSMSStatus', () => {
  it('answers a status record per own message, in the order asked, times in the account zone', async () => {
    const { port } = fakeMessages(stored);
    const answer = await run(messageGetSmsStatus, { messages: port }, { ids: ['4', '2', 'x', '3', '1', '4'] }, anAccount({ timeZone: 'Asia/Tokyo' }));
    expect(answer).toEqual([
      { id: 4, status: 'UNDELIV', segNum: 1, startSendTs: '2026-01-02 12-04-06', statusUpdateTs: '2026-01-02 12-05-00' },
      // Not sent yet: no status update time even when one is stored.
      { id: 3, status: 'ENQUEUD', segNum: 1, startSendTs: null, statusUpdateTs: null },
      { id: 1, status: 'DELIVRD', segNum: 1, startSendTs: '2026-01-02 12-04-06', statusUpdateTs: '2026-01-02 12-05-00' },
    ]);
  });

  it('reads ids as a comma string or index-keyed fields, and answers none for ids no message has', async () => {
    const { port, asked } = fakeMessages(stored);
    expect(await run(messageGetSmsStatus, { messages: port }, { ids: ' 9, abc ,1234567890123456' })).toEqual([]);
    expect(asked).toEqual([[9]]);
    expect(await run(messageGetSmsStatus, { messages: port }, { ids: { 0: '1', 1: '2' } })).toHaveLength(1);
  });

  it('answers not found when no id is given', async () => {
    const { port, asked } = fakeMessages(stored);
    for (const params of [{}, { ids: '' }, { ids: ',' }, { ids: [] }]) {
      await expect(run(messageGetSmsStatus, { messages: port }, params)).rejects.toMatchObject({
        kind: 'notFound',
        message: 'No message ids given',
        fields: undefined,
      });
    }
    expect(asked).toEqual([]);
  });

  it('refuses more than 100 ids and ids that are no list', async () => {
    const { port, asked } = fakeMessages(stored);
    const ids = Array.from({ length: 101 }, (_, index) => String(index + 1));
    await expect(run(messageGetSmsStatus, { messages: port }, { ids })).rejects.toMatchObject({
      kind: 'limit',
      message: 'At most 100 message ids per request',
    });
    await expect(run(messageGetSmsStatus, { messages: port }, { ids: ids.slice(0, 100) })).resolves.toHaveLength(3);
    await expect(run(messageGetSmsStatus, { messages: port }, { ids: [['1']] })).rejects.toMatchObject({
      kind: 'limit',
      message: 'ids must be a list of message ids',
      fields: undefined,
    });
    expect(asked).toHaveLength(1);
  });
});
