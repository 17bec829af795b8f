/**
 * Audits an OpenAPI document for loose typing: what a client generator would turn into `any`,
 * `object` or a wrong scalar. Pure (no server): `auditOpenApi(doc)` lists every finding, each as
 * `<kind> <where>`, where `<where>` is a JSON pointer into the document (`#/components/schemas/X/properties/y`)
 * or an operation (`GET /api/2.0/guides/{guideid} 200`).
 *
 * The kinds:
 * - `shapeless`: an object schema with no properties, no typed values (`additionalProperties`
 *   a schema) and no branches, not closed empty either: a client sees `object`.
 * - `open-values`: `additionalProperties: true` or `{}`: a map whose values have no type.
 * - `any-value`: a schema with no type, no `$ref`, no branches, no enum: any JSON value.
 * - `untyped-array`: an array without `items`.
 * - `string-id`: a property named `id` or `…id` typed as a string (this API's ids are integers).
 * - `no-body`: a 2xx response other than 204 with no content at all.
 * - `no-schema`: a response's JSON content with no schema.
 * - `unfit-example`: an error example that cannot be what the route answers: a 400 naming a
 *   parameter the route does not take (`Parameter 'order' …` on a route without `order`), a 422
 *   whose violations name a field that is neither in the route's JSON body (it has none) nor one of
 *   its parameters, or a 413 quoting the JSON body limit on a route whose body is not JSON.
 */

export interface OpenApiSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, OpenApiSchema>;
  additionalProperties?: boolean | OpenApiSchema;
  maxProperties?: number;
  items?: OpenApiSchema;
  oneOf?: OpenApiSchema[];
  anyOf?: OpenApiSchema[];
  allOf?: OpenApiSchema[];
  not?: OpenApiSchema;
  nullable?: boolean;
}

interface Media {
  schema?: OpenApiSchema;
  example?: unknown;
}
interface ErrorExample {
  message?: string;
  errors?: { field?: string }[];
}
interface OpenApiOperation {
  parameters?: { name?: string; in?: string; $ref?: string; schema?: OpenApiSchema }[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, OpenApiSchema> };
}

export type FindingKind = 'shapeless' | 'open-values' | 'any-value' | 'untyped-array' | 'string-id' | 'number-id' | 'no-body' | 'no-schema' | 'unfit-example';

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** The findings of one schema and every schema inline in it (a `$ref` is audited where it is defined). */
function auditSchema(schema: OpenApiSchema, at: string, name?: string): string[] {
  if (schema.$ref) return [];
  const found: string[] = [];
  const branches = [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])];
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const values = schema.additionalProperties;
  const typedValues = typeof values === 'object' && Object.keys(values).length > 0;
  if (types.includes('object') && !Object.keys(schema.properties ?? {}).length && !branches.length && !typedValues && values !== false && schema.maxProperties !== 0) {
    found.push(`${values === true || (typeof values === 'object' && !typedValues) ? 'open-values' : 'shapeless'} ${at}`);
  } else if (values === true || (typeof values === 'object' && !typedValues)) found.push(`open-values ${at}`);
  if (!types.length && !branches.length && !schema.enum && schema.const === undefined && !schema.properties && !schema.not) found.push(`any-value ${at}`);
  if (types.includes('array') && !schema.items) found.push(`untyped-array ${at}`);
  if (name !== undefined && /id$/i.test(name) && types.includes('string') && !schema.enum) found.push(`string-id ${at}`);
  if (name !== undefined && /id$/i.test(name) && types.includes('number')) found.push(`number-id ${at}`);
  branches.forEach((branch, i) => found.push(...auditSchema(branch, `${at}/${schema.oneOf ? 'oneOf' : schema.anyOf ? 'anyOf' : 'allOf'}/${i}`)));
  for (const [prop, s] of Object.entries(schema.properties ?? {})) found.push(...auditSchema(s, `${at}/properties/${prop}`, prop));
  if (typedValues) found.push(...auditSchema(values, `${at}/additionalProperties`));
  if (schema.items) found.push(...auditSchema(schema.items, `${at}/items`));
  return found;
}

/** The error examples of an operation that cannot be what it answers (see `unfit-example`). */
function unfitExamples(op: OpenApiOperation, where: string): string[] {
  const params = new Set((op.parameters ?? []).flatMap((p) => (p.name ? [p.name] : [])));
  const jsonBody = !!op.requestBody?.content?.['application/json'];
  const found: string[] = [];
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    const example = response.content?.['application/json']?.example as ErrorExample | undefined;
    if (!example) continue;
    const named = /^Parameters? '([^']+)'/.exec(example.message ?? '')?.[1];
    if (status === '400' && named !== undefined && !params.has(named)) found.push(`unfit-example ${where} 400 names '${named}'`);
    if (status === '422' && !jsonBody) {
      for (const field of (example.errors ?? []).map((e) => e.field ?? '')) if (!params.has(field)) found.push(`unfit-example ${where} 422 names '${field}'`);
    }
    if (status === '413' && !jsonBody && /1 MiB/.test(example.message ?? '')) found.push(`unfit-example ${where} 413 quotes the JSON limit`);
  }
  return found;
}

/** Every finding of the document, components first, then each operation's inline schemas and responses. */
export function auditOpenApi(doc: OpenApiDocument): string[] {
  const found = Object.entries(doc.components?.schemas ?? {}).flatMap(([name, schema]) => auditSchema(schema, `#/components/schemas/${name}`));
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!HTTP_METHODS.has(method)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) if (p.schema) found.push(...auditSchema(p.schema, `${where} ${p.in} ${p.name}`, p.name));
      found.push(...unfitExamples(op, where));
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        if (media.schema) found.push(...auditSchema(media.schema, `${where} body ${type}`));
        else if (type === 'application/json') found.push(`no-schema ${where} body`);
      }
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (status.startsWith('2') && status !== '204' && !response.content) found.push(`no-body ${where} ${status}`);
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (media.schema) found.push(...auditSchema(media.schema, `${where} ${status} ${type}`));
          else if (type === 'application/json') found.push(`no-schema ${where} ${status}`);
        }
      }
    }
  }
  return found;
}
