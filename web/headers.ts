/**
 * The security headers of every page and file the web build serves: the local server sends
 * them, and the CloudFront response headers policy carries the same values. No inline script
 * or style anywhere, so the policy needs no 'unsafe-inline'; scripts may still set
 * element.style (uPlot and the console do), which CSP does not govern.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/**
 * File names carry no content hash, so every file is revalidated: a browser never runs
 * yesterday's app.js against today's index.html.
 */
export const CACHE_CONTROL = 'no-cache';
