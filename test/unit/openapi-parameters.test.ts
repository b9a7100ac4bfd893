import * as v from 'valibot';
import { type OpenApiDocument, openApiDocument } from '../../shared/api/openapi/document';
import { OPERATION_DOCS, type OperationDoc } from '../../shared/api/openapi/operations';
import { createSchema } from '../../shared/api/operations/link-create';
import { idsSchema as deleteIds } from '../../shared/api/operations/link-delete';
import { campaignIdSchema } from '../../shared/api/operations/link-get-links';
import { statsSchema } from '../../shared/api/operations/link-get-stats';
import { linkListSchema } from '../../shared/api/operations/link-list';
import { idSchema as updateId, updateSchema } from '../../shared/api/operations/link-update';
import { idsSchema as statusIds } from '../../shared/api/operations/message-get-sms-status';
import { messageListSchema } from '../../shared/api/operations/message-list';
import { paramsSchema, sendSchema } from '../../shared/api/operations/message-send-sms-message';

/**
 * Every operation's parameters in the document match the valibot schemas the operation
 * reads with. The expected parameters are walked here straight from the valibot schemas
 * (entries, wrappers, pipes), without @valibot/to-json-schema or the generator's flattening.
 */

/** A parameter as a form sends it: its bracket name, whether it must be given, its allowed values. */
interface Expected {
  name: string;
  required: boolean;
  enum?: string[];
}

type Node = { type: string; wrapped?: Node; default?: unknown; pipe?: Node[]; entries?: Record<string, Node>; item?: Node; options?: unknown[] };

/** Top-level parameters of each operation: its schemas, and which it requires by its own check. */
const OPERATION_SCHEMAS: Record<string, { schema: v.GenericSchema; required?: string[] }> = {
  'Link/Create': { schema: v.object({ data: createSchema('short.example') }) },
  'Link/Delete': { schema: v.object({ ids: deleteIds }), required: ['ids'] },
  'Link/GetLinks': { schema: v.object({ campaignId: campaignIdSchema }) },
  'Link/GetStats': { schema: statsSchema('Europe/Moscow'), required: ['ids'] },
  'Link/List': { schema: linkListSchema('Europe/Moscow') },
  'Link/Update': { schema: v.object({ id: updateId, data: v.optional(updateSchema) }), required: ['id'] },
  'Message/GetSMSStatus': { schema: v.object({ ids: statusIds }), required: ['ids'] },
  'Message/List': { schema: messageListSchema('Europe/Moscow') },
  'Message/SendSmsMessage': { schema: v.object({ ...sendSchema.entries, params: v.optional(paramsSchema) }), required: ['recipient', 'text'] },
};

/** The schema's meaningful shape: through optional wrappers and to the last object, list or variant of a pipe. */
function shapeOf(schema: Node): Node {
  if (schema.wrapped) return shapeOf(schema.wrapped);
  if (schema.pipe) {
    // A pipe's first item is its root schema, itself a pipe when pipes are nested (`v.pipe(idList(…), …)`).
    const items = schema.pipe.map((item, index) => (index === 0 && item.pipe ? shapeOf(item) : item));
    const shaped = items.filter((item) => ['object', 'array', 'variant'].includes(item.type)).at(-1);
    return shaped ?? schema.pipe[0]!;
  }
  return schema;
}

/** An entry that may be left out: optional, and its default passes its own schema. */
function mayBeAbsent(entry: Node): boolean {
  if (!['optional', 'nullish', 'exact_optional'].includes(entry.type)) return false;
  return entry.default === undefined || v.safeParse(entry.wrapped as unknown as v.GenericSchema, entry.default).success;
}

function enumOf(schema: Node): string[] | undefined {
  const pipe = schema.wrapped ? [schema.wrapped, ...(schema.wrapped.pipe ?? [])] : [schema, ...(schema.pipe ?? [])];
  const picklist = pipe.find((item) => item.type === 'picklist');
  return picklist?.options?.map(String);
}

function expected(name: string, schema: Node, required: boolean): Expected[] {
  const shape = shapeOf(schema);
  if (shape.type === 'object') {
    return Object.entries(shape.entries!).flatMap(([field, entry]) => expected(`${name}[${field}]`, entry, required && !mayBeAbsent(entry)));
  }
  if (shape.type === 'array' && shape.item?.type === 'variant') {
    // sortOf: each `{field, direction}` alternative is one `sort[field]`.
    return (shape.item.options as Node[]).map((option) => ({
      name: `${name}[${(option.entries!.field as unknown as { literal: string }).literal}]`,
      required: false,
      enum: enumOf(option.entries!.direction!),
    }));
  }
  if (shape.type === 'array') return [{ name: `${name}[]`, required }];
  const values = enumOf(schema);
  return [{ name, required, ...(values ? { enum: values } : {}) }];
}

function expectedParameters(operation: string): Expected[] {
  const { schema, required = [] } = OPERATION_SCHEMAS[operation]!;
  const top = shapeOf(schema as unknown as Node);
  return Object.entries(top.entries!).flatMap(([name, entry]) => expected(name, entry, required.includes(name) || !mayBeAbsent(entry)));
}

