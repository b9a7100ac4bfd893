import { connect } from 'node:net';
import { type Envelope, failure, startService, type TestService } from '../support/local-service';

/**
 * Malformed requests to every Link operation: each gets HTTP 200 with an envelope whose
 * code says what was wrong (never 3, never a 5xx), and none of them writes anything.
 */

type Operation = 'Link/Create' | 'Link/Get' | 'Link/Update' | 'Link/Delete' | 'Link/List';
type Malformation =
  | 'an unclosed bracket'
  | 'stray closing brackets'
  | 'a body over 1 MB'
  | 'raw bytes that are not UTF-8'
  | 'percent escapes that are not UTF-8'
  | 'an array where a single value belongs'
  | 'a body without ='
  | 'a JSON body';

interface Case {
  /** The body; ID stands for the id of the account's link, NOT_UTF8 for the bytes FF FE. */
  body: string;
  contentType?: string;
  expected: Envelope;
}

const NOT_UTF8 = Buffer.from([0xff, 0xfe]);
const MEGABYTE = 1024 * 1024;
const json = 'application/json';
/** What an operation that reads nothing of a body answers: the account's one link. */
const oneLink = { code: 0, data: { items: [expect.objectContaining({ fullLink: 'https://example.com/fixture' })], totalItemCount: 1 }, message: '' };
const notUtf8 = expect.stringMatching(/UTF-8/);

const MATRIX: Record<Operation, Record<Malformation, Case>> = {
  'Link/Create': {
    'an unclosed bracket': { body: 'data[fullLink=https://example.com/x', expected: failure(1, { fullLink: ['Full link is required'] }) },
    'stray closing brackets': { body: 'data]]=https://example.com/x', expected: failure(11) },
    'a body over 1 MB': { body: `data[fullLink]=https://example.com/x&padding=${'p'.repeat(MEGABYTE)}`, expected: failure(12) },
    'raw bytes that are not UTF-8': { body: 'data[fullLink]=https://example.com/NOT_UTF8', expected: failure(1, { fullLink: [notUtf8] }) },
    'percent escapes that are not UTF-8': {
      body: 'data[fullLink]=https://example.com/&data[comment]=%ff%fe',
      expected: failure(1, { comment: [notUtf8] }),
    },
    'an array where a single value belongs': {
      body: 'data[fullLink][]=https://example.com/x',
      expected: failure(1, { fullLink: [expect.any(String)] }),
    },
    'a body without =': { body: 'https://example.com/x', expected: failure(1, { body: [expect.any(String)] }) },
    'a JSON body': { body: '{"data":{"fullLink":"https://example.com/x"}}', contentType: json, expected: failure(11) },
  },
  'Link/Get': {
    'an unclosed bracket': { body: 'id[=ID', expected: failure(12) },
    'stray closing brackets': { body: 'id]]=ID', expected: failure(12) },
    'a body over 1 MB': { body: `id=ID&padding=${'p'.repeat(MEGABYTE)}`, expected: failure(12) },
    'raw bytes that are not UTF-8': { body: 'code=NOT_UTF8', expected: failure(2) },
    'percent escapes that are not UTF-8': { body: 'shortLink=%ff%fe', expected: failure(2) },
    'an array where a single value belongs': { body: 'id[]=ID', expected: failure(12) },
    'a body without =': { body: 'ID', expected: failure(1, { body: [expect.any(String)] }) },
    'a JSON body': { body: '{"id":ID}', contentType: json, expected: failure(12) },
  },
  'Link/Update': {
    'an unclosed bracket': { body: 'id[=ID&data[status]=0', expected: failure(12) },
    'stray closing brackets': { body: 'id]]=ID&data[status]=0', expected: failure(11) },
    'a body over 1 MB': { body: `id=ID&data[status]=0&padding=${'p'.repeat(MEGABYTE)}`, expected: failure(12) },
    'raw bytes that are not UTF-8': { body: 'id=ID&data[comment]=NOT_UTF8', expected: failure(1, { comment: [notUtf8] }) },
    'percent escapes that are not UTF-8': { body: 'id=ID&data[comment]=caf%e9', expected: failure(1, { comment: [notUtf8] }) },
    'an array where a single value belongs': { body: 'id[]=ID&data[status]=0', expected: failure(12) },
    'a body without =': { body: 'ID', expected: failure(1, { body: [expect.any(String)] }) },
    'a JSON body': { body: '{"id":ID,"data":{"status":0}}', contentType: json, expected: failure(11) },
  },
  'Link/Delete': {
    'an unclosed bracket': { body: 'ids[=ID', expected: failure(12) },
    'stray closing brackets': { body: 'ids]]=ID', expected: failure(11) },
    'a body over 1 MB': { body: `ids[]=ID&padding=${'p'.repeat(MEGABYTE)}`, expected: failure(12) },
    // Not a link id: deleted nothing, so it is reported back as not processed.
    'raw bytes that are not UTF-8': {
      body: 'ids[]=NOT_UTF8',
      expected: { code: 0, data: { processed: [], notProcessed: ['\ufffd\ufffd'] }, message: '' },
    },
    'percent escapes that are not UTF-8': { body: 'ids=%ff', expected: { code: 0, data: { processed: [], notProcessed: ['\ufffd'] }, message: '' } },
    'an array where a single value belongs': { body: 'ids[0][]=ID', expected: failure(12) },
    'a body without =': { body: 'ID', expected: failure(1, { body: [expect.any(String)] }) },
    'a JSON body': { body: '{"ids":[ID]}', contentType: json, expected: failure(11) },
  },
  'Link/List': {
    'an unclosed bracket': { body: 'sort[createTs=ASC', expected: failure(12) },
    // `pagination]]` is no parameter of Link/List, so it is ignored like any unknown one.
    'stray closing brackets': { body: 'pagination]]=10', expected: oneLink },
    'a body over 1 MB': { body: `criteria[status]=1&padding=${'p'.repeat(MEGABYTE)}`, expected: failure(12) },
    'raw bytes that are not UTF-8': { body: 'criteria[query]=NOT_UTF8', expected: failure(12) },
    'percent escapes that are not UTF-8': { body: 'criteria[query]=%ff', expected: failure(12) },
    'an array where a single value belongs': { body: 'pagination[pageSize][]=25', expected: failure(12) },
    'a body without =': { body: 'criteria', expected: failure(1, { body: [expect.any(String)] }) },
    // Bodies are forms (SPEC §1); like the PHP service, a body of another type is not read.
    'a JSON body': { body: '{"pagination":{"pageSize":7}}', contentType: json, expected: oneLink },
  },
};

