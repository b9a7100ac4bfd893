import fc from 'fast-check';
import { SaxesParser } from 'saxes';

/**
 * Arbitraries and checks for the property-based fuzz test of the API and the redirect.
 * The values lean towards what breaks services: dates at the ends of the calendar,
 * characters XML forbids, combining marks, non-Latin scripts, lone surrogates, numbers
 * out of every range, bracket shapes PHP clients send, and the ids and codes that exist.
 */

/** The parameters each operation reads (interface spec), in PHP bracket syntax. */
export const OPERATIONS: Record<string, string[]> = {
  'Link/Create': ['data[fullLink]', 'data[status]', 'data[expirationDate]', 'data[comment]'],
  'Link/Get': ['id', 'code', 'shortLink'],
  'Link/Update': ['id', 'data[status]', 'data[comment]', 'data[expirationDate]'],
  'Link/Delete': ['ids', 'ids[]', 'ids[0]'],
  'Link/GetStats': ['ids', 'ids[]', 'type', 'criteria[dateFrom]', 'criteria[dateTo]'],
  'Link/List': [
    'criteria[status]',
    'criteria[moderatorStatus]',
    'criteria[createTsFrom]',
    'criteria[createTsTo]',
    'criteria[query]',
    'pagination[pageSize]',
    'pagination[currentPage]',
    'sort[createTs]',
    'sort[expirationDate]',
    'sort[clickCnt]',
    'sort[code]',
    'sort[fullLink]',
  ],
  'Link/GetLinks': ['campaignId'],
  'Message/SendSmsMessage': ['recipient', 'text', 'from', 'params[name]', 'params[deferredToTs]', 'params[shortenLinks]', 'params[validity]'],
  'Message/GetSMSStatus': ['ids', 'ids[]'],
  'Message/List': [
    'withNumberInfo',
    'criteria[campaignIds]',
    'criteria[from]',
    'criteria[to]',
    'criteria[text]',
    'criteria[status]',
    'criteria[groups]',
    'criteria[campaignStatus]',
    'criteria[campaignCreateTsFrom]',
    'criteria[campaignCreateTsTo]',
    'criteria[campaignSentTsFrom]',
    'criteria[campaignSentTsTo]',
    'criteria[startSendTsFrom]',
    'criteria[startSendTsTo]',
    'criteria[statusUpdateTsFrom]',
    'criteria[statusUpdateTsTo]',
    'pagination[pageSize]',
    'pagination[currentPage]',
    'sort[campaignId]',
    'sort[to]',
    'sort[text]',
    'sort[status]',
    'sort[startSendTs]',
    'sort[segNum]',
  ],
};

/** The result codes an operation may answer (SPEC §3); 3 and 999 are failures of ours. */
export const DOCUMENTED_CODES = new Set([0, 1, 2, 4, 5, 6, 8, 9, 11, 12, 14, 30]);

/** The short-link answers SPEC §5 documents. */
export const REDIRECT_STATUSES = new Set([302, 404, 410, 451]);

/** What the fuzz test has made before it starts: values worth aiming at. */
export interface Fixture {
  linkIds: string[];
  codes: string[];
  shortLinks: string[];
  messageIds: string[];
  campaignIds: string[];
}

const TRICKY = [
  '',
  ' ',
  '0',
  '1',
  '-1',
  '2',
  '5',
  '100',
  '101',
  '1000',
  '1e309',
  'NaN',
  'Infinity',
  '0x10',
  '9007199254740993',
  '99999999999999999999999',
  'ASC',
  'DESC',
  'desc',
  'monthly',
  'daily',
  'hourly',
  'minute',
  'yearly',
  'DELIVRD',
  'MODERATION',
  'NOT_YET_SENT',
  'DEFERRED',
  '2026-11-23',
  '2026-11-23 10:00:00',
  '9999-12-31',
  '9999-12-31 23:59:59',
  '0000-01-01',
  '0000-00-00 00:00:00',
  '1969-12-31 23:59:59',
  '2026-02-30',
  '2026-13-01',
  '2028-02-29 24:00:00',
  '+275760-09-13',
  '-271821-04-20',
  '2026-11-23T10:00:00Z',
  '77012345670',
  '+77012345678',
  '+79161234567',
  '+447911123456',
  '+15005550006',
  'https://example.com/offer',
  'www.example.com',
  'https://example.com/привет',
  'https://пример.рф/',
  'https://example．com/',
  'http://[::ffff:127.0.0.1]:8080/x',
  'http://0.0.0.0/',
  'http://[::1]/',
  'http://169.254.169.254/latest/meta-data/',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'http://user:pass@example.com/',
  'Buy now https://example.com/a?b=1 and www.example.org/п',
  'Привет! Ваш код: 1234 https://example.com/x',
  '€[]{}\\~^|',
  '😀'.repeat(40),
  `a${'\u0301'.repeat(300)}`,
  '\uffff',
  '\ufffe',
  '\u0001',
  '\u0000',
  '\ud800',
  '<x>&amp;</x>',
  ']]>',
  'a,b,c',
  '1,2,3',
  '%00',
  'SMSService',
];

