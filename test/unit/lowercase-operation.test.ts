import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

/** The CloudFront Function that lowercases module and method, run as CloudFront would: plain JS, one `handler`. */
const source = readFileSync(join(__dirname, '..', '..', 'lib', 'lowercase-operation.js'), 'utf8');
const handler = runInNewContext(`${source}; handler`) as (event: unknown) => { uri: string; querystring: unknown };
const request = (uri: string) => ({
  request: { method: 'POST', uri, querystring: { apiKey: { value: 'K' }, output: { value: 'json' } }, headers: {} },
});

describe('CloudFront lowercase-operation function', () => {
  it.each([
    ['/service/Link/Create', '/service/link/create'],
    ['/service/LINK/getstats', '/service/link/getstats'],
    ['/service/message/SendSmsMessage', '/service/message/sendsmsmessage'],
    ['/service/link/create', '/service/link/create'],
  ])('sends %s on as %s, query string untouched', (uri, expected) => {
    const result = handler(request(uri));
    expect(result.uri).toBe(expected);
    expect(result.querystring).toEqual({ apiKey: { value: 'K' }, output: { value: 'json' } });
  });

  it.each(['/service/Link', '/service/Link/Create/Extra', '/abcd', '/service/'])('leaves %s alone (the fallback answers it)', (uri) => {
    expect(handler(request(uri)).uri).toBe(uri);
  });
});