/** What the document says, for GET (query parameters) and POST (form fields). */
function documented(document: OpenApiDocument, operation: string) {
  const path = document.paths[`/service/${operation}`]!;
  const get = (path.get!.parameters as Array<{ name: string; required: boolean; schema: { enum?: string[] }; $ref?: string }>).filter((p) => !p.$ref);
  const form = (path.post!.requestBody as any).content['application/x-www-form-urlencoded'].schema;
  const post = Object.entries(form.properties as Record<string, { enum?: string[] }>).map(([name, schema]) => ({
    name,
    required: (form.required as string[]).includes(name),
    schema,
  }));
  const shape = (list: Array<{ name: string; required: boolean; schema: { enum?: string[] } }>): Expected[] =>
    list.map(({ name, required, schema }) => ({ name, required, ...(schema.enum ? { enum: schema.enum } : {}) }));
  return { get: shape(get), post: shape(post) };
}

const byName = (list: Expected[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));

describe('the OpenAPI parameters', () => {
  const document = openApiDocument();

  it.each(Object.keys(OPERATION_SCHEMAS))('match the valibot schemas of %s, for GET and POST', (operation) => {
    // Prepare
    const want = byName(expectedParameters(operation));

    // Act
    const { get, post } = documented(document, operation);

    // Assess
    expect(want.length).toBeGreaterThan(0);
    expect(byName(get)).toEqual(want);
    expect(byName(post)).toEqual(want);
  });

  it('give Link/Get its three references, none required alone', () => {
    // Act
    const { get, post } = documented(document, 'Link/Get');

    // Assess
    for (const list of [get, post]) expect(byName(list)).toEqual(byName(['id', 'code', 'shortLink'].map((name) => ({ name, required: false }))));
  });

  it('describe every operation of the interface spec, and only those', () => {
    const described = Object.keys(document.paths).filter((path) => path.startsWith('/service/'));
    expect(described.sort()).toEqual([...Object.keys(OPERATION_SCHEMAS), 'Link/Get'].map((name) => `/service/${name}`).sort());
  });

  it('spell the parameters of the interface spec', () => {
    // Act
    const names = (operation: string) => documented(document, operation).post;
    const find = (operation: string, name: string) => names(operation).find((parameter) => parameter.name === name);

    // Assess
    expect(find('Link/Create', 'data[fullLink]')).toEqual({ name: 'data[fullLink]', required: true });
    expect(find('Link/Create', 'data[status]')).toEqual({ name: 'data[status]', required: false, enum: ['0', '1'] });
    expect(find('Link/List', 'criteria[status]')).toEqual({ name: 'criteria[status]', required: false, enum: ['0', '1'] });
    expect(find('Link/List', 'pagination[pageSize]')).toEqual({ name: 'pagination[pageSize]', required: false, enum: ['25', '50', '100'] });
    expect(find('Link/List', 'sort[createTs]')).toEqual({ name: 'sort[createTs]', required: false, enum: ['ASC', 'DESC'] });
    expect(find('Link/GetStats', 'type')).toEqual({ name: 'type', required: true, enum: ['monthly', 'daily', 'hourly', 'minute'] });
    expect(find('Link/GetStats', 'ids[]')).toEqual({ name: 'ids[]', required: true });
    expect(find('Link/Update', 'id')).toEqual({ name: 'id', required: true });
    expect(find('Message/List', 'criteria[status]')?.enum).toContain('DELIVRD');
    expect(find('Message/List', 'criteria[campaignStatus]')?.enum).toContain('NOT_YET_SENT');
    expect(find('Message/SendSmsMessage', 'params[shortenLinks]')).toEqual({ name: 'params[shortenLinks]', required: false, enum: ['0', '1'] });
    expect(
      names('Message/SendSmsMessage')
        .filter((parameter) => parameter.required)
        .map(({ name }) => name),
    ).toEqual(['recipient', 'text']);
    const statsIds = (document.paths['/service/Link/GetStats']!.get!.parameters as any[]).find((p) => p.name === 'ids[]');
    expect(statsIds).toMatchObject({ in: 'query', style: 'form', explode: true, schema: { type: 'array', maxItems: 5 } });
  });

  it('change with the schemas: a field added to Link/Create appears, and the comparison notices', () => {
    // Prepare: Link/Create reading one more field, as if data[campaign] were added to createSchema.
    const changed: OperationDoc[] = OPERATION_DOCS.map((operation) =>
      operation.module === 'Link' && operation.method === 'Create'
        ? { ...operation, parameters: v.object({ data: v.object({ ...createSchema('short.example').entries, campaign: v.picklist(['a', 'b']) }) }) }
        : operation,
    );

    // Act
    const document = openApiDocument({ operations: changed });

    // Assess
    const { get, post } = documented(document, 'Link/Create');
    expect(post).toContainEqual({ name: 'data[campaign]', required: true, enum: ['a', 'b'] });
    expect(get).toContainEqual({ name: 'data[campaign]', required: true, enum: ['a', 'b'] });
    expect(byName(post)).not.toEqual(byName(expectedParameters('Link/Create')));
  });

  it('change with the schemas: a required field made optional is no longer required', () => {
    // Prepare
    const changed: OperationDoc[] = OPERATION_DOCS.map((operation) =>
      operation.module === 'Link' && operation.method === 'Create'
        ? { ...operation, parameters: v.object({ data: v.partial(createSchema('short.example')) }) }
        : operation,
    );

    // Act
    const { post } = documented(openApiDocument({ operations: changed }), 'Link/Create');

    // Assess
    expect(post.find(({ name }) => name === 'data[fullLink]')).toEqual({ name: 'data[fullLink]', required: false });
  });
});
