import type { JsonSchemaDef } from '../compiled.js';
import { JSON_SCHEMA_TARGETS, unknownTarget } from './targets.js';

type Json = Record<string, unknown>;

const DEFS = '#/$defs/';

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every definition a schema reaches through its `$ref`s (itself only if it refers to itself), by name. */
function reachable(root: JsonSchemaDef): Map<string, JsonSchemaDef> {
  const out = new Map<string, JsonSchemaDef>();
  const stack = [...root.refs()];
  while (stack.length > 0) {
    const def = stack.pop()!;
    if (out.has(def.name)) continue;
    out.set(def.name, def);
    stack.push(...def.refs());
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Keywords whose value is one subschema, an array of them, or a map of names to them (2020-12). */
const SINGLE = ['items', 'additionalProperties', 'propertyNames', 'contains', 'not', 'if', 'then', 'else', 'additionalItems'];
const ARRAY = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];
const MAP = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];

/**
 * A deep copy of a schema, each subschema (bottom-up) passed through `fn`; data keywords (`enum`,
 * `const`, `examples`, `default`) are copied as they are. The input is never modified.
 */
function mapSchema(schema: unknown, fn: (s: Json) => Json): unknown {
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (SINGLE.includes(k)) out[k] = mapSchema(v, fn);
    else if (ARRAY.includes(k) && Array.isArray(v)) out[k] = v.map((s) => mapSchema(s, fn));
    else if (MAP.includes(k) && isObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, mapSchema(s, fn)]));
    else out[k] = copy(v);
  }
  return fn(out);
}

function copy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(copy);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)]));
  return v;
}

/**
 * The JSON Schema of a definition for a target, a new object on every call:
 *
 * - `draft-2020-12`: the schema as generated, with `$schema` and the definitions it reaches in `$defs`;
 * - `draft-07`: the same in draft-07's words (`definitions`, `items` arrays and `additionalItems` for
 *   `prefixItems`, a `$ref` with other keywords wrapped in `allOf`, as draft-07 ignores them);
 * - `openapi-3.0`: an OpenAPI 3.0 Schema Object: references inlined, `nullable`, `enum` for `const`,
 *   `example` for `examples`. It throws where OpenAPI 3.0 cannot say what the schema says: a recursive
 *   schema (a Schema Object has no definitions of its own) or a tuple (`prefixItems`).
 *
 * Any other target throws an Error naming it.
 */
export function jsonSchemaFor(def: JsonSchemaDef, target: unknown, subject: string): Json {
  const defs = reachable(def);
  switch (target) {
    case 'draft-2020-12': {
      const out: Json = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...(copy(def.schema) as Json) };
      if (defs.size > 0) out.$defs = Object.fromEntries([...defs].map(([n, d]) => [n, copy(d.schema)]));
      return out;
    }
    case 'draft-07': {
      const convert = (s: unknown, where: string) => mapSchema(s, (node) => toDraft07(node, where));
      const out: Json = { $schema: 'http://json-schema.org/draft-07/schema#', ...(convert(def.schema, subject) as Json) };
      if (defs.size > 0) out.definitions = Object.fromEntries([...defs].map(([n, d]) => [n, convert(d.schema, `${subject} (${n})`)]));
      return out;
    }
    case 'openapi-3.0':
      return toOpenApi30(def, subject);
    default:
      throw unknownTarget(subject, target);
  }
}

/** 2020-12 keywords draft-07 has no words for (the specs use none of them today). */
const NOT_IN_DRAFT_07 = ['$dynamicRef', '$dynamicAnchor', '$anchor', 'unevaluatedProperties', 'unevaluatedItems', 'minContains', 'maxContains', 'contentSchema', 'dependentSchemas', 'dependentRequired'];

function unsupported(target: string, where: string, what: string): Error {
  const others = JSON_SCHEMA_TARGETS.filter((t) => t !== target && t !== 'openapi-3.0').map((t) => `"${t}"`);
  return new Error(`${where}: JSON Schema target "${target}" cannot express ${what}; use target ${others.join(' or ')}`);
}

function toDraft07(s: Json, where: string): Json {
  const bad = NOT_IN_DRAFT_07.find((k) => k in s);
  if (bad) throw unsupported('draft-07', where, `the keyword ${bad}`);
  let out = s;
  if (Array.isArray(out.prefixItems)) {
    const { prefixItems, items, ...rest } = out;
    out = { ...rest, items: prefixItems, ...(items === undefined ? {} : { additionalItems: items }) };
  }
  if (typeof out.$ref === 'string') {
    const { $ref, ...rest } = out;
    const ref = $ref.startsWith(DEFS) ? `#/definitions/${$ref.slice(DEFS.length)}` : $ref;
    // draft-07 ignores every keyword next to $ref
    out = Object.keys(rest).length === 0 ? { $ref: ref } : { ...rest, allOf: [{ $ref: ref }, ...(Array.isArray(rest.allOf) ? rest.allOf : [])] };
  }
  return out;
}

/** The keywords of an OpenAPI 3.0 Schema Object (besides `$ref`, which is inlined here). */
const OPENAPI_30 = new Set([
  'title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'example', 'format', 'type', 'nullable',
  'enum', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'properties',
  'additionalProperties', 'items', 'allOf', 'anyOf', 'oneOf', 'not',
]);

/** Only `null`, in OpenAPI 3.0's words (it has no type `null`: a nullable type whose only value is null). */
const NULL_ONLY: Json = { type: 'string', nullable: true, enum: [null] };

/** Keywords that never make a value invalid. */
const ANNOTATION = new Set(['title', 'description', 'deprecated', 'default', 'readOnly', 'writeOnly', 'examples', 'example', '$comment']);

