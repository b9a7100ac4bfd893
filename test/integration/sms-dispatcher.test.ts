import type { OutboundSms, SmsGateway, SubmitResult } from '../../shared/domain/gateway';
import type { Message } from '../../shared/domain/messages';
import { ABANDONED_CLAIM_MS, SmsDispatcher } from '../../shared/domain/sms-dispatcher';
import { StatusChanges } from '../../shared/domain/status-changes';
import { SimulatorGateway } from '../../shared/sms/simulator';
import type { Store } from '../../shared/store/client';
import { MessagesRepository } from '../../shared/store/messages-repo';
import { startTestStore } from '../support/dynamo';
import { eventually } from '../support/eventually';

let store: Store;
let close: () => Promise<void>;
let messages: MessagesRepository;
let nextId = 1;

beforeAll(async () => {
  ({ store, close } = await startTestStore());
  messages = new MessagesRepository(store);
});
afterAll(() => close());

async function newMessage(to = '447400123450', segNum = 1): Promise<number> {
  const id = nextId++;
  const message: Message = {
    id,
    accountId: 1,
    campaignId: id,
    from: 'Shop',
    to,
    text: 'Hello '.repeat(segNum === 1 ? 1 : 26 * segNum),
    segNum,
    segUserBuy: 0.05,
    status: 'NEW',
    uuid: `u${id}`,
    countryA2: 'GB',
    validityMinutes: 1440,
    // Before the fixed times the tests report at: a message's times are never before its creation.
    createdAt: '2026-11-22T09:00:00.000Z',
    startSendAt: null,
    statusUpdatedAt: null,
    gateway: null,
    gatewayMessageId: null,
    submitState: null,
  };
  await messages.create(message, { status: 'RUNNING', deferred: false });
  return id;
}

/** A gateway that counts submits and answers as told. */
function countingGateway(answer: (sms: OutboundSms) => Promise<SubmitResult>) {
  const submitted: number[] = [];
  const gateway: SmsGateway = {
    name: 'counting',
    submit: async (sms) => {
      submitted.push(sms.messageId);
      return answer(sms);
    },
  };
  return { gateway, submitted };
}

