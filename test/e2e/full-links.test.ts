import { LinkCodec } from '../../shared/domain/link-code';
import type { Link } from '../../shared/domain/links';
import { LinksRepository } from '../../shared/store/links-repo';
import { startService, type TestService } from '../support/local-service';

// Short links on a name of their own, so that its other spellings are refused as the
// short-link host and not merely as loopback (the server itself listens on 127.0.0.1).
const SHORT_LINK_BASE = 'https://sho.rt';

describe('full links beyond ASCII', () => {
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
  const listed = async () => (await service.api('Link/List', key, { 'pagination[pageSize]': '100' })).data as { items: Array<{ id: number; fullLink: string }>; totalItemCount: number };

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
        repository = new LinksRepository(service.runtime.store);
        codec = new LinkCodec((await service.runtime.settings.existingLinkCodeSecret())!);
      });

      async function store(fullLink: string): Promise<Link> {
        const id = nextId++;
        const link: Link = {
          id, accountId, code: codec.encode(id), fullLink, status: 1, moderatorStatus: 1, moderatorComment: null, comment: null,
          expirationDate: null, expiresAt: null, clickCnt: 0, redirectCnt: 0, createdAt: new Date().toISOString(), campaignId: null, trackingCode: null,
        };
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
});
