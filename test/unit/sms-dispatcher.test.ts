import type { OutboundSms, SubmitResult } from '../../shared/domain/gateway';
import type { Message } from '../../shared/domain/messages';
import { ABANDONED_CLAIM_MS, type MessageReport, SmsDispatcher } from '../../shared/domain/sms-dispatcher';
import { MemoryMessageStore } from '../support/memory-messages';
import { aMessage } from './operations/fakes';

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/**
 * A dispatcher over an in-memory store, a gateway named `fake` that answers as `answer`
 * says, a publisher, and a clock the test sets; `log` holds the store's changes, the
 * submits and the publications in the order they happened.
 */
function harness(
  answer: (sms: OutboundSms) => Promise<SubmitResult> = async (sms) => ({ outcome: 'accepted', gatewayMessageId: `G-${sms.messageId}` }),
) {
  const log: string[] = [];
  const messages = new MemoryMessageStore(log);
  const submitted: OutboundSms[] = [];
  const clock = { now: T0 };
  const published: string[] = [];
  const dispatcher = new SmsDispatcher({
    messages,
    gateway: {
      name: 'fake',
      submit: async (sms) => {
        submitted.push(sms);
        log.push(`submit:${sms.messageId}`);
        return answer(sms);
      },
    },
    clock: () => clock.now,
    statusChanges: {
      publish: async (message) => {
        published.push(`${message.id}:${message.status}`);
        log.push(`publish:${message.id}:${message.status}`);
      },
    },
  });
  const stored = async (id: number, fields: Partial<Message> = {}) => {
    await messages.create(aMessage({ id, status: 'NEW', startSendAt: null, statusUpdatedAt: null, ...fields }));
  };
  return { dispatcher, messages, submitted, published, log, clock, stored };
}

