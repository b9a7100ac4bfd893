import { type Account, EMPTY_SENDING_SETTINGS } from '../../shared/domain/accounts';
import type { SendingPorts } from '../../shared/domain/message-ports';
import { RECOVERY_CHECK_MS, type SendInput } from '../../shared/domain/message-sending';
import { isFinal } from '../../shared/domain/message-status';
import type { Message } from '../../shared/domain/messages';
import { SmsDispatcher } from '../../shared/domain/sms-dispatcher';
import { crashingAfter } from '../../shared/local/crash-point';
import type { Messaging } from '../../shared/messaging-runtime';
import { SimulatorGateway } from '../../shared/sms/simulator';
import { CampaignsRepository } from '../../shared/store/campaigns-repo';
import type { Store } from '../../shared/store/client';
import { MessagesRepository } from '../../shared/store/messages-repo';
import { startTestStore } from '../support/dynamo';
import { eventually } from '../support/eventually';
import { anAccount } from '../support/fixtures';
import { messagingOver } from '../support/messaging';

/**
 * Every instant sending can stop at: the work is cut short right after one step has been
 * written (as a killed process would leave it; what it had queued in memory is lost), then
 * a fresh service runs the sweeper once the recovery check is due and works its queue. Every
 * stored message reaches a final status within the check delay (a deferred one, of its
 * time), each submitted once; a campaign held for moderation waits for its administrator,
 * who can still approve or decline it.
 */
const T0 = new Date('2026-11-22T10:00:00Z');
const DEFERRED_TO = new Date('2026-11-22T12:00:00Z');
const ACCOUNT: Account = anAccount({ id: 7, createdAt: T0.toISOString(), sending: { ...EMPTY_SENDING_SETTINGS, tariff: { '*': 0.05 } } });
const HELD: Account = { ...ACCOUNT, sending: { ...ACCOUNT.sending, moderation: 'all' } };
const SEND: SendInput = { recipient: '447400123450', text: 'Sale! https://example.com/offer', shortenLinks: true, validityMinutes: 1440 };

class Killed extends Error {}

let store: Store;
let close: () => Promise<void>;
let now: Date;

beforeEach(async () => {
  ({ store, close } = await startTestStore());
  now = T0;
});
afterEach(() => close());

/** The message services over the store; with `killedAfter`, they stop dead right after that step is written. */
function start(killedAfter?: string) {
  const queued: number[] = [];
  const clock = () => now;
  const wrap = killedAfter
    ? (ports: SendingPorts) =>
        crashingAfter(ports, killedAfter, () => {
          throw new Killed(killedAfter);
        })
    : undefined;
  const messaging = messagingOver(store, { clock, queued, wrap });
  const submitted: number[] = [];
  let dispatcher: SmsDispatcher;
  const gateway = new SimulatorGateway({ report: (report) => dispatcher.report(report), latencyMs: 1, clock });
  gateway.observe((sms) => submitted.push(sms.messageId));
  dispatcher = new SmsDispatcher({ messages: new MessagesRepository(store), gateway, clock, statusChanges: messaging.statusChanges });
  /** The sweeper at `at`, then the send worker on whatever it queued. */
  const sweepAt = async (at: Date) => {
    now = at;
    await messaging.scheduler.sweep();
    for (const id of queued.splice(0)) await dispatcher.dispatch(id);
  };
  return { messaging, queued, submitted, sweepAt };
}

async function killed(step: string, act: (messaging: Messaging) => Promise<unknown>): Promise<void> {
  await expect(act(start(step).messaging)).rejects.toBeInstanceOf(Killed);
}

const stored = () => new MessagesRepository(store).listByAccount(ACCOUNT.id);
const unsettled = (messages: Message[]) =>
  messages.filter((message) => !isFinal(message.status) && message.submitState !== 'ambiguous').map((message) => `${message.id}: ${message.status}`);

async function expectAllSettled(submitted: number[]): Promise<void> {
  await eventually(async () => unsettled(await stored()).length === 0, { timeoutMs: 2_000 }).catch(() => undefined);
  const messages = await stored();
  expect(unsettled(messages)).toEqual([]);
  expect(submitted.sort()).toEqual(
    messages
      .filter((message) => message.status !== 'REJECTD')
      .map((message) => message.id)
      .sort(),
  );
}

const checkDue = () => new Date(T0.getTime() + RECOVERY_CHECK_MS);

