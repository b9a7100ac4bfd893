import { PAGES } from '../redirect';

/**
 * `GET|HEAD /{code}` (shared/api/redirect.ts, SPEC §5): a 302 to the full link, or one of
 * the small pages, described from the redirect's own page table.
 */
export function redirectPaths() {
  const noStore = {
    'Cache-Control': {
      description: 'Always `private, no-store`: a status change shows at once',
      schema: { type: 'string', const: 'private, no-store' },
    },
  };
  const pages = Object.entries(PAGES);
  const statuses = [...new Set(pages.map(([, page]) => page.status))].sort();
  const responses = {
    302: {
      description: 'The link is active, approved and not expired: on to its full link. Never 301, so browsers keep asking and every click counts.',
      headers: { Location: { description: 'The full link', schema: { type: 'string' } }, ...noStore },
    },
    ...Object.fromEntries(
      statuses.map((status) => {
        const shown = pages.filter(([, page]) => page.status === status);
        return [
          status,
          {
            description: shown.map(([outcome, page]) => `${outcome}: “${page.title}”, ${page.text}`).join(' / '),
            headers: noStore,
            content: {
              'text/html': {
                schema: { type: 'string' },
                examples: Object.fromEntries(
                  shown.map(([outcome, page]) => [outcome, { summary: page.title, value: `<h1>${page.title}</h1><p>${page.text}</p>` }]),
                ),
              },
            },
          },
        ];
      }),
    ),
  };
  const operation = (method: 'GET' | 'HEAD') => ({
    tags: ['Redirect'],
    operationId: method === 'GET' ? 'redirect' : 'redirectHead',
    summary: method === 'GET' ? 'Follow a short link' : 'Check a short link without counting a click',
    description:
      method === 'GET'
        ? 'Served on the short-link base ({short_link_base}/{code}), which may be a host of its own. Each GET of an existing link counts a click (a redirect too when it is sent on); requests from bots count apart.'
        : 'Answers like GET, without a body, and counts nothing.',
    security: [],
    parameters: [{ name: 'code', in: 'path', required: true, description: 'The link’s code (read in lowercase)', schema: { type: 'string' } }],
    responses,
  });
  return { '/{code}': { get: operation('GET'), head: operation('HEAD') } };
}