const OPERATIONS = Object.keys(MATRIX) as Operation[];
const MALFORMATIONS = Object.keys(MATRIX['Link/Create']) as Malformation[];

describe('malformed requests', () => {
  let service: TestService;
  let key: string;
  let linkId: number;

  beforeAll(async () => {
    service = await startService();
    ({ key } = await service.account({ timeZone: 'Asia/Tashkent' }));
    linkId = (await service.api('Link/Create', key, { 'data[fullLink]': 'https://example.com/fixture', 'data[expirationDate]': '2031-01-01' })).data
      .id;
  });
  afterAll(() => service.close());

  /** Everything Link/List shows of the account. */
  const snapshot = async () => (await service.api('Link/List', key, { 'pagination[pageSize]': '100' })).data;

  const bodyOf = (template: string): Buffer => {
    const parts = template.replaceAll('ID', String(linkId)).split('NOT_UTF8');
    return Buffer.concat(parts.flatMap((part, i) => (i === 0 ? [Buffer.from(part)] : [NOT_UTF8, Buffer.from(part)])));
  };

  describe.each(OPERATIONS)('%s', (operation) => {
    it.each(MALFORMATIONS)('answers %s with HTTP 200, its result code and no change', async (malformation) => {
      // Prepare
      const { body, contentType, expected } = MATRIX[operation][malformation];
      const before = await snapshot();

      // Act
      const response = await service.post(operation, key, bodyOf(body), { contentType });

      // Assess
      expect(response.status).toBe(200);
      expect(response.contentType).toBe('application/json; charset=utf-8');
      expect(response.envelope).toEqual(expected);
      expect(await snapshot()).toEqual(before);
    });
  });

  it('leaves nothing behind after refused Create calls of every kind', async () => {
    // Prepare
    const own = await service.account();
    const count = async () => (await service.api('Link/List', own.key, {})).data.totalItemCount;

    // Act
    const cases = MALFORMATIONS.map((malformation) => MATRIX['Link/Create'][malformation]);
    const answers = await Promise.all(cases.map(({ body, contentType }) => service.post('Link/Create', own.key, bodyOf(body), { contentType })));

    // Assess
    expect(answers.map((answer) => answer.envelope?.code)).toEqual(cases.map(({ expected }) => expected.code));
    expect(await count()).toBe(0);
  });

  it('answers a body over 1 MB with code 12 even without a content type', async () => {
    const response = await service.post('Link/Create', key, Buffer.alloc(MEGABYTE + 1, 'a'), { contentType: 'application/octet-stream' });
    expect(response.status).toBe(200);
    expect(response.envelope).toEqual(failure(12));
  });

  it('answers invalid UTF-8 in the query string with a result code', async () => {
    const response = await fetch(`${service.baseUrl}/service/Link/Create?output=json&api=v1&apiKey=${key}&data[fullLink]=https://example.com/%ff`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(failure(1, { fullLink: [notUtf8] }));
  });

  it('answers a percent sign that starts no escape as the text it is', async () => {
    const response = await service.post('Link/Update', key, bodyOf('id=ID&data[comment]=100%&data[expirationDate]=2031-01-01'));
    expect(response.envelope).toEqual({ code: 0, data: expect.any(String), message: '' });
    expect((await service.api('Link/Get', key, { id: String(linkId) })).data.comment).toBe('100%');
    // Put the fixture back as it was for the other tests.
    await service.api('Link/Update', key, { id: String(linkId), 'data[comment]': '', 'data[expirationDate]': '2031-01-01' });
  });

  describe('raw bytes outside ASCII in the request line (text a client did not percent-encode)', () => {
    /** Writes the bytes on a connection of its own (left open, as a client awaiting its answers does) and returns all it received until the server closed it. */
    const exchange = (request: Buffer): Promise<string> =>
      new Promise((resolve, reject) => {
        const { hostname, port } = new URL(service.baseUrl);
        const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(request));
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      });
    const apiLine = (query: string) => Buffer.from(`GET /service/Message/SendSmsMessage?api=v1&apiKey=${key}&${query} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const messages = async () => (await service.api('Message/List', key, {})).data.totalItemCount;

    it('answers an API call with HTTP 200 and code 12 saying how to encode it, and sends nothing', async () => {
      const before = await messages();
      const answer = await exchange(apiLine('output=json&recipient=%2B998901234567&text=Привет'));
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(head.toLowerCase()).toContain('content-type: application/json; charset=utf-8');
      expect(JSON.parse(body)).toEqual({ code: 12, data: null, message: expect.stringMatching(/percent-encoded.*%D0%9F/) });
      expect(await messages()).toBe(before);
    });

    it('answers in XML when the line asks for it', async () => {
      const answer = await exchange(apiLine('recipient=%2B998901234567&text=Привет&output=xml'));
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(answer.toLowerCase()).toContain('content-type: application/xml; charset=utf-8');
      expect(answer).toMatch(/<code>12<\/code>/);
    });

    it('answers the requests pipelined before it as usual', async () => {
      const first = Buffer.from(`GET /service/Link/Get?output=json&api=v1&apiKey=${key}&id=${linkId} HTTP/1.1\r\nHost: x\r\n\r\n`);
      const answer = await exchange(Buffer.concat([first, apiLine('output=json&text=Привет')]));
      const bodies = answer.split(/HTTP\/1\.1 /).slice(1);
      expect(bodies).toHaveLength(2);
      expect(bodies[0]).toMatch(/^200 OK/);
      expect(bodies[0]).toContain('"fullLink":"https://example.com/fixture"');
      expect(bodies[1]).toMatch(/^200 OK[\s\S]*"code":12/);
    });

    it('answers another path as Node does: 400, the connection closed', async () => {
      const answer = await exchange(Buffer.from('GET /привет HTTP/1.1\r\nHost: x\r\n\r\n'));
      expect(answer).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    });
  });
});
