import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { lambdaContext } from '../../shared/local/lambda-context';
import { type Envelope, failure, startService, type TestService } from '../support/local-service';

/**
 * Request bodies as PHP clients send them: multipart/form-data (curl with an array of
 * fields) read like a URL-encoded form, and a parameter given more than once taking its
 * last value, as PHP reads it.
 */

/** A multipart body as PHP's curl builds it for CURLOPT_POSTFIELDS = [name => value, …]. */
const CURL_BOUNDARY = '------------------------d74496d66958873e';
function curlMultipart(fields: [string, string][], boundary = CURL_BOUNDARY): string {
  const parts = fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return `${parts.join('')}--${boundary}--\r\n`;
}
const curlContentType = `multipart/form-data; boundary=${CURL_BOUNDARY}`;

type Link = { id: number; code: string; shortLink: string };
type Repeated = { body?: string; query?: string; multipart?: [string, string][] };

describe('form bodies and repeated parameters', () => {
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await startService();
    ({ key } = await service.account());
  });
  afterAll(() => service.close());

  const createLink = async (apiKey = key): Promise<Link> =>
    (await service.api('Link/Create', apiKey, { 'data[fullLink]': 'https://example.com/fixture' })).data;
  const getLink = async (id: number, apiKey = key) => (await service.api('Link/Get', apiKey, { id: String(id) })).data;
  /** POSTs a FormData body with fetch, which writes the multipart body and its content type. */
  const postForm = async (path: string, form: FormData, query = `apiKey=${key}`): Promise<Envelope> =>
    (await fetch(`${service.baseUrl}/service/${path}?output=json&api=v1&${query}`, { method: 'POST', body: form })).json() as Promise<Envelope>;
  const listAll = async (apiKey: string) => (await service.api('Link/List', apiKey, { 'pagination[pageSize]': '100' })).data;

  describe('multipart/form-data', () => {
    it('creates a link from a FormData body, bracket names expanded', async () => {
      // Prepare
      const form = new FormData();
      form.append('data[fullLink]', 'https://example.com/multipart?a=1&b=2');
      form.append('data[comment]', 'Grüße, 日本 😀');
      form.append('data[status]', '0');

      // Act
      const created = await postForm('Link/Create', form);

      // Assess
      expect(created).toEqual({ code: 0, data: { id: expect.any(Number), code: expect.any(String), shortLink: expect.any(String) }, message: '' });
      expect(await getLink(created.data.id)).toMatchObject({
        fullLink: 'https://example.com/multipart?a=1&b=2',
        comment: 'Grüße, 日本 😀',
        status: 0,
      });
    });

    it('reads apiKey, ids[] and a repeated name from a FormData body', async () => {
      // Prepare
      const [a, b, kept] = [await createLink(), await createLink(), await createLink()];
      const form = new FormData();
      form.append('apiKey', key);
      form.append('ids[]', String(a.id));
      form.append('ids[]', String(b.id));

      // Act
      const deleted = await postForm('Link/Delete', form, '');

      // Assess
      expect(deleted).toEqual({ code: 0, data: { processed: [a.id, b.id], notProcessed: [] }, message: '' });
      expect((await service.api('Link/Get', key, { id: String(kept.id) })).code).toBe(0);
    });

    it('reads a body as PHP curl builds it: Link/Create, Link/Update, Link/List and Link/Delete', async () => {
      // Prepare
      const { key: apiKey } = await service.account();
      const post = (path: string, fields: [string, string][]) => service.post(path, apiKey, curlMultipart(fields), { contentType: curlContentType });

      // Act
      const created = (
        await post('Link/Create', [
          ['data[fullLink]', 'https://example.com/curl'],
          ['data[comment]', 'from curl'],
        ])
      ).envelope!;
      const id = String(created.data.id);
      const updated = (
        await post('Link/Update', [
          ['id', id],
          ['data[comment]', 'updated by curl'],
          ['data[status]', '1'],
        ])
      ).envelope!;
      const listed = (
        await post('Link/List', [
          ['criteria[query]', 'curl'],
          ['pagination[pageSize]', '25'],
          ['sort[createTs]', 'DESC'],
        ])
      ).envelope!;
      const deleted = (await post('Link/Delete', [['ids[0]', id]])).envelope!;

      // Assess
      expect(created.code).toBe(0);
      expect(updated).toEqual({ code: 0, data: created.data.shortLink, message: '' });
      expect(listed).toEqual({
        code: 0,
        data: { items: [expect.objectContaining({ id: created.data.id, comment: 'updated by curl' })], totalItemCount: 1 },
        message: '',
      });
      expect(deleted).toEqual({ code: 0, data: { processed: [created.data.id], notProcessed: [] }, message: '' });
    });

    it('reads a multipart content type written in another letter case', async () => {
      const link = await createLink();
      const { envelope } = await service.post('Link/Get', key, curlMultipart([['id', String(link.id)]]), {
        contentType: curlContentType.replace('multipart/form-data', 'Multipart/Form-Data'),
      });
      expect(envelope).toEqual({ code: 0, data: expect.objectContaining({ id: link.id }), message: '' });
    });

    it('lets the multipart body win over the query string', async () => {
      const [inQuery, inBody] = [await createLink(), await createLink()];
      const { envelope } = await service.post('Link/Get', key, curlMultipart([['id', String(inBody.id)]]), {
        contentType: curlContentType,
        query: { id: String(inQuery.id) },
      });
      expect(envelope!.data.id).toBe(inBody.id);
    });

    it('reads every one of 1000 parts and answers code 12 for more, rather than dropping the rest', async () => {
      // Prepare: an account with one inactive and one active link
      const { key: apiKey } = await service.account();
      const inactive = (await service.api('Link/Create', apiKey, { 'data[fullLink]': 'https://example.com', 'data[status]': '0' })).data;
      await createLink(apiKey);
      const filler = (count: number) => Array.from({ length: count }, (_, i): [string, string] => [`filler${i}`, 'x']);
      const list = async (fillers: number) =>
        (await service.post('Link/List', apiKey, curlMultipart([...filler(fillers), ['criteria[status]', '0']]), { contentType: curlContentType }))
          .envelope;

      // Act and assess
      expect(await list(999)).toEqual({ code: 0, data: { items: [expect.objectContaining({ id: inactive.id })], totalItemCount: 1 }, message: '' });
      expect(await list(1000)).toEqual(failure(12));
    });

    it('answers a multipart body over 1 MB with code 12', async () => {
      const body = curlMultipart([
        ['data[fullLink]', 'https://example.com/x'],
        ['padding', 'p'.repeat(1024 * 1024)],
      ]);
      expect((await service.post('Link/Create', key, body, { contentType: curlContentType })).envelope).toEqual(failure(12));
    });

    it.each([
      ['a body cut off before its closing boundary', curlMultipart([['data[fullLink]', 'https://example.com/x']]).slice(0, -40), curlContentType],
      ['a body without any boundary line', 'data[fullLink]=https://example.com/x', curlContentType],
      ['a content type without a boundary', curlMultipart([['data[fullLink]', 'https://example.com/x']]), 'multipart/form-data'],
      ['a boundary the body does not use', curlMultipart([['data[fullLink]', 'https://example.com/x']]), 'multipart/form-data; boundary=other'],
    ])('answers %s with code 1 and creates nothing', async (_, body, contentType) => {
      // Prepare
      const { key: apiKey } = await service.account();

      // Act
      const response = await service.post('Link/Create', apiKey, body, { contentType });

      // Assess
      expect(response.status).toBe(200);
      expect(response.envelope).toEqual(failure(1, { body: [expect.stringMatching(/multipart/)] }));
      expect(await listAll(apiKey)).toEqual({ items: [], totalItemCount: 0 });
    });

    it('refuses a file part with code 1, naming its field, and creates nothing', async () => {
      // Prepare
      const { key: apiKey } = await service.account();
      const form = new FormData();
      form.append('data[fullLink]', 'https://example.com/x');
      form.append('data[comment]', new Blob(['a comment in a file'], { type: 'text/plain' }), 'comment.txt');

      // Act
      const envelope = await postForm('Link/Create', form, `apiKey=${apiKey}`);

      // Assess
      expect(envelope).toEqual(failure(1, { 'data[comment]': [expect.stringMatching(/file/i)] }));
      expect(await listAll(apiKey)).toEqual({ items: [], totalItemCount: 0 });
    });
  });

  describe('as API Gateway delivers them, base64-encoded', () => {
    /** Calls a Lambda handler with a payload-2.0 event as an HTTP API builds it for a non-text body. */
    async function invoke(handlerName: string, body: string, contentType: string): Promise<Envelope> {
      const { handler } = (await import(`../../functions/${handlerName}`)) as {
        handler: (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
      };
      const rawQueryString = `output=json&api=v1&apiKey=${key}`;
      const event = {
        version: '2.0',
        routeKey: '$default',
        rawPath: `/service/${handlerName}`,
        rawQueryString,
        queryStringParameters: { output: 'json', api: 'v1', apiKey: key },
        headers: { 'content-type': contentType, host: 'api.example.com' },
        body: Buffer.from(body).toString('base64'),
        isBase64Encoded: true,
        requestContext: { requestId: 'base64-test', http: { method: 'POST', path: `/service/${handlerName}`, sourceIp: '127.0.0.1' } },
      } as unknown as APIGatewayProxyEventV2;
      const result = await handler(event, lambdaContext(handlerName, 'base64-test'));
      return JSON.parse(result.body!) as Envelope;
    }

    it('reads a base64-encoded multipart body', async () => {
      const created = await invoke(
        'link-create',
        curlMultipart([
          ['data[fullLink]', 'https://example.com/base64'],
          ['data[comment]', 'Grüße'],
        ]),
        curlContentType,
      );
      expect(created.code).toBe(0);
      expect(await getLink(created.data.id)).toMatchObject({ fullLink: 'https://example.com/base64', comment: 'Grüße' });
    });

    it('reads a base64-encoded URL-encoded form', async () => {
      const created = await invoke(
        'link-create',
        'data[fullLink]=https%3A%2F%2Fexample.com%2Fform64&data[comment]=Gr%C3%BC%C3%9Fe',
        'application/x-www-form-urlencoded',
      );
      expect(created.code).toBe(0);
      expect(await getLink(created.data.id)).toMatchObject({ fullLink: 'https://example.com/form64', comment: 'Grüße' });
    });
  });

  describe('a parameter given more than once takes its last value, as in PHP', () => {
    it.each([
      ['the body', (x: number, y: number): Repeated => ({ body: `id=${x}&id=${y}` })],
      ['the query string', (x: number, y: number): Repeated => ({ query: `id=${x}&id=${y}` })],
      [
        'a multipart body',
        (x: number, y: number): Repeated => ({
          multipart: [
            ['id', String(x)],
            ['id', String(y)],
          ],
        }),
      ],
    ])('in %s', async (_, request) => {
      // Prepare
      const [first, last] = [await createLink(), await createLink()];
      const { body, query, multipart } = request(first.id, last.id);

      // Act
      const envelope = multipart
        ? (await service.post('Link/Get', key, curlMultipart(multipart), { contentType: curlContentType })).envelope
        : await fetch(`${service.baseUrl}/service/Link/Get?output=json&api=v1&apiKey=${key}${query ? `&${query}` : ''}`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: body ?? '',
          }).then((raw) => raw.json());

      // Assess
      expect(envelope).toEqual({ code: 0, data: expect.objectContaining({ id: last.id }), message: '' });
    });

    it('lets a body value win over query values, whichever comes last in the query string', async () => {
      const [inQuery, alsoInQuery, inBody] = [await createLink(), await createLink(), await createLink()];
      const raw = await fetch(`${service.baseUrl}/service/Link/Get?output=json&api=v1&apiKey=${key}&id=${inQuery.id}&id=${alsoInQuery.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `id=${inBody.id}`,
      });
      expect(((await raw.json()) as Envelope).data.id).toBe(inBody.id);
    });

    it('keeps ids[]=…&ids[]=… a list, and reads ids=…&ids=… and ids[0]=…&ids[0]=… by their last value', async () => {
      // Prepare
      const [a, b, c, d, e, f] = await Promise.all(Array.from({ length: 6 }, () => createLink()));

      // Act
      const asList = await service.api('Link/Delete', key, `ids[]=${a!.id}&ids[]=${b!.id}`);
      const repeated = await service.api('Link/Delete', key, `ids=${c!.id}&ids=${d!.id}`);
      const repeatedIndex = await service.api('Link/Delete', key, `ids[0]=${e!.id}&ids[0]=${f!.id}`);

      // Assess
      expect(asList).toEqual({ code: 0, data: { processed: [a!.id, b!.id], notProcessed: [] }, message: '' });
      expect(repeated).toEqual({ code: 0, data: { processed: [d!.id], notProcessed: [] }, message: '' });
      expect(repeatedIndex).toEqual({ code: 0, data: { processed: [f!.id], notProcessed: [] }, message: '' });
      expect((await service.api('Link/Get', key, { id: String(c!.id) })).code).toBe(0);
      expect((await service.api('Link/Get', key, { id: String(e!.id) })).code).toBe(0);
    });

    it('reads apiKey, output and api by their last value in the query string', async () => {
      // Prepare
      const link = await createLink();
      const get = (query: string) => fetch(`${service.baseUrl}/service/Link/Get?id=${link.id}&${query}`);

      // Act and assess: apiKey
      expect(await (await get(`apiKey=${'a'.repeat(40)}&apiKey=${key}`)).json()).toEqual({
        code: 0,
        data: expect.objectContaining({ id: link.id }),
        message: '',
      });
      expect(await (await get(`apiKey=${key}&apiKey=${'a'.repeat(40)}`)).json()).toEqual(failure(8));
      // output: API Gateway would show output=json&output=xml as "json,xml"
      const xml = await get(`apiKey=${key}&output=json&output=xml`);
      expect(xml.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      expect(await xml.text()).toMatch(/^<\?xml .*<code>0<\/code>/s);
      const json = await get(`apiKey=${key}&output=xml&output=json`);
      expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(((await json.json()) as Envelope).code).toBe(0);
      // api
      expect(((await (await get(`apiKey=${key}&api=v2&api=v1`)).json()) as Envelope).code).toBe(0);
      expect(await (await get(`apiKey=${key}&api=v1&api=v2`)).json()).toEqual(failure(12));
    });
  });
});