describe('SmsDispatcher', () => {
  describe('dispatch', () => {
    it('claims the message, then submits it, then records the acceptance and publishes it', async () => {
      // Prepare
      const { dispatcher, messages, submitted, log, clock, stored } = harness();
      await stored(1, { from: 'Shop', to: '447400123450', text: 'Привет', segNum: 1, validityMinutes: 120 });
      clock.now = at(5);

      // Act
      const outcome = await dispatcher.dispatch(1);

      // Assess
      expect(outcome).toBe('accepted');
      expect(log).toEqual(['claimForSend:1', 'submit:1', 'markAccepted:1', 'publish:1:ACCEPTD']);
      expect(submitted).toEqual([
        { messageId: 1, from: 'Shop', to: '447400123450', text: 'Привет', encoding: 'UCS-2', segments: 1, validityMinutes: 120 },
      ]);
      expect(await messages.get(1)).toMatchObject({
        status: 'ACCEPTD',
        gateway: 'fake',
        gatewayMessageId: 'G-1',
        startSendAt: at(5).toISOString(),
        statusUpdatedAt: at(5).toISOString(),
        submitState: null,
      });
    });

    it('submits a message once however often it is dispatched, also concurrently', async () => {
      // Prepare
      const { dispatcher, submitted, stored } = harness();
      await stored(1);

      // Act: the queue delivers it three times, two of them at once
      const outcomes = await Promise.all([dispatcher.dispatch(1), dispatcher.dispatch(1)]);
      outcomes.push(await dispatcher.dispatch(1));

      // Assess
      expect(outcomes.sort()).toEqual(['accepted', 'already-claimed', 'already-claimed']);
      expect(submitted.map((sms) => sms.messageId)).toEqual([1]);
    });

    it('submits nothing for a message it cannot claim: unknown, or no longer NEW', async () => {
      // Prepare
      const { dispatcher, messages, log, stored } = harness();
      await stored(2, { status: 'DELIVRD', statusUpdatedAt: at(0).toISOString() });

      // Act
      const unknown = await dispatcher.dispatch(1);
      const delivered = await dispatcher.dispatch(2);

      // Assess
      expect([unknown, delivered]).toEqual(['unknown', 'already-claimed']);
      expect(log).toEqual([]);
      expect((await messages.get(2))?.status).toBe('DELIVRD');
    });

    it('leaves a young claim to its worker and flags one older than ABANDONED_CLAIM_MS ambiguous, never submitting it', async () => {
      // Prepare: a worker claimed the message at T0 and stopped
      const { dispatcher, messages, log, clock, stored } = harness();
      await stored(1);
      await messages.claimForSend(1, T0);
      log.length = 0;

      // Act
      clock.now = new Date(T0.getTime() + ABANDONED_CLAIM_MS - 1);
      const young = await dispatcher.dispatch(1);
      const whileYoung = (await messages.get(1))?.submitState;
      clock.now = new Date(T0.getTime() + ABANDONED_CLAIM_MS);
      const abandoned = await dispatcher.dispatch(1);

      // Assess
      expect([young, abandoned]).toEqual(['already-claimed', 'already-claimed']);
      expect(whileYoung).toBeNull();
      expect(log).toEqual(['markAmbiguous:1']);
      expect(await messages.get(1)).toMatchObject({
        status: 'ENQUEUD',
        submitState: 'ambiguous',
        submitProblem: 'A send attempt stopped between its claim and the gateway answer',
      });
    });

    it('marks a message the gateway refused REJECTD and publishes it', async () => {
      // Prepare
      const { dispatcher, messages, published, clock, stored } = harness(async () => ({ outcome: 'rejected', reason: 'Unknown subscriber' }));
      await stored(1);
      clock.now = at(3);

      // Act
      const outcome = await dispatcher.dispatch(1);

      // Assess
      expect(outcome).toBe('rejected');
      expect(published).toEqual(['1:REJECTD']);
      expect(await messages.get(1)).toMatchObject({ status: 'REJECTD', statusUpdatedAt: at(3).toISOString(), gateway: null });
    });

    it('flags an answer the gateway left open, or a gateway error, ambiguous, publishes nothing and never submits again', async () => {
      // Prepare
      const answers: (() => Promise<SubmitResult>)[] = [
        async () => ({ outcome: 'ambiguous', reason: 'No answer within 10 s' }),
        async () => {
          throw new Error('socket hang up');
        },
      ];
      const { dispatcher, messages, submitted, published, stored } = harness((sms) => answers[sms.messageId - 1]?.() ?? Promise.reject());
      await stored(1);
      await stored(2);

      // Act
      const outcomes = [await dispatcher.dispatch(1), await dispatcher.dispatch(2), await dispatcher.dispatch(1), await dispatcher.dispatch(2)];

      // Assess
      expect(outcomes).toEqual(['ambiguous', 'ambiguous', 'already-claimed', 'already-claimed']);
      expect(submitted.map((sms) => sms.messageId)).toEqual([1, 2]);
      expect(published).toEqual([]);
      expect(await messages.get(1)).toMatchObject({ status: 'ENQUEUD', submitState: 'ambiguous', submitProblem: 'No answer within 10 s' });
      expect(await messages.get(2)).toMatchObject({ status: 'ENQUEUD', submitState: 'ambiguous', submitProblem: 'Gateway error: socket hang up' });
    });

    it('keeps a final status a report brought while the submit was under way, and records the gateway id all the same', async () => {
      // Prepare: the gateway's report arrives before its answer to the submit
      let dispatcher: SmsDispatcher | undefined;
      const harnessed = harness(async (sms) => {
        await dispatcher?.reportForMessage({ messageId: sms.messageId, gateway: 'fake', status: 'DELIVRD', at: at(1) });
        return { outcome: 'accepted', gatewayMessageId: 'G-1' };
      });
      dispatcher = harnessed.dispatcher;
      const { messages, published, clock, stored } = harnessed;
      await stored(1);
      clock.now = at(2);

      // Act
      const outcome = await dispatcher.dispatch(1);

      // Assess
      expect(outcome).toBe('accepted');
      expect(published).not.toContain('1:ACCEPTD');
      expect(published[0]).toBe('1:DELIVRD');
      expect(await messages.get(1)).toMatchObject({
        status: 'DELIVRD',
        statusUpdatedAt: at(1).toISOString(),
        gateway: 'fake',
        gatewayMessageId: 'G-1',
        startSendAt: at(2).toISOString(),
      });
      expect(await messages.findByGatewayId('fake', 'g-1')).toBe(1);
    });

    it('counts the parts the gateway refused at submit as rejected parts', async () => {
      // Prepare
      const { dispatcher, messages, published, stored } = harness(async () => ({ outcome: 'accepted', gatewayMessageId: 'G-1', refusedParts: [2] }));
      await stored(1, { segNum: 2 });

      // Act
      const outcome = await dispatcher.dispatch(1);
      const afterSubmit = await messages.get(1);
      await dispatcher.reportForMessage({ messageId: 1, gateway: 'fake', status: 'DELIVRD', at: at(9), part: 1 });

      // Assess
      expect(outcome).toBe('accepted');
      expect(afterSubmit).toMatchObject({ status: 'ACCEPTD', partStatuses: { 2: 'REJECTD' } });
      expect(await messages.get(1)).toMatchObject({ status: 'UNDELIV', partStatuses: { 1: 'DELIVRD', 2: 'REJECTD' } });
      expect(published).toEqual(['1:ACCEPTD', '1:UNDELIV']);
    });
  });

  describe('report', () => {
    it('moves the message found by its gateway id in any case, forward only, publishing each change', async () => {
      // Prepare
      const { dispatcher, messages, published, stored } = harness();
      await stored(1);
      await dispatcher.dispatch(1);
      const report = (status: Message['status'], seconds: number, gatewayMessageId = 'G-1') =>
        dispatcher.report({ gateway: 'fake', gatewayMessageId, status, at: at(seconds) });

      // Act
      const answers = [
        await report('DELIVRD', 10, 'nope'),
        await report('PDLIVRD', 20, ' g-1 '),
        await report('DELIVRD', 30),
        await report('UNDELIV', 40),
        await report('DELIVRD', 50),
        await report('ACCEPTD', 60),
      ];

      // Assess
      expect(answers).toEqual([false, true, true, true, true, true]);
      expect(published).toEqual(['1:ACCEPTD', '1:PDLIVRD', '1:DELIVRD']);
      expect(await messages.get(1)).toMatchObject({ status: 'DELIVRD', statusUpdatedAt: at(30).toISOString() });
    });

    it('does not take a report from another gateway for this one', async () => {
      // Prepare
      const { dispatcher, messages, stored } = harness();
      await stored(1);
      await dispatcher.dispatch(1);

      // Act
      const found = await dispatcher.report({ gateway: 'other', gatewayMessageId: 'G-1', status: 'DELIVRD', at: at(10) });

      // Assess
      expect(found).toBe(false);
      expect((await messages.get(1))?.status).toBe('ACCEPTD');
    });
  });

  describe('reportForMessage', () => {
    /** A message of `parts` parts the gateway accepted; the publications after that. */
    async function accepted(parts = 1) {
      const harnessed = harness();
      await harnessed.stored(1, { segNum: parts });
      await harnessed.dispatcher.dispatch(1);
      harnessed.published.length = 0;
      harnessed.log.length = 0;
      const report = (fields: Partial<MessageReport>) =>
        harnessed.dispatcher.reportForMessage({ messageId: 1, gateway: 'fake', status: 'DELIVRD', at: at(10), ...fields });
      return { ...harnessed, report };
    }

    it('moves the whole message forward only, publishing each change', async () => {
      // Prepare
      const { messages, published, report } = await accepted();

      // Act
      const answers = [
        await report({ status: 'UNDELIV', at: at(20) }),
        await report({ status: 'DELIVRD', at: at(30) }),
        await report({ status: 'ACCEPTD' }),
      ];

      // Assess
      expect(answers).toEqual([true, true, true]);
      expect(published).toEqual(['1:UNDELIV']);
      expect(await messages.get(1)).toMatchObject({ status: 'UNDELIV', statusUpdatedAt: at(20).toISOString() });
    });

    it('refuses an unknown message, another gateway, and parts the message does not have', async () => {
      // Prepare
      const { messages, log, report } = await accepted(2);

      // Act
      const answers = [
        await report({ messageId: 2 }),
        await report({ gateway: 'other' }),
        await report({ part: 0 }),
        await report({ part: 3 }),
        await report({ part: 1.5 }),
      ];

      // Assess
      expect(answers).toEqual([false, false, false, false, false]);
      expect(log).toEqual([]);
      expect((await messages.get(1))?.status).toBe('ACCEPTD');
    });

    it('takes a report that overtook the recording of the submit while the message is ENQUEUD', async () => {
      // Prepare
      const { dispatcher, messages, published, stored } = harness();
      await stored(1);
      await messages.claimForSend(1, T0);

      // Act
      const found = await dispatcher.reportForMessage({ messageId: 1, gateway: 'fake', status: 'DELIVRD', at: at(1) });

      // Assess
      expect(found).toBe(true);
      expect(published).toEqual(['1:DELIVRD']);
      expect((await messages.get(1))?.status).toBe('DELIVRD');
    });

    it('is PDLIVRD while only some parts are delivered and DELIVRD once all are, whatever the order and repeats', async () => {
      // Prepare
      const { messages, published, report } = await accepted(3);

      // Act
      await report({ part: 3 });
      const afterFirst = await messages.get(1);
      await report({ part: 3 });
      await report({ part: 3, status: 'UNDELIV' });
      await report({ part: 1, status: 'ACCEPTD' });
      const afterRepeats = await messages.get(1);
      await report({ part: 1 });
      await report({ part: 2 });

      // Assess
      expect(afterFirst).toMatchObject({ status: 'PDLIVRD', partStatuses: { 3: 'DELIVRD' } });
      expect(afterRepeats).toMatchObject({ status: 'PDLIVRD', partStatuses: { 3: 'DELIVRD' } });
      expect(await messages.get(1)).toMatchObject({ status: 'DELIVRD', partStatuses: { 1: 'DELIVRD', 2: 'DELIVRD', 3: 'DELIVRD' } });
      expect(published).toEqual(['1:PDLIVRD', '1:DELIVRD']);
    });

    it('waits while only failed parts are in, then ends UNDELIV', async () => {
      // Prepare
      const { messages, published, report } = await accepted(2);

      // Act
      await report({ part: 2, status: 'UNDELIV' });
      const afterFailure = await messages.get(1);
      await report({ part: 1 });

      // Assess
      expect(afterFailure).toMatchObject({ status: 'ACCEPTD', partStatuses: { 2: 'UNDELIV' } });
      expect(await messages.get(1)).toMatchObject({ status: 'UNDELIV' });
      expect(published).toEqual(['1:UNDELIV']);
    });

    it('keeps the SMSC ids reports carry, normalized, once each, also from reports that move nothing', async () => {
      // Prepare
      const { messages, log, report } = await accepted(2);

      // Act
      await report({ status: undefined, part: 1, smscMessageId: ' 1F0B ' });
      await report({ status: undefined, part: 2, smscMessageId: '1f0a' });
      await report({ status: 'DELIVRD', part: 1, smscMessageId: '1f0b' });
      const unknown = await report({ messageId: 9, status: undefined, smscMessageId: 'abc' });

      // Assess
      expect(unknown).toBe(false);
      expect(await messages.get(1)).toMatchObject({ status: 'PDLIVRD', smscMessageIds: ['1f0a', '1f0b'] });
      expect(log.filter((change) => change.startsWith('recordSmscMessageId'))).toEqual(['recordSmscMessageId:1:1f0b', 'recordSmscMessageId:1:1f0a']);
    });
  });
});
