import { join } from 'node:path';
import { build } from 'esbuild';

/** What the web build produces: URL path (e.g. `/console/app.js`) → the file's bytes and type. */
export type WebFiles = Map<string, { body: Buffer; contentType: string }>;

const HTML = 'text/html; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** The console's one page: the script and styles are files of their own (the CSP allows no inline ones). */
const CONSOLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>shortsms console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/app.css">
<script type="module" src="/console/app.js"></script>
</head>
<body>
<div id="app"></div>
<noscript>The console needs JavaScript.</noscript>
</body>
</html>
`;

/**
 * Builds the console (Preact, uPlot with its CSS, the QR code library, the shared segment
 * rules) into memory with esbuild, plus the API description and its docs page. Everything
 * is bundled: the browser loads nothing from elsewhere. Paths resolve from `root`, the
 * project directory (the local server and the CDK app both run there).
 */
export async function buildWeb(options: { minify?: boolean; root?: string } = {}): Promise<WebFiles> {
  const root = options.root ?? process.cwd();
  const result = await build({
    absWorkingDir: root,
    entryPoints: { app: join(root, 'web', 'console', 'main.tsx') },
    outdir: join(root, 'web', 'out'),
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: options.minify ?? true,
    legalComments: 'none',
    logLevel: 'silent',
    tsconfig: join(root, 'web', 'tsconfig.json'),
  });
  const files: WebFiles = new Map([['/console/index.html', { body: Buffer.from(CONSOLE_HTML), contentType: HTML }]]);
  for (const output of result.outputFiles) {
    const name = output.path.slice(output.path.lastIndexOf('/') + 1);
    if (name === 'app.js') files.set('/console/app.js', { body: Buffer.from(output.contents), contentType: JS });
    else if (name === 'app.css') files.set('/console/app.css', { body: Buffer.from(output.contents), contentType: CSS });
  }
  for (const [path, file] of await docsFiles()) files.set(path, file);
  return files;
}

/** The OpenAPI document and its docs page (web/docs/files.ts takes this place once it exists). */
async function docsFiles(): Promise<WebFiles> {
  return new Map();
}
