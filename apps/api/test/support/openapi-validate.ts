import { Ajv2020 } from 'ajv/dist/2020.js';

type Node = Record<string, unknown>;

/**
 * An OpenAPI 3.0 schema as JSON Schema 2020-12: `nullable` becomes a `null` type (or a `null`
 * branch beside a `$ref` or a combinator), `example` is dropped. `closed`: an object with declared
 * properties and no `additionalProperties` takes no others (a property the document does not name
 * is a departure).
 */
function toJsonSchema(node: unknown, closed = false): unknown {
  if (Array.isArray(node)) return node.map((n) => toJsonSchema(n, closed));
  if (!node || typeof node !== 'object') return node;
  const source = node as Node;
  const out: Node = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'example' || key === 'nullable') continue;
    // Under `properties` (and `schemas`) the keys are names, not keywords.
    out[key] = key === 'properties' || key === 'schemas' ? Object.fromEntries(Object.entries(value as Node).map(([name, s]) => [name, toJsonSchema(s, closed)])) : toJsonSchema(value, closed);
  }
  if (closed && out['properties'] && out['additionalProperties'] === undefined) out['additionalProperties'] = false;
  if (source['nullable'] !== true) return out;
  if (typeof out['type'] === 'string' && !out['$ref'] && !out['allOf'] && !out['oneOf'] && !out['anyOf']) {
    out['type'] = [out['type'], 'null'];
    if (Array.isArray(out['enum']) && !out['enum'].includes(null)) out['enum'] = [...out['enum'], null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

/**
 * Checks bodies against the schemas of an OpenAPI document (its `#/components/schemas` references
 * resolved): `check(schema, body)` lists the body's departures from the schema (empty when it fits).
 * By default objects are closed: a body may hold no property its schema does not document. Formats
 * are not checked (`binary` has no JSON meaning; URLs of the test server are `localhost`).
 */
export function openApiValidator(doc: { components?: unknown }, { closed = true } = {}): (schema: unknown, body: unknown) => string[] {
  const components = toJsonSchema(doc.components, closed);
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (schema, body) => {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = ajv.compile({ ...(toJsonSchema(schema, closed) as Node), components })));
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`);
  };
}
