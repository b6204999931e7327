/** A JSON Schema object as the generator handles it: plain JSON. */
export type Schema = { [keyword: string]: unknown };

/** Keywords whose value is one subschema (JSON Schema 2020-12). */
const SINGLE = [
  'items',
  'additionalProperties',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
  // the generator's own applicator (transform.ts: NULL_OR)
  'nullOr',
] as const;
/** Keywords whose value is an array of subschemas. */
const ARRAY = [
  'prefixItems',
  'allOf',
  'anyOf',
  'oneOf',
  // the generator's own applicator (transform.ts: LIVE_FORMS)
  'liveForms',
] as const;
/** Keywords whose value maps names to subschemas. */
const MAP = [
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  // the generator's own applicator (transform.ts: TAGGED_FORMS)
  'taggedForms',
] as const;

/** Keywords that only annotate: they never make a value invalid. */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  'title',
  'description',
  '$comment',
  'examples',
  'example',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

export function isSchemaObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Rebuilds a schema bottom-up: subschemas are mapped first, then `fn` sees the schema with its
 * subschemas already replaced. Values of data keywords (`enum`, `const`, `default`, `examples`) are
 * copied as they are. The input is never modified.
 */
export function mapSchema(schema: unknown, fn: (s: Schema) => Schema): unknown {
  if (!isSchemaObject(schema)) return schema; // `true` / `false`
  const out: Schema = { ...schema };
  for (const k of SINGLE) if (k in out) out[k] = mapSchema(out[k], fn);
  for (const k of ARRAY) {
    const v = out[k];
    if (Array.isArray(v)) out[k] = v.map((s) => mapSchema(s, fn));
  }
  for (const k of MAP) {
    const v = out[k];
    if (isSchemaObject(v)) {
      const m: Schema = {};
      for (const [name, s] of Object.entries(v)) m[name] = mapSchema(s, fn);
      out[k] = m;
    }
  }
  return fn(out);
}
