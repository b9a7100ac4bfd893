import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signEvent } from '../../shared/domain/webhooks';
import { kannelReportUrl } from '../../shared/sms/kannel';
import { eventually } from '../support/eventually';
import { ensureKannel, type RunningKannel, startKannel } from '../support/kannel';
import { startService, type TestService } from '../support/local-service';
import { startSmscSimulator } from '../support/smsc-simulator';

/**
 * The kannel gateway against real Kannel (bearerbox + smsbox from Debian's packages,
 * installed by scripts/ensure-kannel.sh) in front of an SMPP SMSC simulator: sends through
 * the API, statuses from the SMSC's delivery receipts through Kannel's dlr-url, and the
 * delivery-report endpoint's answers to repeated, late, unknown and forged reports.
 */
const DLR_SECRET = 'kannel-report-secret-for-tests';

describe('kannel gateway (real Kannel, SMPP SMSC simulator)', () => {
  let smsc: Awaited<ReturnType<typeof startSmscSimulator>>;
  let kannel: RunningKannel;
  let service: TestService;
  let key: string;
  let secret: string;
  let receiver: Server;
  const hooks: any[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        hooks.push(JSON.parse(body));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    ensureKannel();
    smsc = await startSmscSimulator();
    kannel = await startKannel({ smscPort: smsc.port });
    Object.assign(process.env, {
      SMS_GATEWAY: 'kannel',
      KANNEL_SENDSMS_URL: kannel.sendsmsUrl,
      KANNEL_USERNAME: kannel.username,
      KANNEL_PASSWORD: kannel.password,
      DLR_SECRET,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', // the webhook receiver is on loopback
    });
    service = await startService();
    const account = await service.account();
    key = account.key;
    await service.runtime.accounts.setPrice(account.id, '*', 0.05);
    const webhook = await service.runtime.webhooks.register(account.id, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
    secret = webhook.secret;
  }, 300_000);

  afterAll(async () => {
    await service?.close();
    await kannel?.stop();
    await smsc?.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    for (const name of ['SMS_GATEWAY', 'KANNEL_SENDSMS_URL', 'KANNEL_USERNAME', 'KANNEL_PASSWORD', 'DLR_SECRET', 'WEBHOOK_ALLOW_PRIVATE_TARGETS'])
      delete process.env[name];
  });

  const send = async (recipient: string, text: string) => {
    const sent = await service.api('Message/SendSmsMessage', key, { recipient, text });
    expect(sent).toMatchObject({ code: 0 });
    return sent.data as { messageId: number; campaignId: number };
  };
  const statusOf = async (id: number) => (await service.api('Message/GetSMSStatus', key, { ids: String(id) })).data[0];
  const until = (id: number, status: string) =>
    eventually(async () => (await statusOf(id))?.status === status, { timeoutMs: 20_000 }).catch(async () => {
      throw new Error(`Message ${id} is ${JSON.stringify(await statusOf(id))}, not ${status}\n${kannel.logs().slice(-3000)}`);
    });
  /** Calls the message's dlr-url as Kannel would, with the placeholders filled in. */
  const report = (messageId: number, type: number, answer: string, sig?: string, part?: number) => {
    let url = kannelReportUrl({ reportBaseUrl: service.baseUrl, reportSecret: DLR_SECRET }, messageId, part)
      .replace('%d', String(type))
      .replace('%A', encodeURIComponent(answer))
      .replace('%F', '4242')
      .replace('%T', String(Math.floor(Date.now() / 1000)));
    if (sig !== undefined) url = url.replace(/sig=[^&]+/, `sig=${sig}`);
    return fetch(url).then(async (response) => ({ status: response.status, text: await response.text() }));
  };

  it('delivers, fails and rejects by the SMSC receipts, in GSM-7 and UCS-2 and in parts', async () => {
    const delivered = await send('+447400123450', 'Your order has shipped');
    const undelivered = await send('+447400123456', 'Ваш заказ отправлен');
    const rejected = await send('+447400123457', 'Rejected by the SMSC');
    const long = await send('+447400123451', 'Long message. '.repeat(14));

    await until(delivered.messageId, 'DELIVRD');
    await until(undelivered.messageId, 'UNDELIV');
    await until(rejected.messageId, 'REJECTD');
    await until(long.messageId, 'DELIVRD');

    // What reached the SMSC: the sender, UCS-2 for Cyrillic, two parts for the long text
    const toSmsc = (to: string) => smsc.submits.filter((submit) => submit.to === to);
    expect(toSmsc('447400123450')).toEqual([expect.objectContaining({ from: 'SMSService', text: 'Your order has shipped', dataCoding: 0 })]);
    expect(toSmsc('447400123456')).toEqual([expect.objectContaining({ text: 'Ваш заказ отправлен', dataCoding: 8 })]);
    expect(toSmsc('447400123451').map((submit) => [submit.part, submit.partOf])).toEqual([
      [true, [1, 2]],
      [true, [2, 2]],
    ]);
    expect(
      toSmsc('447400123451')
        .map((submit) => submit.text)
        .join(''),
    ).toBe('Long message. '.repeat(14));
    expect(await statusOf(long.messageId)).toMatchObject({ segNum: 2 });
    expect((await service.runtime.campaigns.get(delivered.campaignId))?.status).toBe('DONE');

    // The account's webhook heard of every final status, signed
    await eventually(async () => hooks.length >= 4, { timeoutMs: 15_000 });
    const byMessage = new Map(hooks.map((hook) => [hook.data.messageId, hook]));
    expect([delivered, undelivered, rejected, long].map((sent) => byMessage.get(sent.messageId)?.data.status)).toEqual([
      'DELIVRD',
      'UNDELIV',
      'REJECTD',
      'DELIVRD',
    ]);
    for (const hook of hooks) expect(hook.sign).toBe(signEvent(hook.eventId, hook.attempt, hook.eventCreateTs, secret));
  });

  it('reports a concatenated message by its parts: PDLIVRD while only some are delivered, UNDELIV when the rest fail', async () => {
    // Prepare: two long messages, GSM-7 in 3 parts and UCS-2 in 2. The SMSC delivers the
    // first part of each; for …3 it never reports the others, for …9 it fails them.
    const gsmText = 'Part by part. '.repeat(30);
    const ucsText = 'Доставка по частям. '.repeat(5);
    const partial = await send('+447400123453', gsmText);
    const failed = await send('+447400123459', ucsText);

    // Act: the receipts come back through Kannel, one per part
    await until(partial.messageId, 'PDLIVRD');
    await until(failed.messageId, 'UNDELIV');

    // Assess: each part went as a concatenated part with its own header, in the right coding
    const toSmsc = (to: string) => smsc.submits.filter((submit) => submit.to === to);
    expect(toSmsc('447400123453').map((submit) => [submit.partOf, submit.dataCoding])).toEqual([
      [[1, 3], 0],
      [[2, 3], 0],
      [[3, 3], 0],
    ]);
    expect(
      toSmsc('447400123453')
        .map((submit) => submit.text)
        .join(''),
    ).toBe(gsmText);
    expect(toSmsc('447400123459').map((submit) => [submit.partOf, submit.dataCoding])).toEqual([
      [[1, 2], 8],
      [[2, 2], 8],
    ]);
    expect(
      toSmsc('447400123459')
        .map((submit) => submit.text)
        .join(''),
    ).toBe(ucsText);
    expect(await statusOf(partial.messageId)).toMatchObject({ status: 'PDLIVRD', segNum: 3 });
    expect((await service.runtime.messageStore.get(partial.messageId))?.partStatuses).toEqual({ 1: 'DELIVRD' });
    expect((await service.runtime.messageStore.get(failed.messageId))?.partStatuses).toEqual({ 1: 'DELIVRD', 2: 'UNDELIV' });
    // The SMSC's id for every part (upper-case hex at the SMSC; Kannel, told so by its
    // msg-id-type, passes them on as decimal) is kept with the message, also for the parts
    // that never got a receipt (the SMSC's acknowledgement carries it)
    const smscIds = toSmsc('447400123453').map((submit) => String(parseInt(submit.id, 16)));
    expect((await service.runtime.messageStore.get(partial.messageId))?.smscMessageIds).toEqual([...smscIds].sort());

    // The missing parts delivered after all (a late receipt for each): the message is DELIVRD
    for (const part of [2, 3]) expect(await report(partial.messageId, 1, 'stat:DELIVRD', undefined, part)).toMatchObject({ status: 200 });
    expect(await statusOf(partial.messageId)).toMatchObject({ status: 'DELIVRD' });
    // A part that does not exist, and a part report signed for another part
    expect((await report(partial.messageId, 1, 'stat:DELIVRD', undefined, 4)).status).toBe(404);
    const otherPartSig = new URL(kannelReportUrl({ reportBaseUrl: service.baseUrl, reportSecret: DLR_SECRET }, failed.messageId, 1)).searchParams.get(
      'sig',
    )!;
    expect((await report(failed.messageId, 1, 'stat:DELIVRD', otherPartSig, 2)).status).toBe(403);
    // A part that is not a part number is malformed (400), whatever its signature
    for (const part of ['0', 'abc', '1.5']) {
      const url = `${service.baseUrl}/dlr/kannel?message=${partial.messageId}&part=${part}&sig=${'0'.repeat(32)}&type=1&answer=stat:DELIVRD`;
      expect((await fetch(url)).status).toBe(400);
    }
    expect(await statusOf(failed.messageId)).toMatchObject({ status: 'UNDELIV' });
  });

  it('refuses forged reports, takes signed ones once, and never moves a final status back', async () => {
    // Prepare: the SMSC never reports on numbers ending in 8, so the message waits in ACCEPTD
    const waiting = await send('+447400123458', 'No receipt for this one');
    await until(waiting.messageId, 'ACCEPTD');

    // Act and assess: a report without the right signature changes nothing
    expect((await report(waiting.messageId, 1, 'stat:DELIVRD', '0'.repeat(32))).status).toBe(403);
    expect((await report(waiting.messageId, 1, 'stat:DELIVRD', 'short')).status).toBe(403);
    expect(await statusOf(waiting.messageId)).toMatchObject({ status: 'ACCEPTD' });

    // A report for a message that does not exist (signed with the right secret), also an
    // acknowledgement that moves no status
    expect((await report(999_999, 1, 'stat:DELIVRD')).status).toBe(404);
    expect((await report(999_999, 8, 'ACK/')).status).toBe(404);

    // The SMSC's acknowledgement (8) changes nothing; then the real receipt
    expect(await report(waiting.messageId, 8, 'ACK/')).toMatchObject({ status: 200 });
    expect(await statusOf(waiting.messageId)).toMatchObject({ status: 'ACCEPTD' });
    expect(await report(waiting.messageId, 1, 'id:1 sub:001 dlvrd:001 stat:DELIVRD err:000')).toMatchObject({ status: 200 });
    const settled = await statusOf(waiting.messageId);
    expect(settled).toMatchObject({ status: 'DELIVRD' });

    // Repeated and late reports: answered, but the final status and its time stay
    expect(await report(waiting.messageId, 1, 'stat:DELIVRD')).toMatchObject({ status: 200 });
    expect(await report(waiting.messageId, 2, 'stat:UNDELIV')).toMatchObject({ status: 200 });
    expect(await report(waiting.messageId, 16, '')).toMatchObject({ status: 200 });
    expect(await statusOf(waiting.messageId)).toEqual(settled);

    // Malformed
    expect((await fetch(`${service.baseUrl}/dlr/kannel?message=abc&type=1&sig=x`)).status).toBe(400);
  });
});
