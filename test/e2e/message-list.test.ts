import { eventually } from '../support/eventually';
import { startService, type TestService } from '../support/local-service';

describe('Message/List', () => {
  let service: TestService;
  let key: string;
  const sent: { campaignId: number; messageId: number; to: string; text: string }[] = [];

  beforeAll(async () => {
    service = await startService();
    const account = await service.account();
    key = account.key;
    await service.runtime.accounts.setPrice(account.id, '*', 0.05);
    for (const [to, text] of [
      ['447400123450', 'Order 1 shipped'],
      ['447400123456', 'Order 2 shipped'],
      ['77012345670', 'Привет'],
    ]) {
      const { data } = await service.api('Message/SendSmsMessage', key, { recipient: to!, text: text! });
      sent.push({ ...data, to: to!, text: text! });
    }
    // Wait for the simulator's final reports (they come on its timer).
    const statuses = async () =>
      (await service.api('Message/GetSMSStatus', key, { ids: sent.map((s) => s.messageId).join(',') })).data.map(
        (record: { status: string }) => record.status,
      ) as string[];
    const final = (now: string[]) => now.length === sent.length && now.every((status) => ['DELIVRD', 'UNDELIV'].includes(status));
    await eventually(async () => final(await statuses()), {
      failure: async () => `Statuses: ${(await statuses()).join(', ')}`,
    });
  });
  afterAll(() => service.close());

  const list = (fields: Record<string, string | string[]> = {}, apiKey = key) => service.api('Message/List', apiKey, fields);
  const ids = (envelope: { data: { items: { id: number }[] } }) => envelope.data.items.map((item) => item.id);

  it('lists the account\u2019s messages newest first with the fields of a message', async () => {
    const envelope = await list();
    expect(envelope.code).toBe(0);
    expect(envelope.data.totalItemCount).toBe(3);
    expect(ids(envelope)).toEqual(sent.map((s) => s.messageId).reverse());
    expect(envelope.data.items[2]).toEqual({
      id: sent[0]!.messageId,
      campaignId: sent[0]!.campaignId,
      segNum: 1,
      segUserBuy: 0.05,
      from: 'SMSService',
      to: '447400123450',
      text: 'Order 1 shipped',
      status: 'DELIVRD',
      groups: '',
      uuid: expect.stringMatching(/^[0-9A-Z]{26}$/),
      startSendTs: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}$/),
      statusUpdateTs: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}$/),
    });
  });

  it('adds country and operator with withNumberInfo=1', async () => {
    const envelope = await list({ withNumberInfo: '1', 'criteria[to]': '7701' });
    expect(envelope.data.items).toHaveLength(1);
    expect(envelope.data.items[0]).toMatchObject({ countryA2: 'KZ', operatorName: expect.any(String) });
    expect(Object.keys((await list()).data.items[0])).not.toContain('countryA2');
  });

  it.each([
    ['to, in the middle when no number starts or ends with it', { 'criteria[to]': '400123456' }, [1]],
    ['to, by its end (not also where it is only inside)', { 'criteria[to]': '0' }, [2, 0]],
    ['to, by its start', { 'criteria[to]': '4474' }, [1, 0]],
    ['text, whole', { 'criteria[text]': 'Order 1 shipped' }, [0]],
    ['text, not partly', { 'criteria[text]': 'Order' }, []],
    ['status', { 'criteria[status]': 'UNDELIV' }, [1]],
    ['campaignIds as an array', { 'criteria[campaignIds][]': ['CAMPAIGN0', 'CAMPAIGN2'] }, [2, 0]],
    ['campaignIds as a comma string', { 'criteria[campaignIds]': 'CAMPAIGN1' }, [1]],
    ['campaignStatus', { 'criteria[campaignStatus]': 'DONE' }, [2, 1, 0]],
    ['campaignStatus NOT_YET_SENT', { 'criteria[campaignStatus]': 'NOT_YET_SENT' }, []],
    ['from', { 'criteria[from]': 'SMSService' }, [2, 1, 0]],
    ['groups (no contact book yet)', { 'criteria[groups]': '5' }, []],
  ])('filters by %s', async (_, fields, positions) => {
    const resolved = Object.fromEntries(
      Object.entries(fields).map(([name, value]) => [
        name,
        [value].flat().map((v) => v.replace(/CAMPAIGN(\d)/, (_m: string, i: string) => String(sent[Number(i)]!.campaignId))),
      ]),
    ) as Record<string, string[]>;
    expect(ids(await list(resolved))).toEqual(positions.map((p) => sent[p]!.messageId));
  });

  it('breaks ties by creation in the sort\u2019s direction', async () => {
    const inOrder = sent.map((s) => s.messageId);
    expect(ids(await list({ 'sort[from]': 'ASC' }))).toEqual(inOrder);
    expect(ids(await list({ 'sort[from]': 'DESC' }))).toEqual([...inOrder].reverse());
  });

  it('sorts by a field in either direction', async () => {
    expect(ids(await list({ 'sort[to]': 'ASC' }))).toEqual([sent[0]!.messageId, sent[1]!.messageId, sent[2]!.messageId]);
    expect(ids(await list({ 'sort[campaignId]': 'DESC' }))).toEqual(sent.map((s) => s.messageId).reverse());
  });

  it('pages with pageSize and currentPage', async () => {
    const envelope = await list({ 'pagination[pageSize]': '25', 'pagination[currentPage]': '1' });
    expect(envelope.data).toEqual({ items: [], totalItemCount: 3 });
  });

  it('shows nothing of other accounts', async () => {
    const other = await service.account();
    expect((await list({}, other.key)).data).toEqual({ items: [], totalItemCount: 0 });
  });

  it.each([
    ['a bad status', { 'criteria[status]': 'SENT' }],
    ['a bad campaign status', { 'criteria[campaignStatus]': 'LATE' }],
    ['bad campaign ids', { 'criteria[campaignIds]': '1,x' }],
    ['a bad time', { 'criteria[startSendTsFrom]': 'yesterday' }],
    ['a bad sort field', { 'sort[uuid]': 'ASC' }],
    ['a bad page size', { 'pagination[pageSize]': '10' }],
    ['a bad withNumberInfo', { withNumberInfo: '2' }],
  ])('returns code 12 for %s', async (_, fields) => {
    expect((await list(fields)).code).toBe(12);
  });
});
