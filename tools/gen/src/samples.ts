/**
 * A valid sample of a schema of a spec, read from the schema alone: the fake node's answer to an
 * operation it has no handler for yet, and the validators' fixture of a schema no test wrote one for.
 * Small on purpose: required properties only, the fewest items, the lowest number allowed, the first
 * enum value or union branch, the schema's own `example` where it gives one.
 */
import { resolveRef, type OpenApiDocument, type ResponseObject, type SchemaObject } from './specs.ts';

/** Strings tried in order against a `pattern`; a pattern none of them matches needs an `example` in the spec. */
const PATTERN_CANDIDATES = [
  '0x1',
  '0x01',
  '1',
  `0x${'0'.repeat(63)}1`,
  '0x1::coin::CoinStore',
  'coin',
  'btc_usdt',
  '2024-11-19 11:14:53',
  'bool',
  'a',
  '0x',
  '',
];

const FORMATS: Readonly<Record<string, string>> = {
  'date-time': '2024-11-19T11:14:53Z',
  date: '2024-11-19',
  uri: 'https://example.com/',
  url: 'https://example.com/',
};

/** The schemas a sample may not recurse through more deeply than this (a required cycle has no finite sample). */
const MAX_DEPTH = 40;

const isObject = (v: unknown): v is SchemaObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const typesOf = (s: SchemaObject): string[] => (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : []);
const onlyNull = (doc: OpenApiDocument, s: unknown): boolean => {
  const r = isObject(s) ? resolveRef<SchemaObject>(doc, s) : undefined;
  return r !== undefined && typesOf(r).length === 1 && typesOf(r)[0] === 'null';
};

/**
 * A value `schema` accepts, in the spec `doc` (its `$ref`s resolved there).
 *
 * @param at - where the schema is, for the error thrown when no sample can be made (a pattern none of
 *   the candidates matches: give the schema an `example`).
 * @example
 * ```ts
 * sampleOf(doc, { type: 'object', required: ['height'], properties: { height: { type: 'integer', minimum: 1 } } }); // { height: 1 }
 * ```
 */
export function sampleOf(doc: OpenApiDocument, schema: unknown, at = 'schema', depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new Error(`${at}: no finite sample (a required property cycle?)`);
  if (!isObject(schema)) return {};
  const s = resolveRef<SchemaObject>(doc, schema);
  const next = (sub: unknown, where: string) => sampleOf(doc, sub, where, depth + 1);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (Array.isArray(s.allOf)) {
    // Each branch's sample, objects merged: allOf in these specs extends a record with more properties.
    const parts = s.allOf.map((b, i) => next(b, `${at}/allOf/${i}`));
    const own = Object.keys(s).some((k) => k === 'type' || k === 'properties') ? [next({ ...s, allOf: undefined }, at)] : [];
    return [...parts, ...own].reduce((a, b) => (isObject(a) && isObject(b) ? { ...a, ...b } : b));
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = s[key];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    // The first branch that is not `null` alone: a sample says what the answer holds when it holds something.
    const i = Math.max(0, branches.findIndex((b) => !onlyNull(doc, b)));
    const value = next(branches[i], `${at}/${key}/${i}`);
    const rest = { ...s, [key]: undefined };
    return isObject(value) && isObject(rest.properties) ? { ...(next(rest, at) as object), ...value } : value;
  }
  const types = typesOf(s);
  const type = types.find((t) => t !== 'null') ?? types[0] ?? (isObject(s.properties) ? 'object' : s.items !== undefined || s.prefixItems !== undefined ? 'array' : undefined);
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return numberOf(s);
    case 'string':
      return stringOf(s, at);
    case 'array': {
      const prefix = Array.isArray(s.prefixItems) ? s.prefixItems.map((p, i) => next(p, `${at}/prefixItems/${i}`)) : [];
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      const more = Math.max(0, min - prefix.length);
      return more === 0 ? prefix : [...prefix, ...Array.from({ length: more }, (_, i) => next(s.items, `${at}/items/${i}`))];
    }
    case 'object': {
      const props = isObject(s.properties) ? s.properties : {};
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      const value: Record<string, unknown> = {};
      for (const name of required) {
        const sub = props[name] ?? (isObject(s.additionalProperties) ? s.additionalProperties : {});
        value[name] = next(sub, `${at}/properties/${name}`);
      }
      return value;
    }
    default:
      // `{}`: any value; an empty object is one.
      return {};
  }
}

function numberOf(s: SchemaObject): number {
  let n = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 0;
  if (typeof s.maximum === 'number' && n > s.maximum) n = s.maximum;
  if (typeof s.exclusiveMaximum === 'number' && n >= s.exclusiveMaximum) n = s.exclusiveMaximum - 1;
  if (s.type === 'integer' || (Array.isArray(s.type) && s.type.includes('integer'))) n = Math.ceil(n);
  return n;
}

function stringOf(s: SchemaObject, at: string): string {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  const fits = (c: string) => c.length >= min && c.length <= max;
  if (typeof s.pattern === 'string') {
    const re = new RegExp(s.pattern, 'u');
    const found = PATTERN_CANDIDATES.find((c) => fits(c) && re.test(c));
    if (found === undefined) throw new Error(`${at}: no sample string matches the pattern ${s.pattern}; give the schema an \`example\``);
    return found;
  }
  const format = typeof s.format === 'string' ? FORMATS[s.format] : undefined;
  if (format !== undefined) return format;
  return 'a'.repeat(Math.max(1, min));
}

/** The JSON schema of an operation's 200 answer, if it has one. */
export function okSchema(doc: OpenApiDocument, responses: Record<string, ResponseObject | { $ref: string }>): SchemaObject | undefined {
  const ok = responses['200'];
  if (ok === undefined) return undefined;
  return resolveRef<ResponseObject>(doc, ok).content?.['application/json']?.schema;
}
