import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { openApiDocument } from '../../shared/api/openapi/document';
import type { WebFiles } from '../build';

const HTML = 'text/html; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * `/openapi.json` and the page that renders it at `/docs/` (its `index.html`, which the
 * static servers answer for the folder): Swagger UI from swagger-ui-dist, served from here
 * like every other file, and a small init script, since the Content-Security-Policy allows
 * no inline script or style. Paths resolve from `root`, the project directory.
 */
export async function docsFiles(options: { root?: string } = {}): Promise<WebFiles> {
  const root = options.root ?? process.cwd();
  const own = (name: string) => readFile(join(root, 'web', 'docs', name));
  const swaggerUi = dirname(createRequire(join(root, 'package.json')).resolve('swagger-ui-dist/package.json'));
  const [page, init, css, bundle, swaggerCss] = await Promise.all([
    own('index.html'),
    own('init.js'),
    own('docs.css'),
    readFile(join(swaggerUi, 'swagger-ui-bundle.js')),
    readFile(join(swaggerUi, 'swagger-ui.css'), 'utf8'),
  ]);
  return new Map([
    ['/openapi.json', { body: Buffer.from(JSON.stringify(openApiDocument())), contentType: JSON_TYPE }],
    ['/docs/index.html', { body: page, contentType: HTML }],
    ['/docs/init.js', { body: init, contentType: JS }],
    ['/docs/docs.css', { body: css, contentType: CSS }],
    ['/docs/swagger-ui-bundle.js', { body: bundle, contentType: JS }],
    // Its source map is not shipped: the reference would only make browsers' tools ask for a missing file.
    ['/docs/swagger-ui.css', { body: Buffer.from(swaggerCss.replace(/\/\*# sourceMappingURL=.*?\*\/\s*$/, '')), contentType: CSS }],
  ]);
}
