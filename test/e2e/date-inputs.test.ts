import { failure, startService, type TestService } from '../support/local-service';

/**
 * Every date input of the API over HTTP: dates outside the supported range
 * (1970-01-01 through 9990-12-31, wall clock in the account's zone) and malformed ones
 * answer code 1 (entity data: Link/Create, Link/Update, SendSmsMessage) or code 12
 * (filters: Link/GetStats, Link/List, Message/List), never 3, and write nothing.
 */
const ZONES = ['UTC', 'Etc/GMT-14', 'Etc/GMT+12'];

describe('date inputs', () => {
  let service: TestService;
  let key: string;
  let linkId: string;
  /** An account and one of its links per zone: UTC, and the zones farthest east and west of it. */
  const zoned: Record<string, { key: string; linkId: string }> = {};

  beforeAll(async () => {
    service = await startService();
    let accountId: number;
    ({ key, id: accountId } = await service.account({ timeZone: 'UTC' }));
    await service.runtime.accounts.setPrice(accountId, '*', 0.05);
    linkId = String((await service.api('Link/Create', key, { 'data[fullLink]': 'https://example.com/stats' })).data.id);
    for (const timeZone of ZONES) {
      const account = await service.account({ timeZone });
      const link = await service.api('Link/Create', account.key, { 'data[fullLink]': 'https://example.com/zoned' });
      zoned[timeZone] = { key: account.key, linkId: String(link.data.id) };
    }
  });
  afterAll(() => service.close());

  const RANGE = /must lie between 1970-01-01 00:00:00 and 9990-12-31 23:59:59/;
  const DATE_RANGE = 'must lie between 1970-01-01 and 9990-12-31';
  const limit = (pattern: RegExp) => ({ code: 12, data: null, message: expect.stringMatching(pattern) });

  const MALFORMED: [string, string][] = [
    ['February 30th', '2026-02-30 10:00:00'],
    ['month 13', '2026-13-01 10:00:00'],
    ['an expanded year', '+275760-09-13 00:00:00'],
    ['a leap day of a common year', '2026-02-29 10:00:00'],
    ['hour 24', '2026-03-01 24:00:00'],
    ['minute 60', '2026-03-01 10:60:00'],
    ['two spaces inside', '2026-03-01  10:00:00'],
    ['a T separator', '2026-03-01T10:00:00'],
    ['a one-digit month', '2026-3-01 10:00:00'],
  ];

  describe('Link/GetStats', () => {
    const stats = (fields: Record<string, string>, apiKey = key, id = linkId) => service.api('Link/GetStats', apiKey, { 'ids[]': id, ...fields });
    const TYPES = ['monthly', 'daily', 'hourly', 'minute'];
    const OUT_OF_RANGE: [string, Record<string, string>, string][] = [
      ['dateFrom at the end of year 9999', { 'criteria[dateFrom]': '9999-12-31' }, 'dateFrom'],
      ['dateFrom at the last second of year 9999', { 'criteria[dateFrom]': '9999-12-31 23:59:59' }, 'dateFrom'],
      ['dateTo at the end of year 9999', { 'criteria[dateTo]': '9999-12-31 23:59:59' }, 'dateTo'],
      ['both in year 9999', { 'criteria[dateFrom]': '9999-12-31', 'criteria[dateTo]': '9999-12-31 23:59:59' }, 'dateFrom'],
    ];
    const cases = ZONES.flatMap((zone) =>
      TYPES.flatMap((type) => OUT_OF_RANGE.map(([what, criteria, field]) => [type, what, zone, criteria, field] as const)),
    );

    it.each(cases)('answers code 12 for type %s with %s in %s', async (type, _, zone, criteria, field) => {
      const account = zoned[zone]!;
      expect(await stats({ type, ...criteria }, account.key, account.linkId)).toEqual(limit(new RegExp(`criteria\\[${field}\\] ${RANGE.source}`)));
    });

    it.each(
      TYPES.flatMap(
        (type) =>
          [
            [type, { 'criteria[dateFrom]': '1969-12-31 23:59:59' }, 'dateFrom'],
            [type, { 'criteria[dateTo]': '0000-01-01' }, 'dateTo'],
            [type, { 'criteria[dateFrom]': '9991-01-01' }, 'dateFrom'],
          ] as const,
      ),
    )('answers code 12 for type %s with a date just outside the range: %j', async (type, criteria, field) => {
      expect(await stats({ type, ...criteria })).toEqual(limit(new RegExp(`criteria\\[${field}\\] ${RANGE.source}`)));
    });

    it.each(MALFORMED)('answers code 12 for %s', async (_, value) => {
      for (const name of ['dateFrom', 'dateTo']) {
        expect(await stats({ type: 'daily', [`criteria[${name}]`]: value })).toEqual(limit(new RegExp(`criteria\\[${name}\\] must be YYYY-MM-DD`)));
      }
    });

    it('answers code 12 when dateTo is before dateFrom', async () => {
      expect(await stats({ type: 'daily', 'criteria[dateFrom]': '2026-03-02', 'criteria[dateTo]': '2026-03-01 00:00:00' })).toEqual(
        limit(/criteria\[dateTo\] must not be before criteria\[dateFrom\]/),
      );
    });

    it('accepts the edges of the range, leap days and surrounding spaces', async () => {
      const first = await stats({ type: 'monthly', 'criteria[dateTo]': '1970-01-01 00:00:00' });
      const last = await stats({ type: 'monthly', 'criteria[dateFrom]': ' 9990-12-31 23:59:59 ' });
      const leap = await stats({ type: 'daily', 'criteria[dateFrom]': '2028-02-29', 'criteria[dateTo]': '2028-03-01 00:00:00' });
      expect([first.code, last.code, leap.code]).toEqual([0, 0, 0]);
      expect(first.data.items.at(-1).param).toBe('1970-01');
      expect(last.data.items[0].param).toBe('9990-12');
      expect(last.data.items.at(-1).param).toBe('9993-12');
      expect(leap.data.items.map((item: { param: string }) => item.param)).toEqual(['2028-02-29', '2028-03-01']);
    });

    it('reads the range in the account zone: UTC+14 and UTC-12 accounts reach both edges', async () => {
      // Prepare
      const { key: eastKey, linkId: eastLink } = zoned['Etc/GMT-14']!;
      const { key: westKey, linkId: westLink } = zoned['Etc/GMT+12']!;

      // Act: 1970-01-01 00:00 at UTC+14 is still 1969 in UTC; 9990-12-31 23:59:59 at UTC-12 is 9991 in UTC.
      const eastFirst = await stats({ type: 'hourly', 'criteria[dateFrom]': '1970-01-01 00:00:00' }, eastKey, eastLink);
      const westLast = await stats({ type: 'minute', 'criteria[dateTo]': '9990-12-31 23:59:59' }, westKey, westLink);
      const westBeyond = await stats({ type: 'minute', 'criteria[dateFrom]': '9991-01-01 00:00:00' }, westKey, westLink);
      const eastBefore = await stats({ type: 'minute', 'criteria[dateTo]': '1969-12-31 23:59:59' }, eastKey, eastLink);

      // Assess
      expect([eastFirst.code, westLast.code]).toEqual([0, 0]);
      expect(eastFirst.data.items[0].param).toBe('1970-01-01 00:00');
      expect(westLast.data.items.at(-1).param).toBe('9990-12-31 23:59');
      expect(westBeyond).toEqual(limit(RANGE));
      expect(eastBefore).toEqual(limit(RANGE));
    });
  });

  describe('Link/List', () => {
    it.each([
      ['createTsFrom', '9999-12-31'],
      ['createTsTo', '9999-12-31 23:59:59'],
      ['createTsFrom', '1969-12-31'],
      ['createTsTo', '0000-01-01'],
    ])('answers code 12 when criteria[%s] is %s', async (name, value) => {
      expect(await service.api('Link/List', key, { [`criteria[${name}]`]: value })).toEqual(
        limit(new RegExp(`criteria\\[${name}\\] ${RANGE.source}`)),
      );
    });

    it.each(MALFORMED)('answers code 12 for %s', async (_, value) => {
      for (const name of ['createTsFrom', 'createTsTo']) {
        expect(await service.api('Link/List', key, { [`criteria[${name}]`]: value })).toEqual(
          limit(new RegExp(`criteria\\[${name}\\] must be YYYY-MM-DD`)),
        );
      }
    });

    it('accepts the whole supported range as a filter', async () => {
      const listed = await service.api('Link/List', key, { 'criteria[createTsFrom]': '1970-01-01', 'criteria[createTsTo]': '9990-12-31 23:59:59' });
      expect(listed.code).toBe(0);
      expect(listed.data.totalItemCount).toBeGreaterThan(0);
    });
  });

  describe('Message/List', () => {
    const FIELDS = ['campaignCreateTs', 'campaignSentTs', 'startSendTs', 'statusUpdateTs'].flatMap((name) => [`${name}From`, `${name}To`]);

    it.each(FIELDS)('answers code 12 when criteria[%s] is out of range or malformed', async (name) => {
      for (const value of ['9999-12-31 23:59:59', '9999-12-31', '1969-12-31 23:59:59', '0000-01-01 00:00:00']) {
        expect(await service.api('Message/List', key, { [`criteria[${name}]`]: value })).toEqual(
          limit(new RegExp(`criteria\\[${name}\\] ${RANGE.source}`)),
        );
      }
      for (const [, value] of MALFORMED) {
        expect(await service.api('Message/List', key, { [`criteria[${name}]`]: value })).toEqual(
          limit(new RegExp(`criteria\\[${name}\\] must be YYYY-MM-DD`)),
        );
      }
    });

    it('accepts the whole supported range as a filter', async () => {
      expect(
        (await service.api('Message/List', key, { 'criteria[startSendTsFrom]': '1970-01-01 00:00:00', 'criteria[startSendTsTo]': '9990-12-31' }))
          .code,
      ).toBe(0);
    });
  });

  describe('Link/Create and Link/Update data[expirationDate]', () => {
    const linkCount = async (apiKey: string) => (await service.api('Link/List', apiKey, {})).data.totalItemCount as number;

    it.each([
      ['the end of year 9999', '9999-12-31', DATE_RANGE],
      ['the first day past the range', '9991-01-01', DATE_RANGE],
      ['year zero', '0000-01-01', DATE_RANGE],
      ['an expanded year', '+275760-09-13', 'must be a date, YYYY-MM-DD'],
      ['February 30th', '2026-02-30', 'must be a date, YYYY-MM-DD'],
      ['month 13', '2026-13-01', 'must be a date, YYYY-MM-DD'],
      ['a leap day of a common year', '2027-02-29', 'must be a date, YYYY-MM-DD'],
      ['a time of day', '2030-01-01 24:00:00', 'must be a date, YYYY-MM-DD'],
    ])('answers code 1 for %s and writes nothing', async (_, value, problem) => {
      // Prepare
      const own = await service.account();
      const kept = await service.api('Link/Create', own.key, { 'data[fullLink]': 'https://example.com/kept', 'data[expirationDate]': '2040-01-01' });

      // Act
      const created = await service.api('Link/Create', own.key, { 'data[fullLink]': 'https://example.com', 'data[expirationDate]': value });
      const updated = await service.api('Link/Update', own.key, { id: String(kept.data.id), 'data[expirationDate]': value });

      // Assess
      for (const answer of [created, updated]) {
        expect(answer).toEqual(failure(1, { expirationDate: [`Expiration date ${problem}`] }));
      }
      expect(await linkCount(own.key)).toBe(1);
      expect((await service.api('Link/Get', own.key, { id: String(kept.data.id) })).data.expirationDate).toBe('2040-01-01');
    });

    it('accepts the last day of the range at UTC-12, and the link still redirects', async () => {
      // Prepare
      const west = await service.account({ timeZone: 'Etc/GMT+12' });

      // Act
      const created = await service.api('Link/Create', west.key, {
        'data[fullLink]': 'https://example.com/far',
        'data[expirationDate]': '9990-12-31',
      });
      const leap = await service.api('Link/Create', west.key, { 'data[fullLink]': 'https://example.com/leap', 'data[expirationDate]': '2028-02-29' });

      // Assess
      expect([created.code, leap.code]).toEqual([0, 0]);
      expect((await service.api('Link/Get', west.key, { id: String(created.data.id) })).data.expirationDate).toBe('9990-12-31');
      const visit = await fetch(created.data.shortLink, { redirect: 'manual' });
      expect(visit.status).toBe(302);
    });
  });

  describe('Message/SendSmsMessage params[deferredToTs]', () => {
    it.each<[string, string, RegExp]>([
      ['the end of year 9999', '9999-12-31 23:59:59', RANGE],
      ['year 1969', '1969-12-31 23:59:59', RANGE],
      ['year zero', '0000-01-01 00:00:00', RANGE],
      ...MALFORMED.map(([what, value]): [string, string, RegExp] => [what, value, /must be YYYY-MM-DD HH:MM:SS/]),
    ])('answers code 1 for %s and writes nothing', async (_, value, problem) => {
      // Prepare
      const own = await service.account();
      await service.runtime.accounts.setPrice(own.id, '*', 0.05);

      // Act
      const sent = await service.api('Message/SendSmsMessage', own.key, { recipient: '447400123450', text: 'Later', 'params[deferredToTs]': value });

      // Assess
      expect(sent).toEqual(failure(1, { deferredToTs: [expect.stringMatching(new RegExp(`^Deferred sending time ${problem.source}`))] }));
      expect((await service.api('Message/List', own.key, {})).data.totalItemCount).toBe(0);
    });
  });
});
