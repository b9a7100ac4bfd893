import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The web files on disk, as S3 keys, and the URL paths they answer. */
export interface BuiltWebFiles {
  /** A directory whose files are the bucket's keys: `console/index.html`, `openapi.json`. */
  readonly directory: string;
  /** The URL paths buildWeb gave: `/console/`, `/console/app.js`, `/openapi.json`. */
  readonly paths: string[];
}

/** The bucket key a URL path is stored under: a directory's page is its `index.html`. */
export function objectKey(path: string): string {
  const key = path.replace(/^\//, '');
  return key === '' || key.endsWith('/') ? `${key}index.html` : key;
}

// Per process: a test file may synth several stacks, and the build takes seconds.
let built: BuiltWebFiles | undefined;

/**
 * Runs buildWeb (web/build.ts) at synth and writes its files to a temporary directory
 * that the process removes when it exits (the asset is copied into cdk.out). buildWeb is
 * asynchronous and constructs are not, so it runs in a child process.
 */
export function buildWebFiles(projectRoot: string): BuiltWebFiles {
  if (built) return built;
  const root = mkdtempSync(join(tmpdir(), 'shortsms-web-'));
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'scripts', 'build-web.ts'), root], {
    cwd: projectRoot,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`The web build failed (scripts/build-web.ts):\n${run.stderr || run.error?.message}`);
  const paths: unknown = JSON.parse(readFileSync(join(root, 'paths.json'), 'utf8'));
  if (!Array.isArray(paths) || !paths.every((path) => typeof path === 'string')) throw new Error('scripts/build-web.ts wrote no list of paths');
  built = { directory: join(root, 'files'), paths };
  return built;
}
