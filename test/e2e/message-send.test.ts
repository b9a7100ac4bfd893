import { eventually } from '../support/eventually';
import { startService, type TestService } from '../support/local-service';

describe('Message/SendSmsMessage and Message/GetSMSStatus', () => {
  let service: TestService;
  let key: string;
  let accountId: number;

  beforeAll(async () => {
    service = await startService();
    ({ key, id: accountId } = await service.account({ timeZone: 'Asia/Tashkent' }));
    await service.runtime.accounts.setPrice(accountId, '*', 0.05);
  });
  afterAll(() => service.close());

  const send = (fields: Record<string, string>) => service.api('Message/SendSmsMessage', key, fields);
  const statusOf = async (messageId: number, apiKey = key) =>
    (await service.api('Message/GetSMSStatus', apiKey, { 'ids[]': String(messageId) })).data[0];

  /** The message's status record once it has `status`: reports come on the simulator's timer. */
  async function until(messageId: number, status: string, apiKey = key) {
    let record: any;
    const check = async () => {
      record = await statusOf(messageId, apiKey);
      return record?.status === status;
    };
    await eventually(check, {
      failure: () => `Message ${messageId} never reached ${status}: ${JSON.stringify(record)}`,
    });
    return record;
  }

  it('sends one SMS: campaign and message ids, status 2, then DELIVRD with times in the account zone', async () => {
    // Act
    const sent = await send({ recipient: '+447400123450', text: 'Your order shipped' });

    // Assess
    expect(sent).toEqual({ code: 0, data: { campaignId: expect.any(Number), messageId: expect.any(Number), status: 2 }, message: '' });
    const record = await until(sent.data.messageId, 'DELIVRD');
    expect(record).toEqual({
      id: sent.data.messageId,
      status: 'DELIVRD',
      segNum: 1,
      startSendTs: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}$/),
      statusUpdateTs: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}$/),
    });
  });

  it('sends with GET and a URL-encoded text, and reports a rejection as REJECTD', async () => {
    const text = encodeURIComponent('50% off? Yes & more / today + tomorrow');
    const response = await fetch(`${service.baseUrl}/service/message/sendsmsmessage?apiKey=${key}&recipient=%2B447400123457&text=${text}`);
    const sent = (await response.json()) as { code: number; data: { messageId: number } };
    expect(sent.code).toBe(0);
    await until(sent.data.messageId, 'REJECTD');
  });

  it('holds the campaign for moderation with status 1; the message stays NEW without times', async () => {
    const { key: moderatedKey, id } = await service.account();
    await service.runtime.accounts.setPrice(id, '*', 0.05);
    await service.runtime.accounts.setModeration(id, 'all');
    const sent = await service.api('Message/SendSmsMessage', moderatedKey, { recipient: '447400123450', text: 'Hi' });
    expect(sent.data.status).toBe(1);
    const status = await service.api('Message/GetSMSStatus', moderatedKey, { ids: String(sent.data.messageId) });
    expect(status.data).toEqual([{ id: sent.data.messageId, status: 'NEW', segNum: 1, startSendTs: null, statusUpdateTs: null }]);
  });

  it('sends a moderated campaign once approved, and rejects the message of a declined one', async () => {
    // Prepare
    const { key: moderatedKey, id } = await service.account();
    await service.runtime.accounts.setPrice(id, '*', 0.05);
    await service.runtime.accounts.setModeration(id, 'all');
    const approved = (await service.api('Message/SendSmsMessage', moderatedKey, { recipient: '447400123450', text: 'Hi' })).data;
    const declined = (await service.api('Message/SendSmsMessage', moderatedKey, { recipient: '447400123450', text: 'Hi' })).data;

    // Act
    await service.runtime.moderation.approve(approved.campaignId);
    await service.runtime.moderation.decline(declined.campaignId);
    await service.runtime.scheduler.sweep();

    // Assess
    const status = async (messageId: number) => (await service.api('Message/GetSMSStatus', moderatedKey, { ids: String(messageId) })).data[0];
    await until(approved.messageId, 'DELIVRD', moderatedKey);
    expect((await status(approved.messageId)).status).toBe('DELIVRD');
    expect((await status(declined.messageId)).status).toBe('REJECTD');
    expect((await service.runtime.campaigns.get(declined.campaignId))?.status).toBe('DECLINED');
    await expect(service.runtime.moderation.approve(declined.campaignId)).rejects.toThrow('not in moderation');
  });

  it.each([
    ['no recipient', { text: 'Hi' }, 11, null],
    ['no text', { recipient: '447400123450' }, 11, null],
    ['an invalid recipient', { recipient: '4477', text: 'Hi' }, 1, { recipient: ['Recipient is not a valid phone number'] }],
    [
      'an unregistered sender',
      { recipient: '447400123450', text: 'Hi', from: 'Nope' },
      1,
      { from: ['Sender Nope is not an approved signature of this account'] },
    ],
    [
      'a validity below 60 minutes',
      { recipient: '447400123450', text: 'Hi', 'params[validity]': '59' },
      1,
      { validity: ['Validity must be 60 to 1440 minutes'] },
    ],
    [
      'a deferral under an hour',
      { recipient: '447400123450', text: 'Hi', 'params[deferredToTs]': '2020-01-01 00:00:00' },
      1,
      { deferredToTs: ['Deferred sending must be 1 hour to 14 days ahead'] },
    ],
    [
      'a deferral in the wrong layout',
      { recipient: '447400123450', text: 'Hi', 'params[deferredToTs]': '2030-01-01T00:00' },
      1,
      { deferredToTs: ['Deferred sending time must be YYYY-MM-DD HH:MM:SS'] },
    ],
    [
      'shortenLinks other than 0 or 1',
      { recipient: '447400123450', text: 'Hi', 'params[shortenLinks]': '2' },
      1,
      { shortenLinks: ['shortenLinks must be 0 or 1'] },
    ],
    ['params that are not fields', { recipient: '447400123450', text: 'Hi', params: 'x' }, 1, { params: ['Expected fields'] }],
    [
      'a text of more than 10 segments',
      { recipient: '447400123450', text: 'x'.repeat(1531) },
      1,
      { text: ['Text is longer than 10 SMS segments (11)'] },
    ],
  ])('returns code %s', async (_, fields, code, data) => {
    const envelope = await send(fields as Record<string, string>);
    expect(envelope).toEqual({ code, data, message: expect.any(String) });
  });

  it('shortens links in the text when asked and counts segments after that', async () => {
    const sent = await send({
      recipient: '447400123450',
      text: 'See https://example.com/a-very-long-path/to/the/offer?utm_source=sms',
      'params[shortenLinks]': '1',
    });
    expect(sent.code).toBe(0);
    const message = await service.runtime.messageStore.get(sent.data.messageId);
    expect(message!.text).toMatch(new RegExp(`^See ${service.baseUrl}/[0-9a-z]{4}$`));
  });

  it('holds a deferred message until its time, in the account zone, then sends it', async () => {
    // Prepare: 2030-06-10 15:00:00 in Asia/Tashkent (UTC+5) is 10:00 UTC (after any sweep of other tests)
    const start = new Date('2030-06-10T08:00:00Z');
    service.runtime.clock = () => start;
    try {
      const sent = await send({ recipient: '447400123450', text: 'Later', 'params[deferredToTs]': '2030-06-10 15:00:00' });
      expect(sent.data.status).toBe(2);

      // Act: a sweep before the time releases nothing; one after it sends the message
      service.runtime.clock = () => new Date('2030-06-10T09:59:30Z');
      expect(await service.runtime.scheduler.sweep()).toBe(0);
      expect((await statusOf(sent.data.messageId)).status).toBe('NEW');
      service.runtime.clock = () => new Date('2030-06-10T10:00:05Z');
      expect(await service.runtime.scheduler.sweep()).toBe(1);
      expect(await service.runtime.scheduler.sweep()).toBe(0);

      // Assess
      await until(sent.data.messageId, 'DELIVRD');
      // The campaign follows its message's report a moment later.
      const campaignStatus = async () => (await service.runtime.campaigns.get(sent.data.campaignId))?.status;
      await eventually(async () => (await campaignStatus()) === 'DONE', {
        failure: async () => `The campaign is ${await campaignStatus()}, not DONE`,
      });
    } finally {
      service.runtime.clock = () => new Date();
    }
  });

  it('expires a message still undelivered when its validity runs out', async () => {
    // Prepare: the simulator accepts numbers ending in 8 and never reports on them
    const acceptedAt = new Date('2031-01-10T10:00:00Z');
    service.runtime.clock = () => acceptedAt;
    try {
      const sent = await send({ recipient: '447400123458', text: 'Hi', 'params[validity]': '60' });
      await until(sent.data.messageId, 'ACCEPTD');

      // Act: sweeps just before and just after the hour of validity
      service.runtime.clock = () => new Date('2031-01-10T10:59:50Z');
      await service.runtime.scheduler.sweep();
      const before = (await statusOf(sent.data.messageId)).status;
      service.runtime.clock = () => new Date('2031-01-10T11:00:10Z');
      await service.runtime.scheduler.sweep();

      // Assess
      expect(before).toBe('ACCEPTD');
      expect(await statusOf(sent.data.messageId)).toMatchObject({ status: 'EXPIRED', statusUpdateTs: '2031-01-10 16-00-00' });
      expect((await service.runtime.campaigns.get(sent.data.campaignId))?.status).toBe('DONE');
    } finally {
      service.runtime.clock = () => new Date();
    }
  });

  describe('Link/GetLinks', () => {
    it('lists the campaign links with their click and redirect counts', async () => {
      // Prepare
      const sent = await send({ recipient: '447400123450', text: 'Deal: www.example.com/deal', 'params[shortenLinks]': '1' });
      const first = await service.api('Link/GetLinks', key, { campaignId: String(sent.data.campaignId) });
      expect(first).toEqual({
        code: 0,
        data: [
          {
            id: expect.any(Number),
            code: expect.any(String),
            fullLink: 'www.example.com/deal',
            shortLink: expect.any(String),
            clickCnt: 0,
            redirectCnt: 0,
            comment: null,
          },
        ],
        message: '',
      });

      // Act: the recipient taps the link
      await fetch(first.data[0].shortLink, {
        redirect: 'manual',
        headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Mobile Safari/537.36' },
      });
      await service.local.queues.drain();

      // Assess
      const after = await service.api('Link/GetLinks', key, { campaignId: String(sent.data.campaignId) });
      expect(after.data[0]).toMatchObject({ clickCnt: 1, redirectCnt: 1 });
    });

    it('returns code 2 for unknown and other accounts\u2019 campaigns, and 11 without a campaignId', async () => {
      const sent = await send({ recipient: '447400123450', text: 'Hi' });
      const other = await service.account();
      expect((await service.api('Link/GetLinks', other.key, { campaignId: String(sent.data.campaignId) })).code).toBe(2);
      expect((await service.api('Link/GetLinks', key, { campaignId: '999999' })).code).toBe(2);
      expect((await service.api('Link/GetLinks', key, { campaignId: 'abc' })).code).toBe(2);
      expect((await service.api('Link/GetLinks', key, {})).code).toBe(11);
    });
  });

  describe('GetSMSStatus', () => {
    it('returns code 2 without ids and 12 for more than 100', async () => {
      expect((await service.api('Message/GetSMSStatus', key, {})).code).toBe(2);
      expect((await service.api('Message/GetSMSStatus', key, { ids: '' })).code).toBe(2);
      const many = Array.from({ length: 101 }, (_, i) => String(i + 1)).join(',');
      expect((await service.api('Message/GetSMSStatus', key, { ids: many })).code).toBe(12);
    });

    it('always answers an array, leaving out unknown ids and other accounts\u2019 messages', async () => {
      const mine = await send({ recipient: '447400123450', text: 'Mine' });
      const other = await service.account();
      const envelope = await service.api('Message/GetSMSStatus', other.key, { ids: `${mine.data.messageId},999999` });
      expect(envelope).toEqual({ code: 0, data: [], message: '' });
      const own = await service.api('Message/GetSMSStatus', key, { ids: `${mine.data.messageId},999999` });
      expect(own.data.map((record: { id: number }) => record.id)).toEqual([mine.data.messageId]);
    });
  });
});
