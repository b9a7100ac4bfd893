import { type ConversionConfig, type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';

/**
 * Valibot schemas to JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) with
 * @valibot/to-json-schema, and request schemas to the bracket parameters clients send.
 *
 * The request schemas read what arrives from a form: every value is a string, then trimmed,
 * checked and transformed. The conversion follows the whole pipe (typeMode 'ignore') and
 * keeps what describes the wire: the string type, enums, patterns and the messages of the
 * checks, which state each rule in words. Transforms and checks have no JSON Schema form and
 * are skipped (errorMode 'ignore').
 */

export type { JsonSchema };

/** Actions whose message states a rule a client should know (the UTF-8 check goes without saying). */
const STATED_RULES = ['check', 'min_value', 'max_value'];

const WIRE: ConversionConfig = {
  target: 'draft-2020-12',
  typeMode: 'ignore',
  errorMode: 'ignore',
  overrideSchema: ({ valibotSchema, jsonSchema }) => {
    const schema = valibotSchema as v.GenericSchema & Record<string, unknown>;
    // A picklist of numbers is read from text (pagination[pageSize]): on the wire it is a string.
    if (schema.type === 'picklist') return { type: 'string', enum: (schema.options as unknown[]).map(String) };
    // fields(): a bracket group such as `criteria[...]`; what it holds follows in its pipe.
    if (schema.type === 'custom') return {};
    if (schema.type === 'object') return objectWithEffectiveRequired(schema as unknown as v.ObjectSchema<v.ObjectEntries, undefined>, jsonSchema);
    return undefined;
  },
  overrideAction: ({ valibotAction, jsonSchema }) => {
    const action = valibotAction as { type: string; message?: unknown };
    if (!STATED_RULES.includes(action.type) || typeof action.message !== 'string' || action.message.includes('UTF-8')) return undefined;
    const rule = `${action.message}.`;
    if (jsonSchema.description?.includes(rule)) return undefined;
    return { ...jsonSchema, description: [jsonSchema.description, rule].filter(Boolean).join(' ') };
  },
};

/** Answers are built by the service, not read from text: converted as they are, strictly. */
const ANSWER: ConversionConfig = { target: 'draft-2020-12', errorMode: 'throw' };

/**
 * `schema` as JSON Schema, without the `$schema` keyword (the document states its dialect
 * once): as a request reads it from a form (`wire`), or as an answer carries it.
 */
export function jsonSchemaOf(schema: v.GenericSchema, as: 'wire' | 'answer' = 'wire'): JsonSchema {
  const { $schema: _dialect, ...json } = toJsonSchema(schema, as === 'wire' ? WIRE : ANSWER);
  return json;
}

/**
 * An optional entry whose default its own schema refuses is required in effect: Link/GetStats'
 * `type` defaults to '' so that leaving it out is refused like any other wrong value.
 */
function objectWithEffectiveRequired(schema: v.ObjectSchema<v.ObjectEntries, undefined>, json: JsonSchema): JsonSchema {
  const required = Object.entries(schema.entries)
    .filter(([, entry]) => !isOptional(entry) || defaultIsRefused(entry))
    .map(([name]) => name);
  const properties = Object.fromEntries(
    Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => {
      const entry = schema.entries[name];
      if (!entry || !defaultIsRefused(entry) || typeof property !== 'object') return [name, property];
      const { default: _refused, ...rest } = property;
      return [name, rest];
    }),
  );
  return { ...json, properties, required };
}

type Wrapper = v.GenericSchema & { type: string; wrapped?: v.GenericSchema; default?: unknown };

function isOptional(entry: v.GenericSchema): boolean {
  return ['optional', 'exact_optional', 'nullish'].includes((entry as Wrapper).type);
}

function defaultIsRefused(entry: v.GenericSchema): boolean {
  const { wrapped, default: fallback } = entry as Wrapper;
  if (!isOptional(entry) || !wrapped || fallback === undefined) return false;
  const value = typeof fallback === 'function' ? (fallback as () => unknown)() : fallback;
  return !v.safeParse(wrapped, value).success;
}

/** One request parameter as a form names it: `data[fullLink]`, `ids[]`, `sort[createTs]`. */
export interface BracketParameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/**
 * The bracket parameters of a request schema (a valibot object of the top-level parameters):
 * objects open into `name[field]`, lists become `name[]`, and sort pairs (sortOf, which reads
 * `sort[field]=ASC` into `{field, direction}` pairs) become one `sort[field]` per field.
 */
export function bracketParameters(schema: v.GenericSchema): BracketParameter[] {
  const json = jsonSchemaOf(schema);
  return Object.entries(propertiesOf(json)).flatMap(([name, property]) => flatten(name, property, requiredOf(json).includes(name)));
}

function flatten(name: string, json: JsonSchema, required: boolean): BracketParameter[] {
  const pairs = sortPairsOf(json);
  if (pairs) return pairs.map(([field, direction]) => ({ name: `${name}[${field}]`, required: false, schema: direction }));
  if (json.type === 'object' && json.properties) {
    return Object.entries(propertiesOf(json)).flatMap(([field, property]) =>
      flatten(`${name}[${field}]`, property, required && requiredOf(json).includes(field)),
    );
  }
  if (json.type === 'array') {
    const description = [json.description, `A list: \`${name}[]=1&${name}[]=2\`, or one value separated by commas: \`${name}=1,2\`.`];
    return [{ name: `${name}[]`, required, schema: { ...withoutGroupDefault(json), description: description.filter(Boolean).join(' ') } }];
  }
  return [{ name, required, schema: withoutGroupDefault(json) }];
}

/** `[field, direction schema]` of an array of `{field: const, direction}` alternatives. */
function sortPairsOf(json: JsonSchema): [string, JsonSchema][] | undefined {
  const items = json.type === 'array' && typeof json.items === 'object' && !Array.isArray(json.items) ? json.items : undefined;
  const options = items?.oneOf as JsonSchema[] | undefined;
  if (!options?.length) return undefined;
  const pairs = options.map((option) => {
    const { field, direction } = propertiesOf(option);
    return [field?.const, direction] as const;
  });
  if (!pairs.every(([field, direction]) => typeof field === 'string' && direction)) return undefined;
  return pairs as [string, JsonSchema][];
}

function propertiesOf(json: JsonSchema): Record<string, JsonSchema> {
  return (json.properties ?? {}) as Record<string, JsonSchema>;
}

function requiredOf(json: JsonSchema): string[] {
  return json.required ?? [];
}

/** A list's or group's `{}` / '' default says "nothing chosen": no value to show a client. */
function withoutGroupDefault(json: JsonSchema): JsonSchema {
  if (json.default === undefined || (typeof json.default !== 'object' && json.default !== '')) return json;
  const { default: _none, ...rest } = json;
  return rest;
}
