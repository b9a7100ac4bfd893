import { eventually } from '../support/eventually';
import { startService, type TestService } from '../support/local-service';
import { adminCall, operatorToken } from '../support/operators';

/** The operator API's moderation queue over HTTP: links to block or approve, campaigns held in MODERATION. */
describe('operator API: links and campaigns', () => {
  let service: TestService;
  let token: string;
  let tokenId: string;
  let account: { id: number; key: string };

  beforeAll(async () => {
    service = await startService();
    ({ token, tokenId } = await operatorToken(service, 'Moderator'));
    account = await service.account();
    await service.runtime.accounts.setPrice(account.id, '*', 0.05);
  });
  afterAll(() => service.close());

  const call = (path: string, options?: Parameters<typeof adminCall>[3]) => adminCall(service.baseUrl, token, path, options);
  const createLink = async (fullLink: string) => (await service.api('Link/Create', account.key, { 'data[fullLink]': fullLink })).data;
  const visit = (code: string) => fetch(`${service.baseUrl}/${code}`, { redirect: 'manual' });
  const statusOf = async (messageId: number) => (await service.api('Message/GetSMSStatus', account.key, { ids: String(messageId) })).data[0]?.status;
  const latestAudit = async () => ((await call('audit/list', { query: { limit: '1' } })).json?.data as any[] | undefined)?.[0];

  describe('links', () => {
    it('finds a link by id, code or short link, with its account and short link', async () => {
      // Prepare
      const link = await createLink('https://example.com/find');

      // Act
      const byId = await call('links/find', { query: { id: String(link.id) } });
      const byCode = await call('links/find', { query: { code: link.code.toUpperCase() } });
      const byShortLink = await call('links/find', { query: { shortLink: link.shortLink } });

      // Assess
      expect(byId.json?.data).toMatchObject({
        id: link.id,
        accountId: account.id,
        code: link.code,
        shortLink: link.shortLink,
        fullLink: 'https://example.com/find',
      });
      expect(byCode.json?.data).toEqual(byId.json?.data);
      expect(byShortLink.json?.data).toEqual(byId.json?.data);
    });

    it('answers links/find with 400 unless exactly one reference is given, and 404 for an unknown link', async () => {
      expect((await call('links/find')).status).toBe(400);
      expect((await call('links/find', { query: { id: '1', code: 'abc' } })).status).toBe(400);
      expect((await call('links/find', { query: { id: '999999999' } })).status).toBe(404);
    });

    it('blocks a link: its redirect answers 451; it is listed as blocked and recent; approving lets it redirect again', async () => {
      // Prepare
      const link = await createLink('https://example.com/blocked');
      expect((await visit(link.code)).status).toBe(302);

      // Act
      const blocked = await call('links/block', { body: { id: link.id, comment: 'Phishing' } });
      const redirectWhileBlocked = (await visit(link.code)).status;
      const listed = await call('links/blocked', { query: { accountId: String(account.id) } });
      const recent = await call('links/recent', { query: { accountId: String(account.id), pageSize: '25', page: '0' } });
      const audited = await latestAudit();
      const approved = await call('links/approve', { body: { id: link.id } });

      // Assess
      expect(blocked.json?.data).toMatchObject({ id: link.id, moderatorStatus: 0, moderatorComment: 'Phishing', shortLink: link.shortLink });
      expect(redirectWhileBlocked).toBe(451);
      expect(listed.json?.data.items.map((l: { id: number }) => l.id)).toEqual([link.id]);
      expect(listed.json?.data.totalItemCount).toBe(1);
      expect(recent.json?.data.items[0]).toMatchObject({ id: link.id, accountId: account.id });
      expect(audited).toMatchObject({
        operator: { tokenId, name: 'Moderator' },
        action: 'links/block',
        target: { id: link.id },
        input: { id: link.id, comment: 'Phishing' },
        outcome: 'ok',
      });
      expect(approved.json?.data.moderatorStatus).toBe(1);
      expect((await visit(link.code)).status).toBe(302);
    });

    it('answers a comment over 255 characters with 400 and leaves the link as it was', async () => {
      // Prepare
      const link = await createLink('https://example.com/comment');

      // Act
      const answer = await call('links/block', { body: { id: link.id, comment: 'x'.repeat(256) } });

      // Assess
      expect(answer.status).toBe(400);
      expect(answer.json?.error?.fields).toHaveProperty('comment');
      expect((await visit(link.code)).status).toBe(302);
    });

    it('answers blocking an unknown link with 404', async () => {
      expect((await call('links/block', { body: { id: 999999999 } })).status).toBe(404);
    });
  });

  describe('campaigns', () => {
    const sendHeld = async (text: string) => (await service.api('Message/SendSmsMessage', account.key, { recipient: '447400123450', text })).data;

    beforeAll(() => service.runtime.accounts.setModeration(account.id, 'all'));

    it('lists held campaigns oldest first with their message; approving one sends it (DELIVRD), declining one makes its message REJECTD', async () => {
      // Prepare
      const approved = await sendHeld('Approve me');
      const declined = await sendHeld('Decline me');
      const held = await call('campaigns/held');

      // Act
      const approval = await call('campaigns/approve', { body: { id: approved.campaignId } });
      const decline = await call('campaigns/decline', { body: { id: declined.campaignId } });
      await service.runtime.scheduler.sweep();

      // Assess
      const heldIds = held.json?.data.items.map((c: { id: number }) => c.id);
      expect(heldIds.indexOf(approved.campaignId)).toBeLessThan(heldIds.indexOf(declined.campaignId));
      expect(held.json?.data.items).toContainEqual(
        expect.objectContaining({
          id: declined.campaignId,
          status: 'MODERATION',
          accountId: account.id,
          message: { to: '447400123450', text: 'Decline me', from: expect.any(String) },
        }),
      );
      expect(approval.json?.data).toMatchObject({ id: approved.campaignId, status: 'READY_FOR_SEND' });
      expect(decline.json?.data).toMatchObject({ id: declined.campaignId, status: 'DECLINED' });
      await eventually(async () => (await statusOf(approved.messageId)) === 'DELIVRD');
      expect(await statusOf(declined.messageId)).toBe('REJECTD');
      const after = (await call('campaigns/held', { query: { pageSize: '100' } })).json?.data.items.map((c: { id: number }) => c.id);
      expect(after).not.toContain(approved.campaignId);
      expect(after).not.toContain(declined.campaignId);
      expect((await call('campaigns/get', { query: { id: String(declined.campaignId) } })).json?.data.status).toBe('DECLINED');
    });

    it('answers approving a campaign that is not held with 409, and records the refusal', async () => {
      // Prepare
      const campaign = await sendHeld('Twice');
      await call('campaigns/decline', { body: { id: campaign.campaignId } });

      // Act
      const again = await call('campaigns/approve', { body: { id: campaign.campaignId } });

      // Assess
      expect(again.status).toBe(409);
      expect(again.json?.error).toEqual({ code: 'conflict', message: `Campaign ${campaign.campaignId} is DECLINED, not in moderation` });
      expect(await latestAudit()).toMatchObject({ action: 'campaigns/approve', target: { id: campaign.campaignId }, outcome: 'conflict' });
      expect(await statusOf(campaign.messageId)).toBe('REJECTD');
    });

    it('counts the held campaigns, lists the newest last, and answers a page past them empty', async () => {
      // Prepare
      const before = (await call('campaigns/held')).json?.data.totalItemCount as number;
      const sent = [];
      for (let i = 0; i < 3; i++) sent.push(await sendHeld(`Page ${i}`));

      // Act
      const all = (await call('campaigns/held', { query: { pageSize: '100' } })).json?.data;
      const past = (await call('campaigns/held', { query: { page: '1', pageSize: '25' } })).json?.data;

      // Assess
      expect(all.totalItemCount).toBe(before + 3);
      expect(all.items.slice(-3).map((c: { id: number }) => c.id)).toEqual(sent.map((s) => s.campaignId));
      // Pages themselves: test/integration/held-campaigns.test.ts.
      expect(past).toEqual({ items: [], totalItemCount: before + 3 });
    });

    it('answers an unknown campaign with 404 and a bad id with 400', async () => {
      expect((await call('campaigns/get', { query: { id: '999999999' } })).status).toBe(404);
      expect((await call('campaigns/approve', { body: { id: 999999999 } })).status).toBe(404);
      expect((await call('campaigns/decline', { body: { id: 'one' } })).status).toBe(400);
      expect((await call('campaigns/held', { query: { pageSize: '7' } })).status).toBe(400);
    });
  });
});
