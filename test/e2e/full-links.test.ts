import { LinkCodec } from '../../shared/domain/link-code';
import type { Link } from '../../shared/domain/links';
import { IndexedLinksRepository } from '../../shared/store/indexed-lists';
import type { LinksRepository } from '../../shared/store/links-repo';
import { aLink } from '../support/fixtures';
import { startService, type TestService } from '../support/local-service';

// Short links on a name of their own, so that its other spellings are refused as the
// short-link host and not merely as loopback (the server itself listens on 127.0.0.1).
const SHORT_LINK_BASE = 'https://sho.rt';

describe('full links beyond ASCII, and links back to this service or this machine', () => {
  let service: TestService;
  let key: string;
  let accountId: number;

  beforeAll(async () => {
    service = await startService({ shortLinkBase: SHORT_LINK_BASE });
    ({ key, id: accountId } = await service.account());
    await service.runtime.accounts.setPrice(accountId, '*', 0.05);
  });
  afterAll(() => service.close());

  const visit = (code: string) => fetch(`${service.baseUrl}/${code}`, { redirect: 'manual' });
  const create = (fullLink: string) => service.api('Link/Create', key, { 'data[fullLink]': fullLink });
  const listed = async () =>
    (await service.api('Link/List', key, { 'pagination[pageSize]': '100' })).data as {
      items: Array<{ id: number; fullLink: string }>;
      totalItemCount: number;
    };

  describe('redirects', () => {
    it.each([
      ['https://example.com/привет', 'https://example.com/%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82'],
      ['https://пример.рф/', 'https://xn--e1afmkfd.xn--p1ai/'],
      ['пример.рф/путь?q=да#я', 'http://xn--e1afmkfd.xn--p1ai/%D0%BF%D1%83%D1%82%D1%8C?q=%D0%B4%D0%B0#%D1%8F'],
      ['https://example.com/😀?q=🎉', 'https://example.com/%F0%9F%98%80?q=%F0%9F%8E%89'],
      ['https://😀.example/', 'https://xn--e28h.example/'],
      ['https://example．com/', 'https://example.com/'],
      ['https://example.com/café', 'https://example.com/caf%C3%A9'],
    ])('sends %s to its WHATWG serialization %s, and shows it as given', async (fullLink, location) => {
      // Prepare
      const created = await create(fullLink);
      expect(created.code).toBe(0);

      // Act: the first visit reads the link, the second finds it in the cache
      const first = await visit(created.data.code);
      const second = await visit(created.data.code);

      // Assess
      for (const response of [first, second]) {
        expect(response.status).toBe(302);
        expect(response.headers.get('location')).toBe(location);
      }
      expect((await service.api('Link/Get', key, { id: String(created.data.id) })).data.fullLink).toBe(fullLink);
      expect((await listed()).items.find((item) => item.id === created.data.id)?.fullLink).toBe(fullLink);
    });

    describe('links written directly to the table, as stored before', () => {
      let repository: LinksRepository;
      let codec: LinkCodec;
      let nextId = 7_000_000;

      beforeAll(async () => {
        await create('https://example.com/'); // so that the code secret exists
        repository = new IndexedLinksRepository(service.runtime.store);
        codec = new LinkCodec((await service.runtime.settings.existingLinkCodeSecret())!);
      });

      async function store(fullLink: string): Promise<Link> {
        const id = nextId++;
        const link = aLink({ id, accountId, code: codec.encode(id), fullLink, createdAt: new Date().toISOString() });
        await repository.create(link);
        return link;
      }

      it('redirects a stored Cyrillic link, serialized when it is read', async () => {
        // Prepare
        const link = await store('пример.рф/акция');

        // Act
        const response = await visit(link.code);

        // Assess
        expect(response.status).toBe(302);
        expect(response.headers.get('location')).toBe('http://xn--e1afmkfd.xn--p1ai/%D0%B0%D0%BA%D1%86%D0%B8%D1%8F');
        expect((await service.api('Link/Get', key, { id: String(link.id) })).data.fullLink).toBe('пример.рф/акция');
      });

      it('answers a 404 page, not a 500, for a stored full link that is no URL', async () => {
        // Prepare
        const link = await store('https://exa\u200dmple.com/');

        // Act
        const response = await visit(link.code);

        // Assess
        expect(response.status).toBe(404);
        expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(await response.text()).toContain('not a valid web address');
      });
    });
  });

  describe('refusals', () => {
    it('takes a long Cyrillic link whose encoding fits a redirect, and refuses one whose encoding does not', async () => {
      // Prepare: 1,300 letters encode to 7,800 characters, 2,000 to 12,000
      const fits = `https://example.com/${'я'.repeat(1300)}`;
      const tooLong = `https://example.com/${'я'.repeat(1980)}`;
      const before = (await listed()).totalItemCount;

      // Act
      const kept = await create(fits);
      const refused = await create(tooLong);

      // Assess
      expect(kept.code).toBe(0);
      const response = await visit(kept.data.code);
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toHaveLength(20 + 1300 * 6);
      expect(refused).toEqual({
        code: 1,
        data: { fullLink: ['Full link is too long once encoded for the redirect (11900 characters; at most 8000)'] },
        message: expect.any(String),
      });
      expect((await listed()).totalItemCount).toBe(before + 1);
    });

    const local = 'Links to local addresses (localhost, loopback, link-local or unspecified) are not allowed';
    const own = 'Links to the short-link domain are not allowed';

    it.each([
      ['http://127.0.0.1:{port}/abcd', local],
      ['http://[::ffff:127.0.0.1]:{port}/abcd', local],
      ['http://0.0.0.0:{port}/abcd', local],
      ['http://[::1]:{port}/abcd', local],
      ['http://[::]:{port}/abcd', local],
      ['http://2130706433:{port}/abcd', local],
      ['http://0x7f.1:{port}/abcd', local],
      ['http://127.0.0.1.:{port}/abcd', local],
      ['localhost:{port}/abcd', local],
      ['http://LOCALHOST.:{port}/abcd', local],
      ['http://short.localhost/abcd', local],
      ['http://169.254.169.254/latest/meta-data/', local],
      ['http://[::ffff:169.254.169.254]/', local],
      ['http://[fe80::1]/', local],
      ['https://SHO.RT/abcd', own],
      ['https://sho.rt./abcd', own],
      ['sho．rt/abcd', own],
      ['https://ｓｈｏ.ｒｔ/abcd', own],
      ['http://sho.rt:8080/abcd', own],
      ['https://exa\u200dmple.com/', 'Invalid URL'],
    ])('refuses %s with code 1 and writes nothing', async (spelling, problem) => {
      // Prepare
      const fullLink = spelling.replace('{port}', String(service.local.port));
      const before = (await listed()).totalItemCount;

      // Act
      const envelope = await create(fullLink);

      // Assess
      expect(envelope).toEqual({ code: 1, data: { fullLink: [problem] }, message: expect.stringMatching(/\w/) });
      expect((await listed()).totalItemCount).toBe(before);
    });

    it('leaves fullLink alone in Link/Update, so no local address gets in that way', async () => {
      // Prepare
      const created = await create('https://example.com/keep');

      // Act
      const updated = await service.api('Link/Update', key, { id: String(created.data.id), 'data[fullLink]': 'http://[::1]/' });

      // Assess
      expect(updated.code).toBe(0);
      expect((await service.api('Link/Get', key, { id: String(created.data.id) })).data.fullLink).toBe('https://example.com/keep');
    });

    it('shortens the other links of an SMS text and leaves local and own ones as written', async () => {
      // Prepare
      const loopback = `http://[::ffff:127.0.0.1]:${service.local.port}/abcd`;
      const own = 'https://SHO.RT./abcd';
      const text = `Offer https://пример.рф/акция see ${loopback} or ${own}`;
      const before = (await listed()).totalItemCount;

      // Act
      const sent = await service.api('Message/SendSmsMessage', key, { recipient: '447400123450', text, 'params[shortenLinks]': '1' });

      // Assess: as with any text that is no valid link, they stay in the text unshortened
      expect(sent.code).toBe(0);
      const message = await service.runtime.messageStore.get(sent.data.messageId);
      expect(message!.text).toMatch(new RegExp(`^Offer ${SHORT_LINK_BASE}/[0-9a-z]{4} see ${escapeRegExp(loopback)} or ${escapeRegExp(own)}$`));
      const links = (await service.api('Link/GetLinks', key, { campaignId: String(sent.data.campaignId) })).data as Array<{ fullLink: string }>;
      expect(links.map((link) => link.fullLink)).toEqual(['https://пример.рф/акция']);
      expect((await listed()).totalItemCount).toBe(before + 1);
    });
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
