import { MessageSending, RECOVERY_CHECK_MS, type SendInput } from '../../shared/domain/message-sending';
import { ABANDONED_CLAIM_MS } from '../../shared/domain/sms-dispatcher';
import { ACCOUNT, countingIds, memoryLinks, memoryPorts, storedCampaign, T0 } from '../support/memory-messaging';

const SEND: SendInput = { recipient: '447400123450', text: 'Hi', shortenLinks: false, validityMinutes: 60 };
const HELD = { ...ACCOUNT, sending: { ...ACCOUNT.sending, moderation: 'all' as const } };

function build() {
  const memory = memoryPorts();
  const links = memoryLinks(memory.writes);
  const campaignIds = countingIds(100);
  const messageIds = countingIds(500);
  let now = T0;
  const sending = new MessageSending({
    ports: memory.ports,
    links,
    campaignIds,
    messageIds,
    uuids: () => '01UUIDFROMTHEPORT',
    clock: () => now,
    serviceSignature: 'SMSService',
    shortLinkHost: 'sho.rt',
  });
  return { sending, ...memory, links, campaignIds, messageIds, setNow: (at: Date) => (now = at) };
}

describe('MessageSending.send', () => {
  it('writes the recovery check first, then the campaign, the message and the hand-off', async () => {
    // Prepare
    const { sending, writes, scheduled, queued, messages } = build();

    // Act
    const sent = await sending.send(ACCOUNT, SEND);

    // Assess
    expect(sent).toEqual({ campaignId: 100, messageId: 500, status: 2 });
    expect(writes).toEqual(['schedule:recover', 'createCampaign', 'createMessage', 'enqueue']);
    expect(scheduled()).toEqual(['2026-11-22T10:03 recover 500']);
    expect(queued).toEqual([500]);
    expect(messages.get(500)).toMatchObject({ status: 'NEW', uuid: '01UUIDFROMTHEPORT', from: 'SMSService', segUserBuy: 0.05 });
  });

  it('makes the short links after the check and before the campaign, tagged with the uuid from the id source', async () => {
    const { sending, writes, links, messages, campaigns } = build();

    await sending.send(ACCOUNT, { ...SEND, text: 'See https://example.com/a and https://example.com/a', shortenLinks: true });

    expect(writes).toEqual(['schedule:recover', 'createLink', 'createCampaign', 'createMessage', 'enqueue']);
    expect(links.made).toMatchObject([{ fullLink: 'https://example.com/a', campaignId: 100, trackingCode: '01UUIDFROMTHEPORT' }]);
    expect(messages.get(500)?.text).toBe('See https://sho.rt/c1 and https://sho.rt/c1');
    expect(campaigns.get(100)?.linkIds).toEqual([1]);
  });

  it('schedules a deferred message under its minute first and queues nothing', async () => {
    const { sending, writes, scheduled, queued, campaigns } = build();

    const sent = await sending.send(ACCOUNT, { ...SEND, deferredTo: new Date('2026-11-22T12:30:40Z') });

    expect(sent.status).toBe(2);
    expect(writes).toEqual(['schedule:send', 'createCampaign', 'createMessage']);
    expect(scheduled()).toEqual(['2026-11-22T12:30 send 100']);
    expect(queued).toEqual([]);
    expect(campaigns.get(100)).toMatchObject({ status: 'READY_FOR_SEND', deferredTo: '2026-11-22T12:30:40.000Z' });
  });

  it('holds a message for moderation with no task and no hand-off (status 1)', async () => {
    const { sending, writes, campaigns } = build();

    const sent = await sending.send(HELD, SEND);

    expect(sent.status).toBe(1);
    expect(writes).toEqual(['createCampaign', 'createMessage']);
    expect(campaigns.get(100)?.status).toBe('MODERATION');
  });

  it.each([
    ['an invalid recipient', { recipient: '4477' }],
    ['an empty text', { text: '  ' }],
    ['a text of 11 segments', { text: 'x'.repeat(1531) }],
    ['an unknown sender', { from: 'Nope' }],
    ['a deferral under an hour', { deferredTo: new Date(T0.getTime() + 59 * 60_000) }],
    ['a deferral past 14 days', { deferredTo: new Date(T0.getTime() + 15 * 86_400_000) }],
    // 1,526 characters fit in 10 segments; with the link at its longest short form they would not.
    ['a link whose short form may not fit', { text: `${'x'.repeat(1515)} www.ab.com`, shortenLinks: true }],
  ])('refuses %s, writing nothing and drawing no id', async (_, change) => {
    const { sending, writes, campaignIds, messageIds } = build();

    await expect(sending.send(ACCOUNT, { ...SEND, ...change })).rejects.toMatchObject({ kind: 'invalid' });

    expect(writes).toEqual([]);
    expect(campaignIds.drawn + messageIds.drawn).toBe(0);
  });

  it('refuses a destination without a price, writing nothing', async () => {
    const { sending, writes } = build();
    const account = { ...ACCOUNT, sending: { ...ACCOUNT.sending, tariff: { KZ: 0.02 } } };

    await expect(sending.send(account, SEND)).rejects.toMatchObject({ fields: { recipient: ['Sending to GB is not enabled for this account'] } });
    expect(writes).toEqual([]);
  });
});

