import fc from 'fast-check';
import {
  call,
  DOCUMENTED_CODES,
  type Fixture,
  formOf,
  fuzzSettings,
  hostileText,
  pathOf,
  REDIRECT_STATUSES,
  redirectPath,
  xmlCode,
  xmlError,
} from '../support/fuzz';
import { startService, type TestService } from '../support/local-service';

/**
 * Property-based fuzzing of the ten operations and the redirect over real HTTP: whatever
 * a client sends, the answer is the documented envelope with a documented code (never 3,
 * never a 5xx), the XML variant always parses, and a short link answers a documented
 * status. CI runs a fixed seed; `npm run fuzz` runs more cases with a random one.
 */

/** Node's limit on a request line and headers (--max-http-header-size). */
const MAX_HEADER_BYTES = 16 * 1024;
/** Room for slow machines: a quarter of a second a case, at least a minute. */
const timeoutFor = (defaultRuns: number) => Math.max(60_000, fuzzSettings(defaultRuns).numRuns * 250);
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

describe('fuzzing the API and the redirect', () => {
  let service: TestService;
  let key: string;
  const fixture: Fixture = { linkIds: [], codes: [], shortLinks: [], messageIds: [], campaignIds: [] };

  beforeAll(async () => {
    service = await startService();
    const account = await service.account({ timeZone: 'Pacific/Kiritimati' });
    key = account.key;
    await service.runtime.accounts.setPrice(account.id, '*', 0.05);
    const links: Array<Record<string, string>> = [
      { 'data[fullLink]': 'https://example.com/a', 'data[comment]': 'Ноябрь' },
      { 'data[fullLink]': 'www.example.org/b', 'data[status]': '0' },
      { 'data[fullLink]': 'https://example.net/c', 'data[expirationDate]': '2099-12-31' },
    ];
    for (const fields of links) {
      const { data } = await service.api('Link/Create', key, fields);
      fixture.linkIds.push(String(data.id));
      fixture.codes.push(data.code);
      fixture.shortLinks.push(data.shortLink);
    }
    const sent = await service.api('Message/SendSmsMessage', key, {
      recipient: '77012345670',
      text: 'Привет https://example.com/offer',
      'params[shortenLinks]': '1',
    });
    fixture.messageIds.push(String(sent.data.messageId));
    fixture.campaignIds.push(String(sent.data.campaignId));
  });
  afterAll(() => service.close());

  it(
    'answers every operation with a documented envelope, never code 3, and XML that parses',
    async () => {
      await fc.assert(
        fc.asyncProperty(call(fixture), async (request) => {
          // Act
          const body = formOf(request.params);
          const query = `output=${request.output}&api=v1&apiKey=${key}`;
          const path = `${service.baseUrl}/service/${pathOf(request.operation, request.spelling)}`;
          const url = request.method === 'GET' ? `${path}?${query}${body ? `&${body}` : ''}` : `${path}?${query}`;
          const response =
            request.method === 'GET'
              ? await fetch(url)
              : await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
          const text = await response.text();

          // Assess
          if (response.status === 431) {
            // Node refuses a request line and headers over 16 KB before any handler runs.
            expect(url.length).toBeGreaterThan(MAX_HEADER_BYTES - 1024);
            return;
          }
          expect(response.status).toBe(200);
          // `output` is what the client asked for, unless a fuzzed `output` parameter took its place.
          let code: number | null;
          if (response.headers.get('content-type')?.startsWith('application/xml')) {
            expect(xmlError(text)).toBeNull();
            code = xmlCode(text);
          } else {
            expect(response.headers.get('content-type')).toMatch(/^application\/json/);
            const envelope = JSON.parse(text) as { code: unknown; data: unknown; message: unknown };
            expect(Object.keys(envelope).sort()).toEqual(['code', 'data', 'message']);
            expect(typeof envelope.message).toBe('string');
            code = envelope.code as number;
          }
          if (!DOCUMENTED_CODES.has(code as number)) throw new Error(`code ${code} for ${request.operation}: ${text.slice(0, 500)}`);
        }),
        { ...fuzzSettings(300), endOnFailure: true },
      );
    },
    timeoutFor(300),
  );

  it(
    'answers every short-link request with 302 or a documented page',
    async () => {
      await fc.assert(
        fc.asyncProperty(redirectPath(fixture), fc.constantFrom('GET', 'HEAD'), async (path, method) => {
          // Act
          const url = `${service.baseUrl}/${path}`;
          const response = await fetch(url, { method, redirect: 'manual', headers: { 'user-agent': BROWSER } });
          await response.arrayBuffer();

          // Assess
          if (response.status === 431) return expect(url.length).toBeGreaterThan(MAX_HEADER_BYTES - 1024);
          if (!REDIRECT_STATUSES.has(response.status)) throw new Error(`${method} /${path} answered ${response.status}`);
          if (response.status === 302) expect(response.headers.get('location')).toMatch(/^https?:\/\/[\x21-\x7e]+$/);
          else if (method === 'GET') expect(response.headers.get('content-type')).toMatch(/^text\/html/);
        }),
        { ...fuzzSettings(150), endOnFailure: true },
      );
    },
    timeoutFor(150),
  );

  it(
    'redirects every link it accepts, whatever its full link',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.webUrl({ withQueryParameters: true, withFragments: true }),
            fc
              .tuple(fc.constantFrom('https://', 'http://', 'www.', ''), hostileText, hostileText)
              .map(([scheme, host, rest]) => `${scheme}${host}/${rest}`),
            fc
              .tuple(fc.constantFrom('https://example.com/', 'https://пример.рф/', 'www.example.org/'), hostileText)
              .map(([base, rest]) => base + rest),
          ),
          async (fullLink) => {
            // Act
            const created = await service.api('Link/Create', key, { 'data[fullLink]': fullLink });
            if (created.code !== 0) {
              expect(created.code).toBe(1);
              return;
            }
            const response = await fetch(`${service.baseUrl}/${created.data.code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });
            await response.arrayBuffer();

            // Assess
            expect(response.status).toBe(302);
            expect(response.headers.get('location')).toMatch(/^https?:\/\/[\x21-\x7e]+$/);
          },
        ),
        { ...fuzzSettings(150), endOnFailure: true },
      );
    },
    timeoutFor(150),
  );
});