/** `{ type: 'null' }`, or what `toOpenApi30Node` made of it already (children are converted first). */
function isNullSchema(s: unknown): boolean {
  if (!isObject(s)) return false;
  const only = (keys: string[]) => Object.keys(s).every((k) => keys.includes(k) || ANNOTATION.has(k));
  if (s.type === 'null') return only(['type']);
  return s.nullable === true && Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null && only(['type', 'nullable', 'enum']);
}

function toOpenApi30(def: JsonSchemaDef, subject: string): Json {
  const byName = reachable(def);
  const expanding: string[] = [def.name];
  const convert = (schema: unknown, where: string): unknown =>
    mapSchema(schema, (node) => {
      let s = node;
      if (typeof s.$ref === 'string') {
        const name = s.$ref.slice(DEFS.length);
        const target = byName.get(name);
        if (!s.$ref.startsWith(DEFS) || !target) throw unsupported('openapi-3.0', where, `the reference ${s.$ref}`);
        if (expanding.includes(name)) {
          throw unsupported('openapi-3.0', where, `the recursive schema ${name} (an OpenAPI 3.0 Schema Object has no definitions to refer to)`);
        }
        expanding.push(name);
        const body = convert(target.schema, `${subject}, in ${name}`) as Json;
        expanding.pop();
        // The reference inlined: annotations next to it win over the target's; assertions stay apart.
        const { $ref: _ref, ...rest } = s;
        const annotations = Object.keys(rest).every((k) => ANNOTATION.has(k));
        s = annotations ? { ...body, ...rest } : { ...rest, allOf: [body] };
      }
      return toOpenApi30Node(s, where);
    });
  return convert(def.schema, subject) as Json;
}

function toOpenApi30Node(node: Json, where: string): Json {
  if (Array.isArray(node.prefixItems)) throw unsupported('openapi-3.0', where, 'a tuple (prefixItems)');
  const { $comment: _comment, ...copied } = node;
  let s: Json = copied;
  if ('const' in s) {
    const { const: value, ...rest } = s;
    s = { ...rest, enum: [value] };
  }
  if (Array.isArray(s.examples)) {
    const { examples, ...rest } = s;
    s = examples.length > 0 && !('example' in rest) ? { ...rest, example: examples[0] } : rest;
  }
  for (const k of ['exclusiveMinimum', 'exclusiveMaximum'] as const) {
    const limit = s[k];
    if (typeof limit !== 'number') continue;
    const bound = k === 'exclusiveMinimum' ? 'minimum' : 'maximum';
    const other = s[bound];
    const tighter = typeof other !== 'number' || (k === 'exclusiveMinimum' ? limit >= other : limit <= other);
    const { [k]: _x, ...rest } = s;
    s = tighter ? { ...rest, [bound]: limit, [k]: true } : rest;
  }
  if (Array.isArray(s.required) && s.required.length === 0) {
    const { required: _r, ...rest } = s;
    s = rest;
  }
  if (s.items === true) s = { ...s, items: {} };
  else if (s.items === false) throw unsupported('openapi-3.0', where, 'items: false');
  if (Array.isArray(s.type)) s = typeUnion(s);
  else if (s.type === 'null') s = { ...NULL_ONLY, ...withoutType(s) };
  if (Array.isArray(s.anyOf) && s.anyOf.length === 2 && s.anyOf.some(isNullSchema)) s = nullableUnion(s);
  const bad = Object.keys(s).find((k) => !OPENAPI_30.has(k));
  if (bad !== undefined) throw unsupported('openapi-3.0', where, `the keyword ${bad}`);
  return s;
}

function withoutType(s: Json): Json {
  const { type: _t, ...rest } = s;
  return rest;
}

/** `type: [X, 'null']` as `type: X, nullable: true`; several types as an `anyOf` of them. */
function typeUnion(s: Json): Json {
  const types = (s.type as unknown[]).filter((t) => t !== 'null');
  const nullable = types.length < (s.type as unknown[]).length;
  const rest = withoutType(s);
  const withNull = nullable && Array.isArray(rest.enum) && !rest.enum.includes(null) ? { ...rest, enum: [...rest.enum, null] } : rest;
  if (types.length === 0) return { ...NULL_ONLY, ...rest };
  if (types.length === 1) return { ...withNull, type: types[0], ...(nullable ? { nullable: true } : {}) };
  const union = types.map((t) => ({ type: t }));
  const anyOf = nullable ? [...union, NULL_ONLY] : union;
  return 'anyOf' in withNull ? { ...withNull, allOf: [{ anyOf }, ...(Array.isArray(withNull.allOf) ? withNull.allOf : [])] } : { ...withNull, anyOf };
}

/**
 * `anyOf [X, null]`: X with `nullable: true` where X states its `type` and nothing else applies to
 * null (no combinator), which is exactly what OpenAPI 3.0.3 says `nullable` means; else an `anyOf` of
 * X and a schema of only null.
 */
function nullableUnion(s: Json): Json {
  const branches = s.anyOf as unknown[];
  const other = branches.find((b) => !isNullSchema(b)) as Json | undefined;
  const { anyOf: _a, ...outer } = s;
  if (other === undefined) return { ...outer, ...NULL_ONLY };
  const plain = typeof other.type === 'string' && !['allOf', 'anyOf', 'oneOf', 'not'].some((k) => k in other) && !other.nullable;
  const clash = Object.keys(outer).some((k) => k in other && !ANNOTATION.has(k));
  if (plain && !clash) {
    const enumWithNull = Array.isArray(other.enum) ? { enum: [...other.enum, null] } : {};
    return { ...other, ...outer, ...enumWithNull, nullable: true };
  }
  return { ...outer, anyOf: branches.map((b) => (isNullSchema(b) ? NULL_ONLY : b)) };
}
