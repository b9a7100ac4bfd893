import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import packageJson from '../../package.json';
import { openApiDocument, requestParameters } from '../../shared/api/openapi/document';
import { EXAMPLES } from '../../shared/api/openapi/examples';
import { OPERATION_DOCS } from '../../shared/api/openapi/operations';
import { RESULT_CODE } from '../../shared/api/result-codes';
import { allOperations } from '../../shared/api/routes';
import { docsFiles } from '../../web/docs/files';

/**
 * The generated OpenAPI document: valid OpenAPI 3.1, one POST and one GET per operation, and
 * every result code an operation can raise among its documented ones. The codes are read
 * from the source here, independently of the document's own tables.
 */

const ROOT = join(__dirname, '..', '..');
const source = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The error kinds a source file raises: AppErrors, invalidField, and the kinds parseWith and readParams raise. */
function kindsRaisedIn(text: string): Set<string> {
  const kinds = new Set<string>();
  for (const [, kind] of text.matchAll(/new AppError\(\s*'(\w+)'/g)) kinds.add(kind!);
  if (/invalidField\(/.test(text)) kinds.add('invalid');
  // parseWith(schema, input[, kind]) raises `invalid` unless told; readParams(schema, input[, kind]) `limit`.
  for (const match of text.matchAll(/\b(parseWith|readParams)\(/g)) {
    const lastArgument = argumentsAt(text, match.index + match[0].length).at(-1) ?? '';
    const explicit = /^'(\w+)'$/.exec(lastArgument);
    kinds.add(explicit ? explicit[1]! : match[1] === 'parseWith' ? 'invalid' : 'limit');
  }
  return kinds;
}

/** The top-level arguments of the call whose parenthesis opens before `start`, trimmed; quoted text is skipped whole. */
function argumentsAt(text: string, start: number): string[] {
  const found: string[] = [];
  let depth = 0;
  let from = start;
  for (let at = start; at < text.length; at++) {
    const c = text[at]!;
    if (c === "'" || c === '`') at = text.indexOf(c, at + 1);
    else if ('([{'.includes(c)) depth++;
    else if (depth > 0 && ')]}'.includes(c)) depth--;
    else if (depth === 0 && (c === ',' || c === ')')) {
      found.push(text.slice(from, at).trim());
      from = at + 1;
      if (c === ')') break;
    }
  }
  return found;
}

/** What the stack around every operation raises: transport checks, authentication, the rate limit, the catch-all. */
function stackKinds(): Set<string> {
  const kinds = new Set<string>(['internal']);
  for (const file of readdirSync(join(ROOT, 'shared/api/middleware')))
    for (const kind of kindsRaisedIn(source(`shared/api/middleware/${file}`))) kinds.add(kind);
  const service = source('shared/domain/account-service.ts');
  const authenticate = service.slice(service.indexOf('async authenticate('), service.indexOf('\n  }\n', service.indexOf('async authenticate(')));
  for (const kind of kindsRaisedIn(authenticate)) kinds.add(kind);
  for (const kind of kindsRaisedIn(source('shared/domain/rate-limit.ts'))) kinds.add(kind);
  return kinds;
}

const codesOf = (operation: Record<string, unknown>) => (operation['x-result-codes'] as Array<{ code: number }>).map(({ code }) => code);

describe('the OpenAPI document', () => {
  const document = openApiDocument();

  it('is valid OpenAPI 3.1', async () => {
    // Act: the parser dereferences in place, so it gets a copy.
    const api = await SwaggerParser.validate(structuredClone(document) as never);

    // Assess
    expect((api as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('is refused by the validator when broken, so the check above can fail', async () => {
    // Prepare: a GET parameter without its required `in`.
    const broken = structuredClone(document);
    delete (broken.paths['/service/Link/Create']!.get!.parameters as Array<Record<string, unknown>>)[2]!.in;

    // Act, Assess
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow();
  });

  it('carries the package version and a server relative to wherever it is served', () => {
    expect(document.info).toMatchObject({ version: packageJson.version });
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('describes each operation of routes.ts with a form POST and a GET', () => {
    for (const { module, method } of allOperations()) {
      const path = document.paths[`/service/${module}/${method}`];
      expect(path?.post?.requestBody).toMatchObject({ content: { 'application/x-www-form-urlencoded': expect.any(Object) } });
      expect(path?.get?.parameters).toEqual(expect.arrayContaining([{ $ref: '#/components/parameters/output' }]));
    }
    expect(allOperations()).toHaveLength(10);
  });

  it.each(allOperations().map(({ module, method, handler }) => [`${module}/${method}`, handler]))(
    'lists every result code %s can raise',
    (name, handler) => {
      // Prepare
      const raised = new Set([...kindsRaisedIn(source(`shared/api/operations/${handler}.ts`)), ...stackKinds(), 'success']);
      const operation = document.paths[`/service/${name}`]!;

      // Act
      const documented = codesOf(operation.post!);

      // Assess
      const codes = [...raised].map((kind) => RESULT_CODE[kind as keyof typeof RESULT_CODE]).sort((a, b) => a - b);
      expect(codes.every((code) => code !== undefined)).toBe(true);
      expect(documented).toEqual(expect.arrayContaining(codes));
      expect(codesOf(operation.get!)).toEqual(documented);
      const envelope = (operation.post!.responses as any)[200].content['application/json'];
      expect(envelope.schema.properties.code.enum).toEqual(documented);
      expect(Object.keys(envelope.examples)).toEqual(documented.map((code) => `code${code}`));
      for (const code of documented) expect(operation.post!.description).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
    },
  );

  it('reads the kinds an operation raises from its source, so a new one would be noticed', () => {
    expect(kindsRaisedIn("readParams(schema, params.ids);\nthrow new AppError('forbidden', 'x');")).toEqual(new Set(['limit', 'forbidden']));
    expect(kindsRaisedIn("readParams(entityId('Link not found'), value, 'notFound');")).toEqual(new Set(['notFound']));
    expect(kindsRaisedIn('parseWith(sendSchema, params);')).toEqual(new Set(['invalid']));
  });

  it('gives every required parameter an example, and names no parameter that does not exist', () => {
    const parameters = OPERATION_DOCS.flatMap(requestParameters);
    for (const { name } of parameters.filter(({ required }) => required)) expect(EXAMPLES).toHaveProperty([name]);
    for (const name of Object.keys(EXAMPLES)) expect(parameters.map((parameter) => parameter.name)).toContain(name);
  });

  it('describes the redirect: 302 and the 404, 410 and 451 pages, for GET and HEAD', () => {
    const redirect = document.paths['/{code}']!;
    for (const method of ['get', 'head']) expect(Object.keys(redirect[method]!.responses as object).sort()).toEqual(['302', '404', '410', '451']);
    expect((redirect.get!.responses as any)[302].headers.Location).toBeDefined();
  });
});

describe('docsFiles', () => {
  it('serves the document and a page that loads it from its own script files', async () => {
    // Act
    const files = await docsFiles({ root: ROOT });

    // Assess
    expect(JSON.parse(files.get('/openapi.json')!.body.toString())).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect(files.get('/openapi.json')!.contentType).toMatch(/^application\/json/);
    const page = files.get('/docs/index.html')!.body.toString();
    expect(files.get('/docs/index.html')!.contentType).toMatch(/^text\/html/);
    // No inline script or style: every <script> has a src, no <style>, no style attribute.
    expect(page.match(/<script\b[^>]*>/g)!.every((tag) => /\ssrc="\/docs\/[\w.-]+\.js"/.test(tag))).toBe(true);
    expect(page).not.toMatch(/<style|\sstyle=|\son\w+=/i);
    for (const [, asset] of page.matchAll(/(?:src|href)="(\/docs\/[^"]+)"/g)) expect(files.has(asset!)).toBe(true);
    expect(files.get('/docs/init.js')!.body.toString()).toContain("url: '/openapi.json'");
    expect(files.get('/docs/swagger-ui.css')!.body.toString()).not.toContain('sourceMappingURL');
  });
});
