// Stand-in for web/build.ts until it lands (same signature); deleted on merge.
export type WebFiles = Map<string, { body: Buffer; contentType: string }>;

export async function buildWeb(_options?: { minify?: boolean }): Promise<WebFiles> {
  const html = (title: string) =>
    Buffer.from(`<!doctype html><html><head><title>${title}</title><script src="app.js" defer></script></head><body></body></html>`);
  return new Map([
    ['/console/', { body: html('console'), contentType: 'text/html; charset=utf-8' }],
    ['/console/app.js', { body: Buffer.from('document.title = "console";'), contentType: 'text/javascript; charset=utf-8' }],
    ['/docs/', { body: html('docs'), contentType: 'text/html; charset=utf-8' }],
    ['/docs/app.js', { body: Buffer.from('document.title = "docs";'), contentType: 'text/javascript; charset=utf-8' }],
    ['/openapi.json', { body: Buffer.from('{"openapi":"3.1.0"}'), contentType: 'application/json' }],
  ]);
}
