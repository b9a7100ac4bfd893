import fc from 'fast-check';
import { openApiDocument } from '../../shared/api/openapi/document';
import { type Fixture, formOf, call as fuzzedCall, fuzzSettings } from '../support/fuzz';
import { startService, type TestService } from '../support/local-service';

/**
 * The OpenAPI document against the running service over HTTP: every code an operation
 * answers, for aimed requests (including the domain's own refusals) and fuzzed ones, is
 * among the codes the document lists for it, and a successful answer has the fields its
 * documented `data` schema names.
 */

const document = openApiDocument();

function documentedCodes(operation: string): number[] {
  return (document.paths[`/service/${operation}`]!.post!['x-result-codes'] as Array<{ code: number }>).map(({ code }) => code);
}

function successSchema(operation: string): { properties?: Record<string, unknown>; required?: string[]; type?: string; items?: any } {
  const envelope = (document.paths[`/service/${operation}`]!.post!.responses as any)[200].content['application/json'];
  return envelope.schema.properties.data.oneOf[0];
}

/** The fields of a successful answer are the schema's: all it requires, nothing it does not name. */
function expectShape(data: unknown, schema: ReturnType<typeof successSchema>) {
  if (schema.type === 'array') {
    expect(Array.isArray(data)).toBe(true);
    for (const item of data as unknown[]) expectShape(item, schema.items);
    return;
  }
  if (schema.type !== 'object') return;
  const keys = Object.keys(data as object);
  expect(keys).toEqual(expect.arrayContaining(schema.required ?? []));
  if (schema.properties && !('additionalProperties' in schema && schema.additionalProperties)) {
    for (const key of keys) expect(Object.keys(schema.properties)).toContain(key);
  }
}

