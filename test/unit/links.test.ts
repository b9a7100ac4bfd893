import fc from 'fast-check';
import { fullLinkProblem } from '../../shared/domain/full-link-rules';
import { linkVerdict, redirectTarget } from '../../shared/domain/links';

describe('fullLinkProblem', () => {
  const host = 'sho.rt';

  it.each([
    'https://example.com/offer?x=1#top',
    'http://example.com',
    'www.example.com',
    'example.com/path',
    'example.com:8080/x',
    '//example.com/a',
    'https://пример.рф/путь',
    'HTTPS://EXAMPLE.COM',
    'http://192.0.2.10:8080/x',
    'http://[2001:db8::1]/',
  ])('accepts %s', (url) => {
    expect(fullLinkProblem(url, host)).toBeUndefined();
  });

  it.each([
    ['', 'Full link is required'],
    ['javascript:alert(1)', 'Links with the javascript: scheme are not allowed'],
    ['data:text/html,hi', 'Links with the data: scheme are not allowed'],
    ['file:///etc/passwd', 'Links with the file: scheme are not allowed'],
    ['ftp://example.com', 'Links with the ftp: scheme are not allowed'],
    ['http://user:secret@example.com', 'Links with credentials are not allowed'],
    ['https://sho.rt/abcd', 'Links to the short-link domain are not allowed'],
    ['SHO.RT/abcd', 'Links to the short-link domain are not allowed'],
    ['localhost:8080', 'Links to local addresses (localhost, loopback, link-local or unspecified) are not allowed'],
    ['example', 'Invalid URL'],
    ['http://exa mple.com', 'Full link must not contain spaces or control characters'],
    [`https://example.com/${'a'.repeat(2000)}`, 'Full link must be at most 2000 characters'],
  ])('rejects %j', (url, problem) => {
    expect(fullLinkProblem(url, host)).toBe(problem);
  });
});

describe('fullLinkProblem for links back to this service or this machine', () => {
  const local = 'Links to local addresses (localhost, loopback, link-local or unspecified) are not allowed';
  const own = 'Links to the short-link domain are not allowed';

  it.each([
    'http://127.0.0.1:8080/abcd',
    'http://127.1.2.3/',
    'http://0x7f.1/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://127.0.0.1./',
    'http://[::1]:8080/abcd',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::ffff:127.0.0.1]:8080/abcd',
    'http://[::ffff:7f00:1]/',
    'http://0.0.0.0:8080/abcd',
    'http://0/',
    'http://[::]/',
    'http://[::ffff:0.0.0.0]/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::ffff:169.254.169.254]/',
    'http://[fe80::1]/',
    'http://[febf::1]/',
    'localhost',
    'http://LOCALHOST./',
    'http://app.localhost:3000/',
    'http://ａｐｐ．ｌｏｃａｌｈｏｓｔ/',
  ])('refuses %s as a local address', (url) => {
    expect(fullLinkProblem(url, 'sho.rt')).toBe(local);
  });

  it.each([
    'https://SHO.RT/abcd',
    'https://sho.rt./abcd',
    'http://sho.rt:8443/abcd',
    'sho．rt/abcd',
    'https://ｓｈｏ.ｒｔ/',
    'https://sh\u00ADo.rt/',
  ])('refuses %s as the short-link host', (url) => {
    expect(fullLinkProblem(url, 'sho.rt')).toBe(own);
  });

  it('compares the short-link host as WHATWG spells it: IDN, a final dot, IPv4 forms', () => {
    expect(fullLinkProblem('https://ПРИМЕР.РФ/abcd', new URL('https://пример.рф').hostname)).toBe(own);
    expect(fullLinkProblem('https://xn--e1afmkfd.xn--p1ai./abcd', new URL('https://пример.рф').hostname)).toBe(own);
    expect(fullLinkProblem('https://sho.rt/abcd', new URL('https://sho.rt.').hostname)).toBe(own);
    for (const url of [
      'http://203.0.113.5/abcd',
      'http://0xcb.0.113.5/',
      'http://3405803781/',
      'http://[::ffff:203.0.113.5]/',
      'http://[::ffff:cb00:7105]/',
    ]) {
      expect(fullLinkProblem(url, '203.0.113.5')).toBe(own);
    }
    expect(fullLinkProblem('http://[2001:db8::0:1]/', '[2001:db8::1]')).toBe(own);
  });

  it.each([
    'http://10.1.2.3/',
    'http://192.168.0.10/',
    'http://172.16.0.1/',
    'http://[fd00::1]/',
    'http://intranet.corp.example/',
    'http://128.0.0.1/',
    'http://[fec0::1]/',
    'http://localhost.example.com/',
  ])('accepts %s: private and other addresses are not local', (url) => {
    expect(fullLinkProblem(url, 'sho.rt')).toBeUndefined();
  });
});

