import { AppError } from '../../shared/domain/errors';
import { failure, startService, type TestService } from '../support/local-service';

/**
 * Length limits of stored text over HTTP: counted in code points, so combining marks
 * count (one grapheme can hold thousands) and an emoji counts once; over the limit →
 * code 1 naming the field, nothing written.
 */
describe('text limits', () => {
  let service: TestService;
  let key: string;
  let accountId: number;

  beforeAll(async () => {
    service = await startService();
    ({ key, id: accountId } = await service.account());
    await service.runtime.accounts.setPrice(accountId, '*', 0.05);
  });
  afterAll(() => service.close());

  const ACUTE = '\u0301';
  /** 255 graphemes, 408,255 code points, 816,255 bytes of UTF-8. */
  const MARKED = `a${ACUTE.repeat(1600)}`.repeat(255);
  const EMOJI = '😀';

  /** Sends `fields` as a form body with values in raw UTF-8, as under the 1 MiB body limit they fit. */
  const raw = (path: string, apiKey: string, fields: Record<string, string>) =>
    service.post(
      path,
      apiKey,
      Object.entries(fields)
        .map(([name, value]) => `${encodeURIComponent(name)}=${value.replace(/[&=+%]/g, encodeURIComponent)}`)
        .join('&'),
    );
  const linkCount = async (apiKey: string) => (await service.api('Link/List', apiKey, {})).data.totalItemCount as number;
  const messageCount = async (apiKey: string) => (await service.api('Message/List', apiKey, {})).data.totalItemCount as number;

  describe('Link/Create and Link/Update data[comment]', () => {
    it('returns code 1 for 255 letters carrying 1,600 combining marks each, and writes nothing', async () => {
      // Prepare
      const own = await service.account();
      const kept = await service.api('Link/Create', own.key, { 'data[fullLink]': 'https://example.com/kept', 'data[comment]': 'kept' });

      // Act
      const created = await raw('Link/Create', own.key, { 'data[fullLink]': 'https://example.com', 'data[comment]': MARKED });
      const updated = await raw('Link/Update', own.key, { id: String(kept.data.id), 'data[comment]': MARKED });

      // Assess
      expect(created.envelope).toEqual(failure(1, { comment: ['Comment must be at most 255 characters'] }));
      expect(updated.envelope).toEqual(failure(1, { comment: ['Comment must be at most 255 characters'] }));
      expect(await linkCount(own.key)).toBe(1);
      expect((await service.api('Link/Get', own.key, { id: String(kept.data.id) })).data.comment).toBe('kept');
    });

    it('counts each combining mark: 128 decomposed é are 256 characters', async () => {
      expect(await service.api('Link/Create', key, { 'data[fullLink]': 'https://example.com', 'data[comment]': `e${ACUTE}`.repeat(128) })).toEqual(
        failure(1, { comment: ['Comment must be at most 255 characters'] }),
      );
      const fits = await service.api('Link/Create', key, {
        'data[fullLink]': 'https://example.com',
        'data[comment]': `e${ACUTE}`.repeat(127).concat('e'),
      });
      expect(fits.code).toBe(0);
    });

    it('counts an emoji once: 255 are stored whole (1,020 bytes), 256 are refused', async () => {
      const created = await service.api('Link/Create', key, { 'data[fullLink]': 'https://example.com', 'data[comment]': EMOJI.repeat(255) });
      expect(created.code).toBe(0);
      expect((await service.api('Link/Get', key, { id: String(created.data.id) })).data.comment).toBe(EMOJI.repeat(255));
      expect(await service.api('Link/Update', key, { id: String(created.data.id), 'data[comment]': EMOJI.repeat(256) })).toEqual(
        failure(1, { comment: ['Comment must be at most 255 characters'] }),
      );
    });
  });

  describe('Link/Create data[fullLink]', () => {
    const base = 'https://example.com/';

    // 500 emoji (1,000 UTF-16 units) among 2,000 code points: over 2,000 if units were counted,
    // and 7,480 characters once encoded for the redirect, within its 8,000.
    const link = (codePoints: number) => base + EMOJI.repeat(500) + 'a'.repeat(codePoints - base.length - 500);

    it('counts code points: 2,000 with emoji in the path are accepted, 2,001 refused', async () => {
      const fits = await service.api('Link/Create', key, { 'data[fullLink]': link(2000) });
      const over = await service.api('Link/Create', key, { 'data[fullLink]': link(2001) });
      expect(fits.code).toBe(0);
      expect((await service.api('Link/Get', key, { id: String(fits.data.id) })).data.fullLink).toBe(link(2000));
      expect(over).toEqual(failure(1, { fullLink: ['Full link must be at most 2000 characters'] }));
    });

    it('refuses a path of combining marks past 2,000 code points', async () => {
      const { envelope } = await raw('Link/Create', key, { 'data[fullLink]': `${base}a${ACUTE.repeat(100_000)}` });
      expect(envelope).toEqual(failure(1, { fullLink: ['Full link must be at most 2000 characters'] }));
    });
  });

  describe('Message/SendSmsMessage', () => {
    it('returns code 1 for a params[name] of 255 letters carrying 1,600 combining marks each, and writes nothing', async () => {
      // Prepare
      const own = await service.account();
      await service.runtime.accounts.setPrice(own.id, '*', 0.05);

      // Act
      const { envelope } = await raw('Message/SendSmsMessage', own.key, { recipient: '447400123450', text: 'Hi', 'params[name]': MARKED });

      // Assess
      expect(envelope).toEqual(failure(1, { name: ['Campaign name must be at most 255 characters'] }));
      expect(await messageCount(own.key)).toBe(0);
    });

    it('takes a params[name] of 255 emoji and refuses 256', async () => {
      const sent = await service.api('Message/SendSmsMessage', key, { recipient: '447400123450', text: 'Hi', 'params[name]': EMOJI.repeat(255) });
      const refused = await service.api('Message/SendSmsMessage', key, { recipient: '447400123450', text: 'Hi', 'params[name]': EMOJI.repeat(256) });
      expect(sent.code).toBe(0);
      expect((await service.runtime.campaigns.get(sent.data.campaignId))?.name).toBe(EMOJI.repeat(255));
      expect(refused).toEqual(failure(1, { name: ['Campaign name must be at most 255 characters'] }));
    });

    it('returns code 1 for a from longer than any signature, without echoing it', async () => {
      const { envelope } = await raw('Message/SendSmsMessage', key, { recipient: '447400123450', text: 'Hi', from: 'S'.repeat(500_000) });
      expect(envelope).toEqual(failure(1, { from: ['Sender must be at most 15 characters'] }));
      expect(envelope!.message.length).toBeLessThan(100);
    });

    it('refuses a text beyond 10 segments, so the stored text stays within about 3 KB', async () => {
      const { envelope } = await raw('Message/SendSmsMessage', key, { recipient: '447400123450', text: MARKED });
      expect(envelope).toEqual(failure(1, { text: [expect.stringMatching(/longer than 10 SMS segments/)] }));
    });
  });

  describe('administration', () => {
    it('bounds account names to 100 characters', async () => {
      await expect(service.runtime.accounts.createAccount({ name: `a${ACUTE.repeat(100)}` })).rejects.toThrow(
        new AppError('invalid', 'An account name must be at most 100 characters'),
      );
      const account = await service.runtime.accounts.createAccount({ name: EMOJI.repeat(100) });
      await expect(service.runtime.accounts.updateAccount(account.id, { name: EMOJI.repeat(101) })).rejects.toThrow(/at most 100 characters/);
      expect((await service.runtime.accounts.getAccount(account.id)).name).toBe(EMOJI.repeat(100));
    });

    it('bounds moderator comments to 255 characters and changes nothing when refusing one', async () => {
      const link = await service.api('Link/Create', key, { 'data[fullLink]': 'https://example.com/moderated' });
      await expect(service.runtime.links.moderate(link.data.id, 0, `a${ACUTE.repeat(255)}`)).rejects.toThrow(
        /A moderator comment must be at most 255 characters/,
      );
      expect((await service.api('Link/Get', key, { id: String(link.data.id) })).data).toMatchObject({ moderatorStatus: 1, moderatorComment: null });
      const blocked = await service.runtime.links.moderate(link.data.id, 0, EMOJI.repeat(255));
      expect(blocked.moderatorComment).toBe(EMOJI.repeat(255));
    });

    it('bounds webhook URLs to 2,000 characters and secrets to 256', async () => {
      await expect(service.runtime.webhooks.register(accountId, `https://example.com/${'a'.repeat(2000)}`)).rejects.toThrow(
        /Webhook URL must be at most 2000 characters/,
      );
      await expect(service.runtime.webhooks.register(accountId, 'https://example.com/hook', 's'.repeat(257))).rejects.toThrow(
        /Secret must be at most 256 characters/,
      );
      expect(await service.runtime.webhooks.list(accountId)).toEqual([]);
    });
  });

  describe('values repeated in error messages', () => {
    it.each([
      ['Message/List', { 'criteria[status]': 'X'.repeat(500_000) }, 12, 'criteria[status] is not a message status'],
      ['Link/List', { [`sort[${'k'.repeat(500_000)}]`]: 'ASC' }, 12, 'Cannot sort by'],
    ])('repeats at most 40 characters of a long value in the %s message', async (path, fields, code, start) => {
      // Act
      const answer = await service.api(path, key, fields as Record<string, string>);

      // Assess
      expect(answer.code).toBe(code);
      expect(answer.message.startsWith(start)).toBe(true);
      expect(answer.message.length).toBeLessThan(200);
    });
  });
});
