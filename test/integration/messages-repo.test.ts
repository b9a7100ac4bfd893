import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Message } from '../../shared/domain/messages';
import type { Store } from '../../shared/store/client';
import { keys } from '../../shared/store/keys';
import { MessagesRepository } from '../../shared/store/messages-repo';
import { startTestStore } from '../support/dynamo';

let store: Store;
let close: () => Promise<void>;
let repo: MessagesRepository;
let nextId = 1;

beforeAll(async () => {
  ({ store, close } = await startTestStore());
  repo = new MessagesRepository(store);
});
afterAll(() => close());

const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 10, minute));

async function newMessage(): Promise<number> {
  const id = nextId++;
  const message: Message = {
    id,
    accountId: 1,
    campaignId: 100 + id,
    from: 'Shop',
    to: '447400123450',
    text: 'Hi',
    segNum: 1,
    segUserBuy: 0.05,
    status: 'NEW',
    uuid: `01J${id}`,
    countryA2: 'GB',
    validityMinutes: 1440,
    createdAt: at(0).toISOString(),
    startSendAt: null,
    statusUpdatedAt: null,
    gateway: null,
    gatewayMessageId: null,
    submitState: null,
  };
  await repo.create(message, { status: 'RUNNING', deferred: false });
  return id;
}

describe('MessagesRepository', () => {
  it('lets exactly one of many concurrent claims win', async () => {
    const id = await newMessage();
    const claims = await Promise.all(Array.from({ length: 8 }, () => repo.claimForSend(id, at(1))));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await repo.get(id))?.status).toBe('ENQUEUD');
  });

  it('records acceptance with the gateway id, findable in any letter case', async () => {
    const id = await newMessage();
    await repo.claimForSend(id, at(1));
    const accepted = await repo.markAccepted(id, 'kannel', 'ABC123', at(2));
    expect(accepted).toMatchObject({ status: 'ACCEPTD', gateway: 'kannel', gatewayMessageId: 'ABC123', startSendAt: at(2).toISOString() });
    expect(await repo.findByGatewayId('kannel', 'abc123')).toBe(id);
  });

  it('never regresses: a late ACCEPTD after DELIVRD keeps DELIVRD (recording the gateway id), and a final status never changes', async () => {
    const id = await newMessage();
    await repo.claimForSend(id, at(1));
    expect(await repo.applyStatus(id, 'DELIVRD', at(3))).toMatchObject({ status: 'DELIVRD', statusUpdatedAt: at(3).toISOString() });
    expect(await repo.markAccepted(id, 'sim', 'x1', at(4))).toMatchObject({
      status: 'DELIVRD',
      gatewayMessageId: 'x1',
      startSendAt: at(4).toISOString(),
    });
    expect(await repo.applyStatus(id, 'UNDELIV', at(5))).toBeUndefined();
    expect(await repo.applyStatus(id, 'DELIVRD', at(6))).toBeUndefined();
    expect(await repo.get(id)).toMatchObject({ status: 'DELIVRD', statusUpdatedAt: at(3).toISOString() });
  });

  it('takes a partial delivery and then its final status', async () => {
    const id = await newMessage();
    await repo.claimForSend(id, at(1));
    await repo.markAccepted(id, 'sim', 'p1', at(2));
    expect(await repo.applyStatus(id, 'PDLIVRD', at(3))).toMatchObject({ status: 'PDLIVRD' });
    expect(await repo.applyStatus(id, 'DELIVRD', at(4))).toMatchObject({ status: 'DELIVRD' });
  });

  it('flags an ambiguous submit without changing the status', async () => {
    const id = await newMessage();
    await repo.claimForSend(id, at(1));
    await repo.markAmbiguous(id, 'Gateway timed out', at(2));
    expect(await repo.get(id)).toMatchObject({ status: 'ENQUEUD', submitState: 'ambiguous' });
    expect(await repo.claimForSend(id, at(3))).toBeUndefined();
    expect((await repo.listAmbiguous()).map((message) => message.id)).toContain(id);
  });

  it('lists no message whose flag did not take: the status had moved on, or the process died before flagging', async () => {
    // Prepare
    const accepted = await newMessage();
    await repo.claimForSend(accepted, at(1));
    await repo.markAccepted(accepted, 'sim', 'a1', at(2));
    const unflagged = await newMessage();
    await repo.claimForSend(unflagged, at(1));
    await store.db.send(
      new PutCommand({ TableName: store.tableName, Item: { ...keys.ambiguousMessage(unflagged), entity: 'AmbiguousMessage', messageId: unflagged } }),
    );

    // Act
    await repo.markAmbiguous(accepted, 'Gateway timed out', at(3));

    // Assess
    const listed = (await repo.listAmbiguous()).map((message) => message.id);
    expect(listed).not.toContain(accepted);
    expect(listed).not.toContain(unflagged);
    expect((await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.ambiguousMessage(accepted) }))).Item).toBeUndefined();
  });

  it('records a sending or status time before the message was created as its creation time', async () => {
    // Prepare: a report's own time in whole seconds, or another machine's clock, may be earlier.
    const id = await newMessage();
    const early = new Date(at(0).getTime() - 700);
    await repo.claimForSend(id, early);

    // Act
    const accepted = await repo.markAccepted(id, 'kannel', 'EARLY1', early);
    const delivered = await repo.applyStatus(id, 'DELIVRD', new Date(at(0).getTime() - 1));

    // Assess
    expect(accepted).toMatchObject({ startSendAt: at(0).toISOString(), statusUpdatedAt: at(0).toISOString() });
    expect(delivered).toMatchObject({ status: 'DELIVRD', startSendAt: at(0).toISOString(), statusUpdatedAt: at(0).toISOString() });
  });

  it('answers undefined for unknown ids', async () => {
    expect(await repo.get(999_999)).toBeUndefined();
    expect(await repo.applyStatus(999_999, 'DELIVRD', at(1))).toBeUndefined();
    expect(await repo.findByGatewayId('sim', 'nope')).toBeUndefined();
  });
});
