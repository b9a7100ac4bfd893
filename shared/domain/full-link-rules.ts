// What a full link must be to be shortened. Apart from links.ts so that the redirect,
// which needs only redirectTarget, bundles neither ipaddr.js nor validator.
import type ipaddr from 'ipaddr.js';
// The one check used, not the whole library (which would triple every function's bundle).
import isFQDN from 'validator/lib/isFQDN';
import { addressOf, bareHost, isLocalhostName } from './hosts';
import { isHeaderSafe, MAX_FULL_LINK_LENGTH, parseFullLink } from './links';
import { isLongerThan } from './text-limits';

/**
 * The redirect sends the link WHATWG-serialized, where a non-ASCII character takes up to
 * 12 characters (`%EF%BF%BE`…): 2,000 of them could make a Location header of 24 KB,
 * more than HTTP clients read (Node's limit is 16 KB for all headers). 8,000 is what
 * RFC 9110 asks every party to support for a URI.
 */
export const MAX_REDIRECT_TARGET_LENGTH = 8000;

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
  if (isLongerThan(fullLink, MAX_FULL_LINK_LENGTH)) return `Full link must be at most ${MAX_FULL_LINK_LENGTH} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this check rejects.
  if (/[\s\u0000-\u001f\u007f\ufffd]/.test(fullLink)) return 'Full link must not contain spaces or control characters';
  const scheme = SCHEME_PREFIX.exec(fullLink)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return `Links with the ${scheme}: scheme are not allowed`;
  const url = parseFullLink(fullLink);
  if (!url || !isHeaderSafe(url.href)) return 'Invalid URL';
  if (url.href.length > MAX_REDIRECT_TARGET_LENGTH) {
    return `Full link is too long once encoded for the redirect (${url.href.length} characters; at most ${MAX_REDIRECT_TARGET_LENGTH})`;
  }
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
  const bare = bareHost(hostname);
  const address = addressOf(bare);
  return { key: address ? address.toNormalizedString() : bare, address };
}

const LOCAL_RANGES: ReadonlySet<string> = new Set(['loopback', 'unspecified', 'linkLocal']);

function isLocal({ key, address }: Host): boolean {
  if (address) return LOCAL_RANGES.has(address.range());
  return isLocalhostName(key);
}
