import ipaddr from 'ipaddr.js';
// The one check used, not the whole library (which would triple every function's bundle).
import isFQDN from 'validator/lib/isFQDN';

/** A short link as the domain knows it. Times are UTC instants. */
export interface Link {
  id: number;
  accountId: number;
  code: string;
  fullLink: string;
  status: LinkStatus;
  moderatorStatus: ModeratorStatus;
  moderatorComment: string | null;
  comment: string | null;
  /** Last valid calendar day in the account's zone, `YYYY-MM-DD`. */
  expirationDate: string | null;
  /** The instant the link stops working: end of expirationDate in the account's zone. */
  expiresAt: string | null;
  clickCnt: number;
  redirectCnt: number;
  createdAt: string;
  /** Set on links made by SMS link shortening: the campaign and message they belong to. */
  campaignId: number | null;
  trackingCode: string | null;
}

export type LinkStatus = 0 | 1;
export type ModeratorStatus = 0 | 1;

export const LINK_STATUS = { inactive: 0, active: 1 } as const;
export const MODERATOR_STATUS = { blocked: 0, approved: 1 } as const;

export const MAX_FULL_LINK_LENGTH = 2000;
export const MAX_COMMENT_LENGTH = 255;

/** What a redirect does with a link right now. */
export type LinkVerdict = 'redirect' | 'inactive' | 'blocked' | 'expired';

export function linkVerdict(link: Pick<Link, 'status' | 'moderatorStatus' | 'expiresAt'>, now: Date): LinkVerdict {
  if (link.moderatorStatus === MODERATOR_STATUS.blocked) return 'blocked';
  if (link.status === LINK_STATUS.inactive) return 'inactive';
  if (link.expiresAt !== null && now.getTime() > Date.parse(link.expiresAt)) return 'expired';
  return 'redirect';
}

/**
 * Where a visitor is sent: fullLink serialized as the WHATWG URL standard does (an IDN host
 * in punycode, any other non-ASCII percent-encoded), so that it fits a Location header,
 * with `http://` in front when it came without a scheme. The user's own spelling stays in
 * fullLink. Undefined when fullLink is no URL (only a link stored without validation).
 */
export function redirectTarget(fullLink: string): string | undefined {
  const href = parseFullLink(fullLink)?.href;
  // WHATWG serializes to visible ASCII only; checked, since a header can carry nothing else.
  return href !== undefined && HEADER_SAFE.test(href) ? href : undefined;
}

function parseFullLink(fullLink: string): URL | undefined {
  const withScheme = HAS_HTTP_SCHEME.test(fullLink) ? fullLink : `http://${fullLink.replace(/^\/\//, '')}`;
  try {
    return new URL(withScheme);
  } catch {
    return undefined;
  }
}

const HAS_HTTP_SCHEME = /^https?:\/\//i;
const HEADER_SAFE = /^[\x21-\x7e]+$/;
/** `name:` at the start; `host:8080` is a port, not a scheme. */
const SCHEME_PREFIX = /^([a-z][a-z0-9+.-]*):(?!\d+(?:[/?#]|$))/i;

/**
 * Checks a URL to shorten and returns the problem in words, or undefined when it is fine.
 * Accepted: http(s) URLs, with or without the scheme, that WHATWG can parse and whose host
 * is a domain name with a top-level domain or an IP address. Rejected: other schemes
 * (javascript:, data:, file:…), credentials in the URL, links to the short-link host
 * itself in any spelling (a redirect loop), and links to this machine or its link
 * (loopback, unspecified and link-local addresses, localhost). Private ranges (10/8…) are
 * allowed: an intranet link is legitimate, and the service never fetches the URL itself.
 * `shortLinkHost` is the hostname of `{short_link_base}` (without its port).
 */
export function fullLinkProblem(fullLink: string, shortLinkHost: string): string | undefined {
  if (fullLink.length === 0) return 'Full link is required';
  if (fullLink.length > MAX_FULL_LINK_LENGTH) return `Full link must be at most ${MAX_FULL_LINK_LENGTH} characters`;
  if (/[\s\u0000-\u001f\u007f\ufffd]/.test(fullLink)) return 'Full link must not contain spaces or control characters';
  const scheme = SCHEME_PREFIX.exec(fullLink)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return `Links with the ${scheme}: scheme are not allowed`;
  const url = parseFullLink(fullLink);
  if (!url || !HEADER_SAFE.test(url.href)) return 'Invalid URL';
  if (url.username !== '' || url.password !== '') return 'Links with credentials are not allowed';
  const host = hostOf(url.hostname);
  if (host.key === hostOf(shortLinkHost).key) return 'Links to the short-link domain are not allowed';
  if (isLocal(host)) return 'Links to local addresses (localhost, loopback, link-local or unspecified) are not allowed';
  if (!host.address && !isFQDN(host.key, { require_tld: true, allow_underscores: true })) return 'Invalid URL';
  return undefined;
}

interface Host {
  /** One spelling per host: the address in its normal form (an IPv4-mapped IPv6 one as IPv4), else the name without a final dot. */
  key: string;
  address: ipaddr.IPv4 | ipaddr.IPv6 | undefined;
}

/** A WHATWG hostname (lowercase, punycode, IPv4 in dotted decimal, IPv6 in brackets) reduced to one spelling. */
function hostOf(hostname: string): Host {
  const address = hostname.startsWith('[')
    ? ipaddr.process(hostname.slice(1, -1))
    : ipaddr.IPv4.isValidFourPartDecimal(hostname)
      ? ipaddr.IPv4.parse(hostname)
      : undefined;
  return { key: address ? address.toNormalizedString() : hostname.toLowerCase().replace(/\.$/, ''), address };
}

const LOCAL_RANGES: ReadonlySet<string> = new Set(['loopback', 'unspecified', 'linkLocal']);

function isLocal({ key, address }: Host): boolean {
  if (address) return LOCAL_RANGES.has(address.range());
  return key === 'localhost' || key.endsWith('.localhost');
}

/** Codes that would shadow the local runtime's own paths (/health, /service/…). */
export const RESERVED_CODES: ReadonlySet<string> = new Set(['health', 'service']);
