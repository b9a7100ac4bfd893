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
export const MAX_MODERATOR_COMMENT_LENGTH = 255;

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
  return href !== undefined && isHeaderSafe(href) ? href : undefined;
}

/** fullLink as a WHATWG URL, `http://` added when it has no scheme; undefined when it is none. */
export function parseFullLink(fullLink: string): URL | undefined {
  const withScheme = HAS_HTTP_SCHEME.test(fullLink) ? fullLink : `http://${fullLink.replace(/^\/\//, '')}`;
  try {
    return new URL(withScheme);
  } catch {
    return undefined;
  }
}

/** WHATWG serializes to visible ASCII only; checked, since a header can carry nothing else. */
export function isHeaderSafe(href: string): boolean {
  return /^[\x21-\x7e]+$/.test(href);
}

const HAS_HTTP_SCHEME = /^https?:\/\//i;

/** Codes that would shadow the local runtime's own paths (/health, /service/…). */
export const RESERVED_CODES: ReadonlySet<string> = new Set(['health', 'service']);
