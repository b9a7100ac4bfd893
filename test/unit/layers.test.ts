import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The layers as the architecture draws them, read from the source: the domain does no IO
 * and depends on no adapter (it owns the ports they implement), operations and services
 * are handed their dependencies rather than fetching a runtime, and no file grows past
 * what one reads in a sitting.
 */
const root = resolve(__dirname, '../..');
const shared = join(root, 'shared');

/** Adapters, transport and composition roots, as paths under shared/. */
const ADAPTER_MODULES = [
  'store/',
  'sms/',
  'local/',
  'queue/',
  'api/',
  'admin/',
  'webhooks/',
  'telemetry',
  'runtime',
  'api-runtime',
  'redirect-runtime',
  'ids',
];
const ADAPTER_PACKAGES = ['@aws-sdk/', '@aws-lambda-powertools/', 'ulid'];
/** Calls that reach the network, the system clock or a random source (also as `globalThis.` or `crypto.` members). */
const IO_CALLS = ['fetch', 'ulid', 'randomBytes', 'randomInt', 'randomUUID', 'Date.now', 'new Date', 'Math.random'];
const RUNTIME_CALLS = ['runtime', 'apiRuntime'];
const MAX_LINES = 300;

interface Found {
  imports: { line: number; specifier: string }[];
  calls: { line: number; callee: string }[];
}

/** Every module a source imports or re-exports (static, dynamic or require) and every call, by callee. */
function scan(fileName: string, text: string): Found {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: Found = { imports: [], calls: [] };
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.imports.push({ line: lineOf(node), specifier: node.moduleSpecifier.text });
    }
    if (ts.isCallExpression(node)) {
      const [first] = node.arguments;
      const isModuleCall = node.expression.kind === ts.SyntaxKind.ImportKeyword || node.expression.getText(source) === 'require';
      if (isModuleCall && first && ts.isStringLiteral(first)) found.imports.push({ line: lineOf(node), specifier: first.text });
      found.calls.push({ line: lineOf(node), callee: node.expression.getText(source) });
    }
    // `new Date()` without arguments reads the system clock, as Date.now() does.
    if (ts.isNewExpression(node) && node.expression.getText(source) === 'Date' && (node.arguments?.length ?? 0) === 0) {
      found.calls.push({ line: lineOf(node), callee: 'new Date' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Where a domain file's imports break the layers, as `file:line what`. */
function domainOffences(path: string, text: string): string[] {
  const { imports, calls } = scan(path, text);
  const where = (line: number) => `${relative(root, path)}:${line}`;
  const offences: string[] = [];
  for (const { line, specifier } of imports) {
    const underShared = specifier.startsWith('.') ? relative(shared, resolve(dirname(path), specifier)) : undefined;
    const adapter =
      underShared !== undefined
        ? ADAPTER_MODULES.some((module) => (module.endsWith('/') ? underShared.startsWith(module) : underShared === module))
        : ADAPTER_PACKAGES.some((name) => (name.endsWith('/') ? specifier.startsWith(name) : specifier === name || specifier.startsWith(`${name}/`)));
    if (adapter) offences.push(`${where(line)} imports ${specifier}`);
  }
  for (const { line, callee } of calls)
    if (IO_CALLS.includes(callee.replace(/^(globalThis|crypto)\./, ''))) offences.push(`${where(line)} calls ${callee}()`);
  return offences;
}

function runtimeCalls(path: string, text: string): string[] {
  return scan(path, text)
    .calls.filter(({ callee }) => RUNTIME_CALLS.includes(callee))
    .map(({ line, callee }) => `${relative(root, path)}:${line} calls ${callee}()`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(name) && !name.split(/[\\/]/).includes('node_modules'))
    .map((name) => join(root, dir, name))
    .sort();
}

const read = (path: string) => readFileSync(path, 'utf8');
/** Lines as `wc -l` counts them, a last line without its newline included. */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('layers', () => {
  it('finds adapter imports, IO calls and runtime calls wherever they are written', () => {
    // Prepare: one of each, in the ways a module can be reached
    const path = join(shared, 'domain', 'sample.ts');
    const text = [
      "import { ulid } from 'ulid';",
      "import type { Store } from '../store/client';",
      "export { logger } from '../telemetry';",
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
      "import { Logger } from '@aws-lambda-powertools/logger';",
      "import { runtime } from '../runtime';",
      "import { ulidAt } from '../ids';",
      "const sms = await import('../sms/gateway');",
      "const api = require('../api/envelope');",
      "import { hostOf } from './hosts';",
      "import { createHash, randomBytes } from 'node:crypto';",
      '// Date.now() in a comment is no call',
      "const label = 'fetch(x)';",
      'export const f = () => [fetch(url), Date.now(), ulid(), randomBytes(8), crypto.randomInt(3), Math.random(), createHash("sha1")];',
      'export const g = () => runtime().links;',
      'export const h = () => [new Date(), new Date(0), new Date(Date.UTC(2030, 0, 1))];',
    ].join('\n');

    // Act
    const offences = domainOffences(path, text);
    const calls = runtimeCalls(path, text);

    // Assess
    expect(offences).toEqual([
      'shared/domain/sample.ts:1 imports ulid',
      'shared/domain/sample.ts:2 imports ../store/client',
      'shared/domain/sample.ts:3 imports ../telemetry',
      'shared/domain/sample.ts:4 imports @aws-sdk/client-dynamodb',
      'shared/domain/sample.ts:5 imports @aws-lambda-powertools/logger',
      'shared/domain/sample.ts:6 imports ../runtime',
      'shared/domain/sample.ts:7 imports ../ids',
      'shared/domain/sample.ts:8 imports ../sms/gateway',
      'shared/domain/sample.ts:9 imports ../api/envelope',
      'shared/domain/sample.ts:14 calls fetch()',
      'shared/domain/sample.ts:14 calls Date.now()',
      'shared/domain/sample.ts:14 calls ulid()',
      'shared/domain/sample.ts:14 calls randomBytes()',
      'shared/domain/sample.ts:14 calls crypto.randomInt()',
      'shared/domain/sample.ts:14 calls Math.random()',
      'shared/domain/sample.ts:16 calls new Date()',
    ]);
    expect(calls).toEqual(['shared/domain/sample.ts:15 calls runtime()']);
  });

  it('keeps shared/domain free of adapters, telemetry, the AWS SDK, Powertools, ulid, the network, the system clock and random sources', () => {
    // Prepare
    const files = sourceFiles('shared/domain');
    expect(files.length).toBeGreaterThan(10);

    // Act
    const offences = files.flatMap((path) => domainOffences(path, read(path)));

    // Assess
    expect(offences).toEqual([]);
  });

  it('has no runtime() or apiRuntime() call in shared/api/operations or shared/domain: dependencies are handed in', () => {
    // Prepare
    const files = [...sourceFiles('shared/api/operations'), ...sourceFiles('shared/domain')];

    // Act
    const calls = files.flatMap((path) => runtimeCalls(path, read(path)));

    // Assess
    expect(calls).toEqual([]);
  });

  it(`has no source file over ${MAX_LINES} lines in shared/, functions/, bin/, lib/ or web/`, () => {
    // Prepare
    const files = ['shared', 'functions', 'bin', 'lib', 'web'].flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(50);

    // Act
    const long = files
      .map((path) => ({ path, lines: lineCount(read(path)) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ path, lines }) => `${relative(root, path)}: ${lines} lines`);

    // Assess
    expect(long).toEqual([]);
  });
});
