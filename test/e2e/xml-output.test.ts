import { startService, type TestService } from '../support/local-service';
import { child, parseXml, type XmlElement } from '../support/xml';

/**
 * `output=xml` stays well-formed XML 1.0 whatever the request carried: characters XML
 * cannot hold come back as U+FFFD, and names from the request never become element names.
 */

/** Characters outside XML 1.0's Char production that still arrive as valid UTF-8. */
const FORBIDDEN = [
  ['U+0001', '\u0001'],
  ['U+0008', '\u0008'],
  ['U+001F', '\u001f'],
  ['U+FFFE', '\ufffe'],
  ['U+FFFF', '\uffff'],
] as const;

describe('output=xml with characters XML 1.0 forbids', () => {
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await startService();
    ({ key } = await service.account());
  });
  afterAll(() => service.close());

  /** POSTs `body` to `path` with output=xml and returns the parsed answer; asserts it is well-formed. */
  async function xmlCall(path: string, body: string, options: { query?: string; contentType?: string; apiKey?: string } = {}): Promise<XmlElement> {
    const response = await fetch(`${service.baseUrl}/service/${path}?output=xml&api=v1&apiKey=${options.apiKey ?? key}${options.query ?? ''}`, {
      method: 'POST',
      headers: { 'content-type': options.contentType ?? 'application/x-www-form-urlencoded' },
      body,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const { errors, root } = parseXml(await response.text());
    expect(errors).toEqual([]);
    return root!;
  }

  const code = (root: XmlElement) => child(root, 'code')?.text;
  const message = (root: XmlElement) => child(root, 'message')?.text;

  describe.each(FORBIDDEN)('%s', (_, forbidden) => {
    const escaped = encodeURIComponent(forbidden);

    it('in a comment: Link/Create, Link/Get and Link/List answer well-formed XML with U+FFFD in its place', async () => {
      // Prepare: an account of its own, so Link/List shows this one link
      const { key: apiKey } = await service.account();
      const created = await xmlCall('Link/Create', `data[fullLink]=https://example.com/x&data[comment]=a${escaped}b%0D%0Ac`, { apiKey });
      expect(code(created)).toBe('0');
      const id = child(created, 'data', 'id')!.text;

      // Act
      const got = await xmlCall('Link/Get', `id=${id}`, { apiKey });
      const listed = await xmlCall('Link/List', '', { apiKey });

      // Assess: the comment is kept as given (JSON shows it), XML shows U+FFFD; CR and LF survive
      expect(child(got, 'data', 'comment')!.text).toBe('a\ufffdb\r\nc');
      expect(child(listed, 'data', 'items', 'item', 'comment')!.text).toBe('a\ufffdb\r\nc');
      expect((await service.api('Link/Get', apiKey, { id })).data.comment).toBe(`a${forbidden}b\r\nc`);
    });

    it('in a sort key, echoed by the error message', async () => {
      const root = await xmlCall('Link/List', `sort[by${escaped}]=ASC`);
      expect(code(root)).toBe('12');
      expect(message(root)).toContain('by\ufffd');
    });

    it('in a parameter echoed by the error message (api)', async () => {
      const root = await xmlCall('Link/Get', 'id=1', { query: `&api=v${escaped}` });
      expect(code(root)).toBe('12');
      expect(message(root)).toContain('v\ufffd');
    });

    it('as the name of a field in a validation error', async () => {
      // A file part is refused with its field named in data.
      const form = new FormData();
      form.append('data[fullLink]', 'https://example.com/x');
      form.append(`bad${forbidden}name`, new Blob(['content']), 'upload.txt');
      const request = new Request('http://localhost/', { method: 'POST', body: form });
      const root = await xmlCall('Link/Create', await request.text(), { contentType: request.headers.get('content-type')! });
      expect(code(root)).toBe('1');
      const field = child(root, 'data', 'item')!;
      expect(field.attributes).toEqual({ name: 'bad\ufffdname' });
      expect(child(field, 'item')!.text).toMatch(/file/i);
    });
  });

  it('answers a field name that is no element name in a name attribute', async () => {
    const form = new FormData();
    form.append('data[fullLink]', 'https://example.com/x');
    form.append('data[comment]', new Blob(['content']), 'comment.txt');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const root = await xmlCall('Link/Create', await request.text(), { contentType: request.headers.get('content-type')! });
    expect(code(root)).toBe('1');
    expect(child(root, 'data')!.children.map((element) => [element.name, element.attributes])).toEqual([['item', { name: 'data[comment]' }]]);
  });

  it('answers a validation error with ordinary field names as elements', async () => {
    const root = await xmlCall('Link/Create', 'data[fullLink]=javascript:alert(1)&data[comment]=%3C%2Fcomment%3E%26');
    expect(code(root)).toBe('1');
    expect(child(root, 'data', 'fullLink', 'item')!.text).toEqual(expect.any(String));
  });
});
