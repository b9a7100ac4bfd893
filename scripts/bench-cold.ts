import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { ServiceStack } from '../lib/service-stack';

/**
 * `npm run bench:cold`: each Lambda bundle exactly as the stack builds it (a synth into a
 * temporary directory), its size, and the time a fresh Node.js process takes to import it
 * (median of RUNS), next to an empty handler's import time measured in the same run. The
 * AWS SDK comes from this checkout's node_modules, as the Lambda runtime provides it.
 * Prints figures; asserts nothing.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

function main(): void {
  const work = mkdtempSync(join(tmpdir(), 'bench-cold-'));
  try {
    const app = new App({ context: JSON.parse(readFileSync(join(ROOT, 'cdk.json'), 'utf8')).context, outdir: join(work, 'cdk.out') });
    const stack = new ServiceStack(app, 'Shortsms', { projectRoot: ROOT });
    const template = app.synth().getStackByName(stack.stackName).template as { Resources: Record<string, any> };
    const bundles = Object.entries(template.Resources)
      .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function')
      .map(([, resource]) => ({
        name: String(resource.Properties.Description ?? '').replace(/^shortsms /, ''),
        file: join(app.outdir, `asset.${String(resource.Properties.Code.S3Key).replace(/\.zip$/, '')}`, 'index.mjs'),
      }))
      .sort((a, b) => a.name.localeCompare(b.name));

    const empty = join(work, 'empty', 'index.mjs');
    mkdirSync(join(work, 'empty'));
    writeFileSync(empty, 'export const handler = async () => ({ statusCode: 200 });\n');
    const emptyMs = importMs(empty, work);

    console.log('\nbench:cold');
    console.log(`  import time in a fresh Node.js ${process.version} process, median of ${RUNS}; SDK from node_modules as on Lambda`);
    console.log(`  ${'handler'.padEnd(28)}${'bundle'.padStart(10)}${'import'.padStart(11)}${'vs empty'.padStart(11)}`);
    console.log(`  ${'(empty handler)'.padEnd(28)}${'0 KB'.padStart(10)}${`${emptyMs.toFixed(1)} ms`.padStart(11)}`);
    for (const bundle of bundles) {
      const dir = join(work, bundle.name);
      mkdirSync(dir);
      copyFileSync(bundle.file, join(dir, 'index.mjs'));
      const ms = importMs(join(dir, 'index.mjs'), work);
      const kb = statSync(bundle.file).size / 1024;
      console.log(
        `  ${bundle.name.padEnd(28)}${`${kb.toFixed(0)} KB`.padStart(10)}${`${ms.toFixed(1)} ms`.padStart(11)}${`+${(ms - emptyMs).toFixed(1)} ms`.padStart(11)}`,
      );
    }
    console.log('  budgets: redirect ≤ 200 KB, others ≤ 450 KB (test/infra/stack.test.ts fails past them)');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Median time to import `file` in a fresh process, the module's top level (cold start work) included. */
function importMs(file: string, work: string): number {
  const modules = join(work, 'node_modules');
  try {
    symlinkSync(join(ROOT, 'node_modules'), modules, 'dir');
  } catch {
    // already linked
  }
  const env = {
    ...process.env,
    TABLE_NAME: 'shortsms',
    SHORT_LINK_BASE: 'https://sho.rt',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  const script = `const t = performance.now(); await import(${JSON.stringify(file)}); console.log(performance.now() - t);`;
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: work, env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`Import of ${file} failed: ${result.stderr}`);
    times.push(Number(result.stdout.trim()));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

main();
