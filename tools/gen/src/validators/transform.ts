import type { Schema } from './walk.ts';
import { ANNOTATIONS, isSchemaObject, mapSchema } from './walk.ts';

/** Name of the custom keyword that replaces a detected keyed union (see `keywords.ts`). */
export const KEYED_UNION = 'keyedUnion';
/** Name of the custom keyword that flags integers JSON.parse may have rounded (see `keywords.ts`). */
export const UNSAFE_INTEGER = 'unsafeInteger';

/** Value of the `keyedUnion` keyword: the allowed string forms and the keys of the object forms. */
export type KeyedUnionSpec = { strings: string[]; keys: string[] };

/** The two validation profiles. */
export type Profile = 'lenient' | 'strict';

/** Integer formats whose range goes beyond Number.MAX_SAFE_INTEGER. */
const WIDE_INTEGER_FORMATS = new Set(['uint64', 'int64']);

/** Keywords next to `properties` that make `additionalProperties: false` wrong (properties defined elsewhere). */
const COMPOSING = ['allOf', 'anyOf', 'oneOf', '$ref', '$dynamicRef', 'if', 'dependentSchemas', 'patternProperties'];

function annotationsOf(s: Schema, except: string): Schema | undefined {
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === except) continue;
    if (!ANNOTATIONS.has(k)) return undefined; // an assertion next to the combinator: leave the schema alone
    out[k] = v;
  }
  return out;
}

function assertionKeys(s: Schema): string[] {
  return Object.keys(s)
    .filter((k) => !ANNOTATIONS.has(k))
    .sort();
}

function sameKeys(actual: string[], expected: string[]): boolean {
  return actual.length === expected.length && actual.every((k, i) => k === expected[i]);
}

/**
 * Detects an exclusive keyed union: a `oneOf` whose branches are either strings limited by `const` or
 * `enum`, or closed objects with exactly one required key (`type: object`, `required: [k]`,
 * `properties: {k}`, `additionalProperties: false`), with no other assertion and at least one object
 * branch. Keys and strings must be pairwise distinct, so at most one branch can match any value and
 * the union accepts exactly what the `oneOf` accepts:
 *
 * - a string iff it is one of the string forms;
 * - an object (not an array) iff it has exactly one own key, that key is one of the object forms, and
 *   the key's value is valid against that form's property schema;
 * - nothing else.
 *
 * Returns the string forms, and the property schema of every object form by key; `undefined` when the
 * schema is not such a union.
 */
export function detectKeyedUnion(s: Schema): { spec: KeyedUnionSpec; properties: Schema } | undefined {
  const branches = s.oneOf;
  if (!Array.isArray(branches) || branches.length < 2) return undefined;
  if (annotationsOf(s, 'oneOf') === undefined) return undefined;
  const strings: string[] = [];
  const keys: string[] = [];
  const properties: Schema = {};
  for (const b of branches) {
    if (!isSchemaObject(b)) return undefined;
    const assertions = assertionKeys(b);
    if (b.type === 'string') {
      let values: unknown[];
      if (sameKeys(assertions, ['const', 'type'])) values = [b.const];
      else if (sameKeys(assertions, ['enum', 'type']) && Array.isArray(b.enum)) values = b.enum;
      else return undefined;
      for (const v of values) {
        if (typeof v !== 'string') return undefined;
        strings.push(v);
      }
    } else if (b.type === 'object') {
      if (!sameKeys(assertions, ['additionalProperties', 'properties', 'required', 'type'])) return undefined;
      if (b.additionalProperties !== false) return undefined;
      const req = b.required;
      const props = b.properties;
      if (!Array.isArray(req) || req.length !== 1 || typeof req[0] !== 'string') return undefined;
      if (!isSchemaObject(props) || !sameKeys(Object.keys(props), [req[0]])) return undefined;
      const key: string = req[0];
      keys.push(key);
      properties[key] = props[key];
    } else {
      return undefined;
    }
  }
  if (keys.length === 0) return undefined;
  if (new Set(strings).size !== strings.length || new Set(keys).size !== keys.length) return undefined;
  return { spec: { strings, keys }, properties };
}

/**
 * Rewrites a detected keyed union (see `detectKeyedUnion`) into the keyed encoding: the `keyedUnion`
 * keyword checks the basic shape, the string forms, the number of keys and their names, and
 * `properties` validates the value under the one key, so an error points into the branch its key selects.
 */
export function rewriteKeyedUnion(s: Schema): Schema | undefined {
  const found = detectKeyedUnion(s);
  if (!found) return undefined;
  return { ...annotationsOf(s, 'oneOf'), [KEYED_UNION]: found.spec, properties: found.properties };
}

function isNullSchema(s: unknown): boolean {
  return isSchemaObject(s) && sameKeys(assertionKeys(s), ['type']) && s.type === 'null';
}

/**
 * `anyOf: [X, {type: 'null'}]` (either order) becomes `if: {type: 'null'}, else: X`: the same values
 * are valid, and a non-null value gets the errors of X alone instead of those of every branch.
 */
export function rewriteNullable(s: Schema): Schema | undefined {
  const branches = s.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return undefined;
  const rest = annotationsOf(s, 'anyOf');
  if (rest === undefined) return undefined;
  const [a, b] = branches;
  const other = isNullSchema(b) ? a : isNullSchema(a) ? b : undefined;
  if (other === undefined || isNullSchema(other)) return undefined;
  return { ...rest, if: { type: 'null' }, else: other };
}

/** Adds `additionalProperties: false` where the strict profile closes an object schema. */
function closeObject(s: Schema, where: string): Schema {
  if (!isSchemaObject(s.properties) || 'additionalProperties' in s || 'unevaluatedProperties' in s) return s;
  const composing = COMPOSING.filter((k) => k in s);
  if (composing.length > 0) {
    throw new Error(
      `strict profile: ${where} declares properties next to ${composing.join(', ')}; ` +
        'additionalProperties: false would reject properties defined there. Extend tools/gen/src/validators/transform.ts.',
    );
  }
  return { ...s, additionalProperties: false };
}

/**
 * The schema as the validators of one profile compile it:
 * - strict: every object schema that declares `properties` and no `additionalProperties` is closed;
 *   objects typed only as `object` stay open;
 * - keyed unions become the keyed encoding, `anyOf [X, null]` becomes `if null / else X`;
 * - integers of format uint64/int64 get the `unsafeInteger` keyword.
 */
export function profileSchema(schema: unknown, profile: Profile, where: string): unknown {
  return mapSchema(schema, (original) => {
    let s = profile === 'strict' ? closeObject(original, where) : original;
    s = rewriteKeyedUnion(s) ?? rewriteNullable(s) ?? s;
    if (typeof s.format === 'string' && WIDE_INTEGER_FORMATS.has(s.format) && s.type === 'integer') {
      s = { ...s, [UNSAFE_INTEGER]: true };
    }
    return s;
  });
}
