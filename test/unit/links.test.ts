import { fullLinkProblem, linkVerdict, redirectTarget } from '../../shared/domain/links';

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
    ['localhost:8080', 'Invalid URL'],
    ['example', 'Invalid URL'],
    ['http://exa mple.com', 'Full link must not contain spaces or control characters'],
    [`https://example.com/${'a'.repeat(2000)}`, 'Full link must be at most 2000 characters'],
  ])('rejects %j', (url, problem) => {
    expect(fullLinkProblem(url, host)).toBe(problem);
  });
});

describe('fullLinkProblem and redirectTarget agree', () => {
  it.each(['https://example.com/привет', 'https://пример.рф/', 'https://example.com/😀?q=😀#😀', 'https://example．com/', 'https://example.com/é', 'http://😀.com/'])(
    'accepts %s, which redirectTarget serializes in ASCII',
    (url) => {
      expect(fullLinkProblem(url, 'sho.rt')).toBeUndefined();
      expect(redirectTarget(url)).toMatch(/^[\x21-\x7e]+$/);
    },
  );

  it.each(['http://exa\u200dmple.com/', 'http://xn--/', 'https://example.com:99999/', 'http://[::1/', 'http://a..b.com/'])('refuses %j, which is no URL', (url) => {
    expect(fullLinkProblem(url, 'sho.rt')).toBe('Invalid URL');
  });
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
