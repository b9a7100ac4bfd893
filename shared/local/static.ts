import type { ServerResponse } from 'node:http';
import type { WebFiles } from '../../web/build';
import { CACHE_CONTROL, SECURITY_HEADERS } from '../../web/headers';

/**
 * The console, the docs page and /openapi.json on the local server, as CloudFront serves them
 * from S3 on AWS. Built in memory on the first request (esbuild takes about a second) and kept.
 * A bare `/console` or `/docs` is not ours: it could be a short code, so it stays the redirect's.
 */
let built: Promise<WebFiles> | undefined;

function webFiles(): Promise<WebFiles> {
  // Imported here so a server that never serves a page never loads esbuild.
  built ??= import('../../web/build')
    .then(({ buildWeb }) => buildWeb())
    .catch((error: unknown) => {
      // A failed build is retried by the next request rather than kept.
      built = undefined;
      throw error;
    });
  return built;
}

export function isStaticPath(path: string): boolean {
  return path.startsWith('/console/') || path.startsWith('/docs/') || path === '/openapi.json';
}

export async function serveStatic(res: ServerResponse, path: string, method: string): Promise<void> {
  if (method !== 'GET' && method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', ...SECURITY_HEADERS }).end();
    return;
  }
  const files = await webFiles();
  const file = files.get(path) ?? (path.endsWith('/') ? files.get(`${path}index.html`) : undefined) ?? consolePage(files, path);
  if (!file) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS }).end(method === 'HEAD' ? undefined : 'Not found');
    return;
  }
  res
    .writeHead(200, { 'content-type': file.contentType, 'content-length': file.body.length, 'cache-control': CACHE_CONTROL, ...SECURITY_HEADERS })
    .end(method === 'HEAD' ? undefined : file.body);
}

/**
 * The console routes its own pages (`/console/links/42`): any path under /console/ that does
 * not name a file (no dot in its last part) answers the console's page.
 */
function consolePage(files: WebFiles, path: string) {
  if (!path.startsWith('/console/') || path.slice(path.lastIndexOf('/')).includes('.')) return undefined;
  return files.get('/console/index.html');
}