/** A hostile text value. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...TRICKY) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: -3, max: 2_000_000 }).map(String) },
  { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  // Long values: up to about 4,000 characters (a URL of 16 KB is refused by Node itself, with 431).
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...TRICKY), fc.nat({ max: 4000 }))
      .map(([text, length]) => text.repeat(Math.ceil(length / Math.max(text.length, 1))).slice(0, length)),
  },
);

/** A value aimed at what exists: ids, codes and short links of the fixture. */
function known(fixture: Fixture): fc.Arbitrary<string> {
  const pools = [fixture.linkIds, fixture.codes, fixture.shortLinks, fixture.messageIds, fixture.campaignIds].filter((pool) => pool.length > 0);
  return fc.oneof(...pools.map((pool) => fc.constantFrom(...pool)), fc.constant([...fixture.linkIds, ...fixture.messageIds].join(',')));
}

/** A parameter value as a PHP client may shape it: a scalar, a list, or a nested record. */
export type Shape = string | Shape[] | { [name: string]: Shape };

function shapedValue(fixture: Fixture): fc.Arbitrary<Shape> {
  const scalar = fc.oneof({ weight: 3, arbitrary: hostileText }, { weight: 2, arbitrary: known(fixture) });
  return fc.oneof(
    { weight: 8, arbitrary: scalar },
    { weight: 1, arbitrary: fc.array(scalar, { maxLength: 6 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('0', '1', 'x', '', 'fullLink'), scalar, { maxKeys: 3 }) },
  );
}

/** One call: which parameters (named by the operation or not), their values, and how it is sent. */
export interface Call {
  operation: string;
  params: Array<[string, Shape]>;
  method: 'GET' | 'POST';
  output: 'json' | 'xml';
  /** The module/method as a client spells it. */
  spelling: 'published' | 'lower' | 'upper';
}

const DATES = TRICKY.filter((value) => /^[+-]?\d{4,6}-/.test(value));

/** Values a parameter of this name is meant to take, and their near misses. */
function typicalFor(name: string): fc.Arbitrary<string> | undefined {
  if (/Ts|[dD]ate/.test(name)) {
    const near = fc
      .tuple(fc.integer({ min: -1, max: 10_000 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 25 }))
      .map(
        ([y, m, d, h]) =>
          `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')} ${String(h).padStart(2, '0')}:00:00`,
      );
    return fc.oneof(
      fc.constantFrom(...DATES),
      near,
      near.map((text) => text.slice(0, 10)),
    );
  }
  if (name === 'type') return fc.constantFrom('monthly', 'daily', 'hourly', 'minute', 'Monthly', 'weekly');
  if (name.startsWith('sort[')) return fc.constantFrom('ASC', 'DESC', 'asc', 'up');
  if (/status|Status|shortenLinks|withNumberInfo/.test(name)) return fc.constantFrom('0', '1', '2', 'DELIVRD', 'NEW', 'MODERATION', 'DEFERRED');
  return undefined;
}

/** Names as clients get them wrong: other entities' fields, nested brackets, hostile keys. */
const strayName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'data',
    'criteria',
    'ids[][]',
    'data[]',
    'apiKey',
    'output',
    'api',
    '__proto__[x]',
    'constructor[prototype][x]',
    'a[b][c][d][e][f][g]',
  ),
  fc
    .tuple(fc.constantFrom('sort', 'criteria', 'data', 'params', 'pagination'), fc.constantFrom(...TRICKY.filter((value) => value.length < 50)))
    .map(([group, key]) => `${group}[${key}]`),
);

