import packageJson from '../../../package.json';
import { API_VERSIONS, OUTPUT_FORMATS } from '../middleware/transport';
import { RESULT_CODE } from '../result-codes';
import { type BracketParameter, bracketParameters, type JsonSchema, jsonSchemaOf } from './convert';
import { EXAMPLES } from './examples';
import { OPERATION_DOCS, type OperationDoc } from './operations';
import { redirectPaths } from './redirect';
import { fieldErrors } from './responses';
import { RESULT_CODE_MEANINGS, type ResultCodeDoc, resultCodesOf } from './results';

/**
 * The API's OpenAPI 3.1 document, generated: the parameters from each operation's valibot
 * schemas (operations.ts), the result codes from result-codes.ts and what each operation
 * and the stack around it may raise, the redirect from redirect.ts.
 */

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, OperationObject>> };
type OperationObject = Record<string, unknown>;

export interface DocumentOptions {
  /** The operations to describe; the API's own unless a test passes others. */
  operations?: OperationDoc[];
}

export function openApiDocument({ operations = OPERATION_DOCS }: DocumentOptions = {}): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const operation of operations) {
    const parameters = requestParameters(operation);
    const path = `/service/${operation.module}/${operation.method}`;
    paths[path] = {
      post: { ...common(operation), operationId: operationIdOf(operation), parameters: sharedParameterRefs(), requestBody: formBody(parameters) },
      get: {
        ...common(operation),
        operationId: `${operationIdOf(operation)}Get`,
        summary: `${operation.summary} (GET)`,
        parameters: [...sharedParameterRefs(), ...parameters.map(queryParameter)],
      },
    };
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'shortsms API',
      version: packageJson.version,
      description: INTRODUCTION,
    },
    // Relative to the document's own address: whichever host serves /openapi.json is the API's.
    servers: [{ url: '/', description: 'The host this document is served from' }],
    security: [{ apiKey: [] }],
    tags: [
      { name: 'Link', description: 'Short links' },
      { name: 'Message', description: 'Single SMS messages' },
      { name: 'Redirect', description: 'The short links themselves, on the short-link base' },
    ],
    paths: { ...paths, ...redirectPaths() },
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'query',
          name: 'apiKey',
          description: 'The account’s API key. It may be sent in the form body instead, which keeps it out of URLs and logs.',
        },
      },
      parameters: {
        output: {
          name: 'output',
          in: 'query',
          description: 'The answer’s format: `xml` gives the same envelope as XML (`application/xml`); an unknown one answers code 6.',
          schema: { type: 'string', enum: OUTPUT_FORMATS, default: 'json' },
        },
        api: {
          name: 'api',
          in: 'query',
          description: 'The API version; another answers code 12.',
          schema: { type: 'string', enum: API_VERSIONS, default: 'v1' },
        },
      },
      schemas: { FieldErrors: jsonSchemaOf(fieldErrors, 'answer') },
    },
  };
}

/** Each operation's parameters by their bracket names; `required` also counts the operation's own checks. */
export function requestParameters(operation: OperationDoc): BracketParameter[] {
  const required = new Set(operation.required ?? []);
  return bracketParameters(operation.parameters).map((parameter) =>
    required.has(parameter.name.replace(/\[\]$/, '')) ? { ...parameter, required: true } : parameter,
  );
}

function operationIdOf({ module, method }: OperationDoc): string {
  return `${module.toLowerCase()}${method}`;
}

function common(operation: OperationDoc): OperationObject {
  const codes = resultCodesOf(operation.results);
  return {
    tags: [operation.module],
    summary: operation.summary,
    description: [operation.description, codesTable(codes)].filter(Boolean).join('\n\n'),
    'x-result-codes': codes,
    responses: { 200: envelopeResponse(operation, codes) },
  };
}

function sharedParameterRefs() {
  return [{ $ref: '#/components/parameters/output' }, { $ref: '#/components/parameters/api' }];
}