describe('SmsDispatcher', () => {
  it('submits a message once however often it is dispatched, also concurrently', async () => {
    // Prepare
    const { gateway, submitted } = countingGateway(async (sms) => ({ outcome: 'accepted', gatewayMessageId: `g${sms.messageId}` }));
    const dispatcher = new SmsDispatcher({ messages, gateway, clock: () => new Date() });
    const id = await newMessage();

    // Act: the queue delivers the same message three times, two of them at once
    const outcomes = await Promise.all([dispatcher.dispatch(id), dispatcher.dispatch(id)]);
    outcomes.push(await dispatcher.dispatch(id));

    // Assess
    expect(submitted).toEqual([id]);
    expect(outcomes.sort()).toEqual(['accepted', 'already-claimed', 'already-claimed']);
    expect(await messages.get(id)).toMatchObject({ status: 'ACCEPTD', gatewayMessageId: `g${id}`, submitState: null });
  });

  it('marks a message claimed by a worker that died before submitting as ambiguous, and does not send it', async () => {
    // Prepare: a worker claimed the message and died
    const { gateway, submitted } = countingGateway(async () => ({ outcome: 'accepted', gatewayMessageId: 'never' }));
    const claimedAt = new Date('2026-11-22T10:00:00Z');
    let now = new Date(claimedAt.getTime() + 30_000);
    const dispatcher = new SmsDispatcher({ messages, gateway, clock: () => now });
    const id = await newMessage();
    await messages.claimForSend(id, claimedAt);

    // Act: a delivery while the claim could still be in flight, then the queue's redelivery
    const early = await dispatcher.dispatch(id);
    const stateWhileYoung = (await messages.get(id))?.submitState;
    now = new Date(claimedAt.getTime() + ABANDONED_CLAIM_MS);
    const late = await dispatcher.dispatch(id);

    // Assess
    expect([early, late]).toEqual(['already-claimed', 'already-claimed']);
    expect(stateWhileYoung).toBeNull();
    expect(submitted).toEqual([]);
    expect(await messages.get(id)).toMatchObject({ status: 'ENQUEUD', submitState: 'ambiguous' });
  });

  it('marks a submit that times out as ambiguous and never retries it', async () => {
    const { gateway, submitted } = countingGateway(async () => {
      throw new Error('socket hang up');
    });
    const dispatcher = new SmsDispatcher({ messages, gateway, clock: () => new Date() });
    const id = await newMessage();
    expect(await dispatcher.dispatch(id)).toBe('ambiguous');
    expect(await dispatcher.dispatch(id)).toBe('already-claimed');
    expect(submitted).toEqual([id]);
    expect(await messages.get(id)).toMatchObject({ status: 'ENQUEUD', submitState: 'ambiguous' });
  });

  it('takes the simulator through to final statuses by its delivery reports', async () => {
    // Prepare: the simulator reports back through the dispatcher, as real gateways will
    let dispatcher: SmsDispatcher;
    const gateway = new SimulatorGateway({ report: (report) => dispatcher.report(report), latencyMs: 30 });
    const seen: string[] = [];
    const statusChanges = new StatusChanges([{ onMessageStatus: async (m) => void seen.push(`${m.id}:${m.status}`) }]);
    dispatcher = new SmsDispatcher({ messages, gateway, clock: () => new Date(), statusChanges });
    const delivered = await newMessage('447400123450');
    const undelivered = await newMessage('447400123456');
    const rejected = await newMessage('447400123457');

    // Act
    await Promise.all([delivered, undelivered, rejected].map((id) => dispatcher.dispatch(id)));
    await eventually(async () => seen.includes(`${delivered}:DELIVRD`) && seen.includes(`${undelivered}:UNDELIV`));

    // Assess
    expect((await messages.get(delivered))?.status).toBe('DELIVRD');
    expect((await messages.get(undelivered))?.status).toBe('UNDELIV');
    expect((await messages.get(rejected))?.status).toBe('REJECTD');
    // Each final status is published. (ACCEPTD may not: a report can overtake it.)
    expect(seen).toEqual(expect.arrayContaining([`${delivered}:DELIVRD`, `${undelivered}:UNDELIV`, `${rejected}:REJECTD`]));
  });

  it('ignores reports for unknown gateway ids and repeated or late ones', async () => {
    const { gateway } = countingGateway(async (sms) => ({ outcome: 'accepted', gatewayMessageId: `r${sms.messageId}` }));
    const dispatcher = new SmsDispatcher({ messages, gateway, clock: () => new Date() });
    const id = await newMessage();
    await dispatcher.dispatch(id);
    expect(await dispatcher.report({ gateway: 'counting', gatewayMessageId: 'nope', status: 'DELIVRD', at: new Date() })).toBe(false);
    const finalAt = new Date('2026-11-22T10:00:00Z');
    await dispatcher.report({ gateway: 'counting', gatewayMessageId: `R${id}`, status: 'DELIVRD', at: finalAt });
    await dispatcher.report({ gateway: 'counting', gatewayMessageId: `r${id}`, status: 'UNDELIV', at: new Date() });
    await dispatcher.report({ gateway: 'counting', gatewayMessageId: `r${id}`, status: 'DELIVRD', at: new Date() });
    expect(await messages.get(id)).toMatchObject({ status: 'DELIVRD', statusUpdatedAt: finalAt.toISOString() });
  });

  describe('a concatenated message reported part by part', () => {
    const accept = countingGateway(async (sms) => ({ outcome: 'accepted', gatewayMessageId: `p${sms.messageId}` }));
    let dispatcher: SmsDispatcher;
    beforeAll(() => (dispatcher = new SmsDispatcher({ messages, gateway: accept.gateway, clock: () => new Date() })));
    const at = new Date('2026-11-22T10:00:00Z');
    const sent = async (parts: number) => {
      const id = await newMessage('447400123450', parts);
      expect(await dispatcher.dispatch(id)).toBe('accepted');
      return id;
    };

    it('is PDLIVRD while only some parts are delivered and DELIVRD once all are, whatever the order and repeats', async () => {
      const id = await sent(3);
      expect(await dispatcher.reportForMessage({ messageId: id, gateway: 'counting', status: 'DELIVRD', at, part: 3 })).toBe(true);
      expect(await messages.get(id)).toMatchObject({ status: 'PDLIVRD', partStatuses: { 3: 'DELIVRD' } });
      // A repeat, a later contrary report on the same part, and a non-final one change nothing
      await dispatcher.reportForMessage({ messageId: id, gateway: 'counting', status: 'DELIVRD', at, part: 3 });
      await dispatcher.reportForMessage({ messageId: id, gateway: 'counting', status: 'UNDELIV', at, part: 3 });
      await dispatcher.reportForMessage({ messageId: id, gateway: 'counting', status: 'ACCEPTD', at, part: 1 });
      expect(await messages.get(id)).toMatchObject({ status: 'PDLIVRD', partStatuses: { 3: 'DELIVRD' } });
      // The other two at once
      await Promise.all([1, 2].map((part) => dispatcher.reportForMessage({ messageId: id, gateway: 'counting', status: 'DELIVRD', at, part: part })));
      expect(await messages.get(id)).toMatchObject({ status: 'DELIVRD', partStatuses: { 1: 'DELIVRD', 2: 'DELIVRD', 3: 'DELIVRD' } });
    });

    it('ends UNDELIV when a part fails, and waits while only failures are in', async () => {
      const id = await sent(2);
      await dispatcher.reportForMessage({ messageId: id, gateway: 'counting', status: 'UNDELIV', at, part: 2 });
      expect(await messages.get(id)).toMatchObject({ status: 'ACCEPTD', partStatuses: { 2: 'UNDELIV' } });
      await dispatcher.reportForMessage({ messageId: id, gateway: 'counting', status: 'DELIVRD', at, part: 1 });
      expect(await messages.get(id)).toMatchObject({ status: 'UNDELIV' });
    });

    it('refuses parts the message does not have and reports from another gateway', async () => {
      const id = await sent(2);
      expect(await dispatcher.reportForMessage({ messageId: id, gateway: 'counting', status: 'DELIVRD', at, part: 3 })).toBe(false);
      expect(await dispatcher.reportForMessage({ messageId: id, gateway: 'counting', status: 'DELIVRD', at, part: 0 })).toBe(false);
      expect(await dispatcher.reportForMessage({ messageId: id, gateway: 'other', status: 'DELIVRD', at, part: 1 })).toBe(false);
      expect(await messages.get(id)).toMatchObject({ status: 'ACCEPTD' });
      expect((await messages.get(id))?.partStatuses).toBeUndefined();
    });

    it('counts a part the gateway refused at submit as rejected', async () => {
      const { gateway } = countingGateway(async (sms) => ({ outcome: 'accepted', gatewayMessageId: `q${sms.messageId}`, refusedParts: [2] }));
      const refusing = new SmsDispatcher({ messages, gateway, clock: () => new Date() });
      const id = await newMessage('447400123450', 2);
      expect(await refusing.dispatch(id)).toBe('accepted');
      expect(await messages.get(id)).toMatchObject({ status: 'ACCEPTD', partStatuses: { 2: 'REJECTD' } });
      await refusing.reportForMessage({ messageId: id, gateway: 'counting', status: 'DELIVRD', at, part: 1 });
      expect(await messages.get(id)).toMatchObject({ status: 'UNDELIV' });
    });

    it('keeps the SMSC ids reports carry, normalized, once each, also from reports that move nothing', async () => {
      const id = await sent(2);
      await dispatcher.reportForMessage({ messageId: id, gateway: 'counting', status: undefined, at, part: 1, smscMessageId: ' 1F0A ' });
      await dispatcher.reportForMessage({ messageId: id, gateway: 'counting', status: undefined, at, part: 2, smscMessageId: '1f0b' });
      await dispatcher.reportForMessage({ messageId: id, gateway: 'counting', status: 'DELIVRD', at, part: 1, smscMessageId: '1f0a' });
      expect(await messages.get(id)).toMatchObject({ status: 'PDLIVRD', smscMessageIds: ['1f0a', '1f0b'] });
      expect(await dispatcher.reportForMessage({ messageId: 999_999, gateway: 'counting', status: undefined, at, smscMessageId: 'abc' })).toBe(false);
    });
  });
});