describe('the OpenAPI result codes against the service', () => {
  let service: TestService;
  let key: string;
  const fixture: Fixture = { linkIds: [], codes: [], shortLinks: [], messageIds: [], campaignIds: [] };

  beforeAll(async () => {
    service = await startService();
    const account = await service.account();
    key = account.key;
    await service.runtime.accounts.setPrice(account.id, 'GB', 0.05);
    const { data: link } = await service.api('Link/Create', key, { 'data[fullLink]': 'https://example.com/a' });
    fixture.linkIds.push(String(link.id));
    fixture.codes.push(link.code);
    fixture.shortLinks.push(link.shortLink);
    const { data: sent } = await service.api('Message/SendSmsMessage', key, {
      recipient: '447400123450',
      text: 'Hello https://example.com/offer',
      'params[shortenLinks]': '1',
    });
    fixture.messageIds.push(String(sent.messageId));
    fixture.campaignIds.push(String(sent.campaignId));
  });
  afterAll(() => service.close());

  const many = (count: number) => Array.from({ length: count }, (_, index) => String(index + 1)).join(',');
  const link = () => fixture.linkIds[0]!;
  const cases: Array<[string, string, () => Record<string, string | string[]>, number]> = [
    ['Link/Create', 'without data', () => ({}), 11],
    ['Link/Create', 'with a script URL', () => ({ 'data[fullLink]': 'javascript:alert(1)' }), 1],
    [
      'Link/Create',
      'with a past expiration date (the domain refuses it)',
      () => ({ 'data[fullLink]': 'https://example.com', 'data[expirationDate]': '2001-01-01' }),
      1,
    ],
    ['Link/Create', 'with a full link', () => ({ 'data[fullLink]': 'https://example.com/b', 'data[status]': '0' }), 0],
    ['Link/Delete', 'without ids', () => ({}), 11],
    ['Link/Delete', 'with more ids than the domain deletes at once', () => ({ ids: many(1001) }), 12],
    ['Link/Delete', 'with an unknown id', () => ({ 'ids[]': ['999999'] }), 0],
    ['Link/Get', 'without a reference', () => ({}), 12],
    ['Link/Get', 'with an unknown id', () => ({ id: '999999' }), 2],
    ['Link/Get', 'with a code', () => ({ code: fixture.codes[0]! }), 0],
    ['Link/GetLinks', 'without campaignId', () => ({}), 11],
    ['Link/GetLinks', 'with an unknown campaign', () => ({ campaignId: '999999' }), 2],
    ['Link/GetLinks', 'with the campaign', () => ({ campaignId: fixture.campaignIds[0]! }), 0],
    ['Link/GetStats', 'without ids', () => ({}), 11],
    ['Link/GetStats', 'with six ids', () => ({ 'ids[]': ['1', '2', '3', '4', '5', '6'], type: 'daily' }), 12],
    ['Link/GetStats', 'without a type', () => ({ 'ids[]': [link()] }), 12],
    ['Link/GetStats', 'with an id and a type', () => ({ 'ids[]': [link()], type: 'daily' }), 0],
    ['Link/List', 'with a page size not offered', () => ({ 'pagination[pageSize]': '7' }), 12],
    ['Link/List', 'with a sort', () => ({ 'sort[createTs]': 'ASC', 'criteria[status]': '1' }), 0],
    ['Link/Update', 'without id', () => ({}), 11],
    ['Link/Update', 'with a list for id', () => ({ 'id[]': ['1'] }), 12],
    ['Link/Update', 'with an unknown id', () => ({ id: '999999' }), 2],
    ['Link/Update', 'with a past expiration date', () => ({ id: link(), 'data[expirationDate]': '2001-01-01' }), 1],
    ['Link/Update', 'with a comment', () => ({ id: link(), 'data[comment]': 'Spring' }), 0],
    ['Message/GetSMSStatus', 'without ids', () => ({}), 2],
    ['Message/GetSMSStatus', 'with 101 ids', () => ({ ids: many(101) }), 12],
    ['Message/GetSMSStatus', 'with the message', () => ({ 'ids[]': fixture.messageIds }), 0],
    ['Message/List', 'with an unknown status', () => ({ 'criteria[status]': 'SOMETIME' }), 12],
    ['Message/List', 'with number information', () => ({ withNumberInfo: '1' }), 0],
    ['Message/SendSmsMessage', 'without text', () => ({ recipient: '447400123450' }), 11],
    ['Message/SendSmsMessage', 'to a number that is no number', () => ({ recipient: '123', text: 'Hi' }), 1],
    ['Message/SendSmsMessage', 'to a country not enabled', () => ({ recipient: '77012345670', text: 'Hi' }), 1],
    ['Message/SendSmsMessage', 'from a sender not approved', () => ({ recipient: '447400123450', text: 'Hi', from: 'Nobody' }), 1],
    [
      'Message/SendSmsMessage',
      'deferred to a past time',
      () => ({ recipient: '447400123450', text: 'Hi', 'params[deferredToTs]': '2001-01-01 00:00:00' }),
      1,
    ],
    ['Message/SendSmsMessage', 'to a number', () => ({ recipient: '447400123450', text: 'Hi' }), 0],
  ];

  it.each(cases)('%s %s answers a documented code', async (operation, _what, params, code) => {
    // Act
    const { envelope } = await service.call(operation, key, { body: params() });

    // Assess
    expect(envelope.code).toBe(code);
    expect(documentedCodes(operation)).toContain(code);
    if (code === 0) expectShape(envelope.data, successSchema(operation));
  });

  it('aims at every operation', () => {
    const aimed = new Set(cases.map(([operation]) => operation));
    expect(aimed.size).toBe(10);
  });

  it('answers fuzzed requests only with codes the document lists for the operation', async () => {
    await fc.assert(
      fc.asyncProperty(fuzzedCall(fixture), async (request) => {
        // Act
        const { status, envelope } = await service.call(request.operation, key, { body: formOf(request.params), method: request.method });

        // Assess
        expect(status).toBe(200);
        if (!documentedCodes(request.operation).includes(envelope.code)) {
          throw new Error(`${request.operation} answered code ${envelope.code}, not documented: ${envelope.message}`);
        }
      }),
      { ...fuzzSettings(150), endOnFailure: true },
    );
  }, 120_000);
});
