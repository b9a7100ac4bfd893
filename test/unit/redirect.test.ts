import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { type RedirectDeps, redirect } from '../../shared/api/redirect';
import type { CachedLink } from '../../shared/domain/link-cache';

const link: CachedLink = {
  id: 5,
  accountId: 2,
  code: 'ab12',
  fullLink: 'example.com/x',
  status: 1,
  moderatorStatus: 1,
  expiresAt: null,
  target: 'http://example.com/x',
};
const event = (method: string, path: string): APIGatewayProxyEventV2 =>
  ({ rawPath: path, requestContext: { http: { method, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' } } }) as APIGatewayProxyEventV2;

function deps(options: { found: 'hit' | 'miss'; send?: (body: string) => Promise<void>; link?: CachedLink }) {
  const sent: string[] = [];
  const found = options.link ?? link;
  const result: RedirectDeps = {
    links: { findForRedirect: (code) => (code !== 'ab12' ? undefined : options.found === 'hit' ? found : Promise.resolve(found)) },
    queues: { send: options.send ?? (async (_queue, body) => void sent.push(body)) },
    clock: () => new Date('2026-11-23T10:00:00.000Z'),
  };
  return { deps: result, sent };
}

describe('redirect', () => {
  it.each(['hit', 'miss'] as const)('sends a found link on and queues its click, whether the cache had it or not (%s)', async (found) => {
    const { deps: d, sent } = deps({ found });
    expect(await redirect(event('GET', '/AB12/'), d)).toMatchObject({ statusCode: 302, headers: { location: 'http://example.com/x' } });
    expect(sent.map((body) => JSON.parse(body))).toEqual([
      { linkId: 5, accountId: 2, at: '2026-11-23T10:00:00.000Z', visitor: 'human', redirected: true },
    ]);
  });

  it('still redirects when the click cannot be queued', async () => {
    const { deps: d } = deps({ found: 'hit', send: async () => Promise.reject(new Error('queue down')) });
    expect(await redirect(event('GET', '/ab12'), d)).toMatchObject({ statusCode: 302 });
  });

  it('answers a 404 page, counting a click but no redirect, for a link whose full link is no URL', async () => {
    // Prepare: a link stored without validation, so cached without a target
    const { deps: d, sent } = deps({ found: 'hit', link: { ...link, fullLink: 'http://exa mple.com', target: undefined } });

    // Act
    const response = await redirect(event('GET', '/ab12'), d);

    // Assess
    expect(response).toMatchObject({ statusCode: 404, headers: { 'content-type': 'text/html; charset=utf-8' } });
    expect(response.body).toContain('not a valid web address');
    expect(sent.map((body) => JSON.parse(body))).toEqual([expect.objectContaining({ linkId: 5, redirected: false })]);
  });

  it('counts nothing for HEAD or an unknown code', async () => {
    const { deps: d, sent } = deps({ found: 'hit' });
    expect(await redirect(event('HEAD', '/ab12'), d)).toMatchObject({ statusCode: 302, body: '' });
    expect(await redirect(event('GET', '/zz99'), d)).toMatchObject({ statusCode: 404 });
    expect(sent).toEqual([]);
  });
});