describe('MessageSending.release (the send task)', () => {
  it('writes the check, claims the campaign RUNNING, then hands the message off', async () => {
    // Prepare
    const { sending, writes, campaigns, queued, scheduled } = build();
    const { campaign } = storedCampaign(1, { status: 'READY_FOR_SEND', deferredTo: '2026-11-22T10:00:00.000Z' });
    campaigns.set(1, campaign);

    // Act
    const outcome = await sending.release({ kind: 'send', campaignId: 1, messageId: 1 }, T0);

    // Assess
    expect(outcome).toBe('released');
    expect(writes).toEqual(['schedule:recover', 'moveCampaign:RUNNING', 'enqueue']);
    expect(queued).toEqual([1]);
    expect(scheduled()).toEqual(['2026-11-22T10:03 recover 1']);
  });

  it('leaves the task for later while the campaign is held or due later this minute', async () => {
    const { sending, writes, campaigns } = build();
    campaigns.set(1, storedCampaign(1, { status: 'MODERATION' }).campaign);
    campaigns.set(2, storedCampaign(2, { status: 'READY_FOR_SEND', deferredTo: '2026-11-22T10:00:30.000Z' }).campaign);

    expect(await sending.release({ kind: 'send', campaignId: 1, messageId: 1 }, T0)).toBe('later');
    expect(await sending.release({ kind: 'send', campaignId: 2, messageId: 2 }, T0)).toBe('later');
    expect(writes).toEqual([]);
  });

  it('is done without writing for a campaign declined, already released or never written', async () => {
    const { sending, writes, campaigns } = build();
    campaigns.set(1, storedCampaign(1, { status: 'DECLINED' }).campaign);
    campaigns.set(2, storedCampaign(2, { status: 'RUNNING' }).campaign);

    for (const campaignId of [1, 2, 3]) expect(await sending.release({ kind: 'send', campaignId, messageId: campaignId }, T0)).toBe('done');
    expect(writes).toEqual([]);
  });
});

describe('MessageSending.recover (the recover task)', () => {
  const at = (ms: number) => new Date(T0.getTime() + ms).toISOString();

  it('hands a message still NEW off again, its next check first', async () => {
    const { sending, writes, messages, queued, scheduled, setNow } = build();
    messages.set(1, storedCampaign(1).message);
    setNow(new Date(T0.getTime() + RECOVERY_CHECK_MS));

    expect(await sending.recover({ kind: 'recover', messageId: 1, at: at(RECOVERY_CHECK_MS) }, new Date(T0.getTime() + RECOVERY_CHECK_MS))).toBe(
      'done',
    );

    expect(writes).toEqual(['schedule:recover', 'enqueue']);
    expect(queued).toEqual([1]);
    expect(scheduled()).toEqual(['2026-11-22T10:06 recover 1']);
  });

  it('schedules the expiry of a message the gateway took, at the end of its validity', async () => {
    const { sending, writes, messages, scheduled } = build();
    messages.set(1, storedCampaign(1, {}, { status: 'ACCEPTD', gateway: 'sim', gatewayMessageId: 'g1', startSendAt: at(10_000) }).message);

    await sending.recover({ kind: 'recover', messageId: 1, at: at(RECOVERY_CHECK_MS) }, new Date(T0.getTime() + RECOVERY_CHECK_MS));

    expect(writes).toEqual(['schedule:expire']);
    expect(scheduled()).toEqual(['2026-11-22T11:00 expire 1']);
  });

  it('flags an abandoned claim ambiguous and looks again at a recent one, never handing either off', async () => {
    const { sending, writes, messages, queued, scheduled } = build();
    messages.set(1, storedCampaign(1, {}, { status: 'ENQUEUD', statusUpdatedAt: T0.toISOString() }).message);
    messages.set(2, storedCampaign(2, {}, { status: 'ENQUEUD', statusUpdatedAt: at(ABANDONED_CLAIM_MS) }).message);
    const now = new Date(T0.getTime() + ABANDONED_CLAIM_MS + 1_000);

    await sending.recover({ kind: 'recover', messageId: 1, at: now.toISOString() }, now);
    await sending.recover({ kind: 'recover', messageId: 2, at: now.toISOString() }, now);

    expect(writes).toEqual(['markAmbiguous', 'schedule:recover']);
    expect(messages.get(1)?.submitState).toBe('ambiguous');
    expect(scheduled()).toEqual(['2026-11-22T10:05 recover 2']);
    expect(queued).toEqual([]);
  });

  it('does nothing for a message never written or already final', async () => {
    const { sending, writes, messages } = build();
    messages.set(2, storedCampaign(2, {}, { status: 'DELIVRD', gateway: 'sim', gatewayMessageId: 'g2' }).message);

    await sending.recover({ kind: 'recover', messageId: 1, at: T0.toISOString() }, T0);
    await sending.recover({ kind: 'recover', messageId: 2, at: T0.toISOString() }, T0);

    expect(writes).toEqual([]);
  });
});