/** GET: each bracket parameter under its own name; a list repeats it (`ids[]=1&ids[]=2`). */
function queryParameter({ name, required, schema }: BracketParameter) {
  const example = EXAMPLES[name];
  return {
    name,
    in: 'query',
    required,
    schema,
    ...(schema.type === 'array' ? { style: 'form', explode: true } : {}),
    ...(example ? { example } : {}),
  };
}

/** The field's example, or empty: Swagger UI would fill the field with a made-up sample such as "string". */
function exampleFor(name: string): string | string[] {
  return EXAMPLES[name] ?? '';
}

/** POST: the same names as fields of a URL-encoded form. */
function formBody(parameters: BracketParameter[]) {
  const lists = parameters.filter(({ schema }) => schema.type === 'array');
  return {
    required: parameters.some(({ required }) => required),
    content: {
      'application/x-www-form-urlencoded': {
        schema: {
          type: 'object',
          properties: Object.fromEntries(parameters.map(({ name, schema }) => [name, { ...schema, examples: [exampleFor(name)] }])),
          required: parameters.filter(({ required }) => required).map(({ name }) => name),
        },
        ...(lists.length > 0 ? { encoding: Object.fromEntries(lists.map(({ name }) => [name, { style: 'form', explode: true }])) } : {}),
      },
    },
  };
}

function envelopeResponse(operation: OperationDoc, codes: ResultCodeDoc[]) {
  const success = jsonSchemaOf(operation.data, 'answer');
  return {
    description: 'Every answer is HTTP 200 with the `{code, data, message}` envelope; `code` says what happened.',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['code', 'data', 'message'],
          properties: {
            code: { type: 'integer', enum: codes.map(({ code }) => code) },
            data: {
              description: 'On success (code 0) the answer below; for code 1 the fields’ messages; otherwise null.',
              oneOf: [success, { $ref: '#/components/schemas/FieldErrors' }, { type: 'null' }],
            },
            message: { type: 'string', description: 'Empty on success, an English sentence otherwise' },
          },
        },
        examples: Object.fromEntries(codes.map((entry) => [`code${entry.code}`, exampleOf(entry)])),
      },
    },
  };
}

function exampleOf({ code, kind, when }: ResultCodeDoc) {
  if (code === RESULT_CODE.success) return { summary: `0: ${when[0]}`, value: { code, data: '…', message: '' } };
  const data = code === RESULT_CODE.invalid ? { field: ['What is wrong with it'] } : null;
  return {
    summary: `${code}: ${RESULT_CODE_MEANINGS[kind as keyof typeof RESULT_CODE]}`,
    value: { code, data, message: when[0]?.replace(/`/g, '') },
  };
}

function codesTable(codes: ResultCodeDoc[]): string {
  const rows = codes.map(({ code, when }) => `| ${code} | ${when.join('; ')} |`);
  return ['| code | when |', '|---|---|', ...rows].join('\n');
}

const INTRODUCTION = [
  'Link shortening and single SMS. Every operation is `/service/<Module>/<Method>` (module and method match case-insensitively), called with POST and a form body (`application/x-www-form-urlencoded`, or multipart) or with GET and the same parameters in the query string; a body parameter wins over a query parameter of the same name. Lists and groups use PHP bracket syntax: `ids[]=1&ids[]=2` (or `ids[0]=1`, or `ids=1,2`), `data[fullLink]=…`, `criteria[status]=1`, `sort[createTs]=DESC`. A parameter sent empty (`x=`) counts as not given.',
  'Every answer is HTTP 200 with `{"code": 0, "data": …, "message": ""}`. The codes:',
  [
    '| code | meaning |',
    '|---|---|',
    ...Object.entries(RESULT_CODE).map(([kind, code]) => `| ${code} | ${RESULT_CODE_MEANINGS[kind as keyof typeof RESULT_CODE]} |`),
  ].join('\n'),
  'Responses write times as `YYYY-MM-DD HH-MM-SS` and requests as `YYYY-MM-DD HH:MM:SS`, both in the account’s time zone.',
].join('\n\n');

export type { JsonSchema };
