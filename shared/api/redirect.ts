import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { linkVerdict, redirectTarget, type LinkVerdict } from '../domain/links';
import type { LinkService } from '../domain/link-service';
import type { Clock } from '../domain/time';

/**
 * `GET|HEAD {short_link_base}/<code>` (SPEC §5): 302 to the full link when the link is
 * active, approved and unexpired; otherwise a small page with 404 (unknown or inactive),
 * 451 (blocked by a moderator) or 410 (expired). Nothing here is cacheable by browsers
 * or CDNs, so a status change shows at once.
 */
export async function redirect(
  event: APIGatewayProxyEventV2,
  deps: { links: LinkService; clock: Clock },
): Promise<APIGatewayProxyStructuredResultV2> {
  const code = event.rawPath.replace(/^\/+/, '').replace(/\/+$/, '');
  const link = /^[0-9a-zA-Z]{1,20}$/.test(code) ? await deps.links.findByCode(code) : undefined;
  const verdict: LinkVerdict | 'unknown' = link ? linkVerdict(link, deps.clock()) : 'unknown';
  if (verdict === 'redirect') {
    return { statusCode: 302, headers: { location: redirectTarget(link!.fullLink), ...NO_STORE }, body: '' };
  }
  const page = PAGES[verdict];
  return {
    statusCode: page.status,
    headers: { 'content-type': 'text/html; charset=utf-8', ...NO_STORE },
    body: event.requestContext.http.method === 'HEAD' ? '' : html(page.title, page.text),
  };
}

const NO_STORE = { 'cache-control': 'private, no-store' };

const PAGES: Record<Exclude<LinkVerdict, 'redirect'> | 'unknown', { status: number; title: string; text: string }> = {
  unknown: { status: 404, title: 'Link not found', text: 'This short link does not exist. Check that it was typed in full.' },
  inactive: { status: 404, title: 'Link not found', text: 'This short link does not exist. Check that it was typed in full.' },
  blocked: { status: 451, title: 'Link unavailable', text: 'This short link has been blocked by our moderators.' },
  expired: { status: 410, title: 'Link expired', text: 'This short link has expired and no longer leads anywhere.' },
};

function html(title: string, text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;color:#1f2933;background:#f5f7fa}main{max-width:28rem;padding:2rem;text-align:center}h1{font-size:1.5rem}</style></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;
}