describe('Sending when it stops at any step', () => {
  it.each(['schedule:recover', 'createCampaign', 'createMessage', 'enqueue'])('sends a message now, killed after %s', async (step) => {
    // Prepare
    await killed(step, (messaging) => messaging.sending.send(ACCOUNT, SEND));

    // Act
    const restarted = start();
    await restarted.sweepAt(checkDue());

    // Assess
    await expectAllSettled(restarted.submitted);
  });

  it.each(['schedule:send', 'createCampaign', 'createMessage'])('sends a deferred message, killed after %s', async (step) => {
    await killed(step, (messaging) => messaging.sending.send(ACCOUNT, { ...SEND, deferredTo: DEFERRED_TO }));

    const restarted = start();
    await restarted.sweepAt(checkDue());
    await restarted.sweepAt(DEFERRED_TO);
    await restarted.sweepAt(new Date(DEFERRED_TO.getTime() + RECOVERY_CHECK_MS));

    await expectAllSettled(restarted.submitted);
  });

  it.each(['schedule:recover', 'moveCampaign:RUNNING', 'enqueue'])('releases a deferred message, the sweeper killed after %s', async (step) => {
    // Prepare
    const sent = await start().messaging.sending.send(ACCOUNT, { ...SEND, deferredTo: DEFERRED_TO });
    now = DEFERRED_TO;
    await killed(step, (messaging) => messaging.scheduler.sweep());

    // Act
    const restarted = start();
    await restarted.sweepAt(new Date(DEFERRED_TO.getTime() + RECOVERY_CHECK_MS));

    // Assess
    await expectAllSettled(restarted.submitted);
    expect(restarted.submitted).toEqual([sent.messageId]);
  });

  it.each(['schedule:send', 'moveCampaign:READY_FOR_SEND'])('sends a held message, its approval killed after %s', async (step) => {
    // Prepare
    const sent = await start().messaging.sending.send(HELD, SEND);
    await killed(step, (messaging) => messaging.moderation.approve(sent.campaignId));

    // Act: an approval that died with its process is made again; one that took does not need to be.
    const restarted = start();
    const campaign = await new CampaignsRepository(store).get(sent.campaignId);
    if (campaign?.status === 'MODERATION') await restarted.messaging.moderation.approve(sent.campaignId);
    await restarted.sweepAt(now);
    await restarted.sweepAt(new Date(now.getTime() + RECOVERY_CHECK_MS));

    // Assess
    await expectAllSettled(restarted.submitted);
    // The campaign follows the final report, which the simulator sends on its own timer.
    const stored = () => new CampaignsRepository(store).get(sent.campaignId);
    await eventually(async () => (await stored())?.status === 'DONE', { timeoutMs: 2_000 }).catch(() => undefined);
    expect(await stored()).toMatchObject({ status: 'DONE' });
  });

  it('keeps the task of an approval under way for the next sweep', async () => {
    // Prepare: the approval has written its task; a sweep runs before it moves the campaign.
    const sent = await start().messaging.sending.send(HELD, SEND);
    await killed('schedule:send', (messaging) => messaging.moderation.approve(sent.campaignId));
    const sweeper = start();
    await sweeper.sweepAt(now);

    // Act: the approval's move lands, and the sweeper comes again.
    await new CampaignsRepository(store).move(sent.campaignId, ['MODERATION'], 'READY_FOR_SEND');
    await sweeper.sweepAt(new Date(now.getTime() + 20_000));

    // Assess
    await expectAllSettled(sweeper.submitted);
    expect(sweeper.submitted).toEqual([sent.messageId]);
  });

  it.each(['setMessageStatus', 'moveCampaign:DECLINED'])('rejects a held message, its decline killed after %s', async (step) => {
    // Prepare
    const sent = await start().messaging.sending.send(HELD, SEND);
    await killed(step, (messaging) => messaging.moderation.decline(sent.campaignId));

    // Act
    const restarted = start();
    const campaign = await new CampaignsRepository(store).get(sent.campaignId);
    if (campaign?.status === 'MODERATION') await restarted.messaging.moderation.decline(sent.campaignId);
    await restarted.sweepAt(new Date(now.getTime() + RECOVERY_CHECK_MS));

    // Assess
    expect(await new CampaignsRepository(store).get(sent.campaignId)).toMatchObject({ status: 'DECLINED' });
    expect(await new MessagesRepository(store).get(sent.messageId)).toMatchObject({ status: 'REJECTD' });
    await expectAllSettled(restarted.submitted);
  });
});