describe('fullLinkProblem and redirectTarget agree', () => {
  it.each([
    'https://example.com/привет',
    'https://пример.рф/',
    'https://example.com/😀?q=😀#😀',
    'https://example．com/',
    'https://example.com/é',
    'http://😀.com/',
  ])('accepts %s, which redirectTarget serializes in ASCII', (url) => {
    expect(fullLinkProblem(url, 'sho.rt')).toBeUndefined();
    expect(redirectTarget(url)).toMatch(/^[\x21-\x7e]+$/);
  });

  it('serializes every full link it accepts to an ASCII URL, whatever the characters', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 40 });
    const fullLinks = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc
        .tuple(
          fc.constantFrom('https://', 'http://', '', '//'),
          text,
          fc.constantFrom('.com', '.рф', '．com', ''),
          fc.constantFrom('/', '?', '#', ''),
          text,
        )
        .map((parts) => parts.join('')),
    );
    let accepted = 0;
    fc.assert(
      fc.property(fullLinks, (fullLink) => {
        if (fullLinkProblem(fullLink, 'sho.rt') !== undefined) return;
        accepted++;
        expect(redirectTarget(fullLink)).toMatch(/^[\x21-\x7e]+$/);
      }),
      { numRuns: 2000 },
    );
    // Not a vacuous pass: a good share of the inputs are accepted.
    expect(accepted).toBeGreaterThan(500);
  });

  it.each(['http://exa\u200dmple.com/', 'http://xn--/', 'https://example.com:99999/', 'http://[::1/', 'http://a..b.com/'])(
    'refuses %j, which is no URL',
    (url) => {
      expect(fullLinkProblem(url, 'sho.rt')).toBe('Invalid URL');
    },
  );
});

describe('redirectTarget', () => {
  it('serializes as WHATWG does: IDN host in punycode, the rest of non-ASCII percent-encoded', () => {
    expect(redirectTarget('https://example.com/привет')).toBe('https://example.com/%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82');
    expect(redirectTarget('https://пример.рф/')).toBe('https://xn--e1afmkfd.xn--p1ai/');
    expect(redirectTarget('пример.рф/путь?q=да#я')).toBe('http://xn--e1afmkfd.xn--p1ai/%D0%BF%D1%83%D1%82%D1%8C?q=%D0%B4%D0%B0#%D1%8F');
    expect(redirectTarget('https://example.com/😀')).toBe('https://example.com/%F0%9F%98%80');
    expect(redirectTarget('https://example．com/')).toBe('https://example.com/');
    expect(redirectTarget('https://example.com/café')).toBe('https://example.com/caf%C3%A9');
  });

  it('adds http:// to links given without a scheme', () => {
    expect(redirectTarget('www.example.com/a?b=1')).toBe('http://www.example.com/a?b=1');
    expect(redirectTarget('//example.com/a')).toBe('http://example.com/a');
    expect(redirectTarget('HTTPS://example.com')).toBe('https://example.com/');
  });

  it('is undefined for a full link that is no URL (one stored without validation)', () => {
    expect(redirectTarget('http://exa\u200dmple.com/')).toBeUndefined();
    expect(redirectTarget('https://[::1')).toBeUndefined();
  });
});

describe('linkVerdict', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  const active = { status: 1 as const, moderatorStatus: 1 as const, expiresAt: null };

  it('redirects an active, approved, unexpired link', () => {
    expect(linkVerdict(active, now)).toBe('redirect');
    expect(linkVerdict({ ...active, expiresAt: '2026-11-22T12:00:00.000Z' }, now)).toBe('redirect');
  });

  it('puts a moderator block before the user status, and both before expiry', () => {
    expect(linkVerdict({ status: 0, moderatorStatus: 0, expiresAt: '2000-01-01T00:00:00Z' }, now)).toBe('blocked');
    expect(linkVerdict({ status: 0, moderatorStatus: 1, expiresAt: '2000-01-01T00:00:00Z' }, now)).toBe('inactive');
    expect(linkVerdict({ ...active, expiresAt: '2026-11-22T11:59:59.999Z' }, now)).toBe('expired');
  });
});