export function call(fixture: Fixture): fc.Arbitrary<Call> {
  return fc.constantFrom(...Object.keys(OPERATIONS)).chain((operation) => {
    const named = fc.constantFrom(...OPERATIONS[operation]!).chain((name) => {
      const typical = typicalFor(name);
      const value = typical ? fc.oneof({ weight: 2, arbitrary: typical }, { weight: 1, arbitrary: shapedValue(fixture) }) : shapedValue(fixture);
      return fc.tuple(fc.constant(name), value as fc.Arbitrary<Shape>);
    });
    const stray = fc.tuple(strayName, shapedValue(fixture));
    return fc.record({
      operation: fc.constant(operation),
      params: fc.array(fc.oneof({ weight: 6, arbitrary: named }, { weight: 1, arbitrary: stray }), { maxLength: 6 }),
      method: fc.constantFrom<'GET' | 'POST'>('POST', 'POST', 'GET'),
      output: fc.constantFrom<'json' | 'xml'>('json', 'json', 'xml'),
      spelling: fc.constantFrom<'published' | 'lower' | 'upper'>('published', 'lower', 'upper'),
    });
  });
}

/**
 * The form body for parameters in bracket syntax. Each string goes out as its UTF-8
 * bytes, percent-encoded (a lone surrogate becomes U+FFFD, as in any client).
 */
export function formOf(params: Array<[string, Shape]>): string {
  const pairs: string[] = [];
  const add = (name: string, value: Shape) => {
    if (typeof value === 'string') pairs.push(`${percent(name)}=${percent(value)}`);
    else if (Array.isArray(value)) for (const item of value) add(`${name}[]`, item);
    else for (const [key, item] of Object.entries(value)) add(`${name}[${key}]`, item);
  };
  for (const [name, value] of params) add(name, value);
  return pairs.join('&');
}

function percent(text: string): string {
  let encoded = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

export function pathOf(operation: string, spelling: Call['spelling']): string {
  if (spelling === 'lower') return operation.toLowerCase();
  if (spelling === 'upper') return operation.toUpperCase();
  return operation;
}

/** A short-link path: existing codes, near misses, and hostile segments. */
export function redirectPath(fixture: Fixture): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...fixture.codes) },
    { weight: 1, arbitrary: fc.constantFrom(...fixture.codes).map((code) => code.toUpperCase()) },
    { weight: 1, arbitrary: fc.constantFrom(...fixture.codes).map((code) => `${code}/`) },
    { weight: 1, arbitrary: fc.constantFrom(...fixture.codes).map((code) => `${code}?utm=1&x=%ff`) },
    { weight: 2, arbitrary: hostileText.map(percent) },
    { weight: 1, arbitrary: fc.constantFrom('', 'favicon.ico', '%2e%2e/%2e%2e/etc/passwd', '..', '.', '%00', 'a/b/c', 'robots.txt') },
  );
}

/** Null when the text is well-formed XML 1.0, else what the strict parser objected to. */
export function xmlError(text: string): string | null {
  const parser = new SaxesParser({ xmlns: false });
  let problem: string | null = null;
  parser.on('error', (error) => {
    problem ??= error.message;
  });
  try {
    parser.write(text).close();
  } catch (error) {
    problem ??= (error as Error).message;
  }
  return problem;
}

/** `{code, data, message}` parsed from an XML answer, enough to check the code. */
export function xmlCode(text: string): number | null {
  const match = /^<\?xml[^>]*\?>\s*<response><code>(-?\d+)<\/code>/.exec(text);
  return match ? Number(match[1]) : null;
}

/** The seed CI uses; `FUZZ_SEED` and `FUZZ_RUNS` widen a run (`npm run fuzz`). */
export function fuzzSettings(defaultRuns: number): { seed: number; numRuns: number } {
  const seed = process.env.FUZZ_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED ?? 20261123);
  const numRuns = Number(process.env.FUZZ_RUNS ?? defaultRuns);
  return { seed, numRuns };
}
