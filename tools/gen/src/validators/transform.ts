import { LIVE_TAG } from '../live.ts';
import type { Schema } from './walk.ts';
import { ANNOTATIONS, isSchemaObject, mapSchema } from './walk.ts';

/** Name of the custom keyword that replaces a detected keyed union (see `keywords.ts`). */
export const KEYED_UNION = 'keyedUnion';
/** Name of the custom keyword that flags integers JSON.parse may have rounded (see `keywords.ts`). */
export const UNSAFE_INTEGER = 'unsafeInteger';
/** Name of the custom keyword that replaces `anyOf [X, null]`: `null`, or else valid against its subschema. */
export const NULL_OR = 'nullOr';
/** Name of the custom keyword that replaces a hex-string `pattern` by a code-based check (see `keywords.ts`). */
export const HEX_PATTERN = 'hexPattern';

/**
 * Name of the custom keyword that replaces a node of the live reading, `anyOf [documented, observed]`
 * with `x-live-forms` (see `../live.ts`): valid when either form is; otherwise the errors of the form
 * that came closest (see `keywords.ts`).
 */
export const LIVE_FORMS = 'liveForms';
/** Annotation next to `liveForms`: the overlay action ids of the node, for error messages. */
export const LIVE_ACTIONS = 'liveActions';

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
 * `anyOf: [X, {type: 'null'}]` (either order) becomes `nullOr: X`: the same values are valid, and a
 * non-null value gets the errors of X alone instead of those of every branch (and, unlike
 * `if: {type: 'null'}, else: X`, no error objects are made and dropped for every non-null value).
 */
export function rewriteNullable(s: Schema): Schema | undefined {
  const branches = s.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return undefined;
  const rest = annotationsOf(s, 'anyOf');
  if (rest === undefined) return undefined;
  const [a, b] = branches;
  const other = isNullSchema(b) ? a : isNullSchema(a) ? b : undefined;
  if (other === undefined || isNullSchema(other)) return undefined;
  return { ...rest, [NULL_OR]: other };
}

/** `anyOf [documented, observed]` tagged `x-live-forms` becomes `liveForms: [documented, observed]`. */
export function rewriteLiveForms(s: Schema): Schema | undefined {
  const tag = s[LIVE_TAG] as { actions?: unknown } | undefined;
  if (tag === undefined) return undefined;
  const { anyOf, [LIVE_TAG]: _tag, ...rest } = s;
  if (!Array.isArray(anyOf) || anyOf.length !== 2 || !Array.isArray(tag.actions)) {
    throw new Error(`${LIVE_TAG} must tag an anyOf of two forms, with actions`);
  }
  return { ...rest, [LIVE_FORMS]: anyOf, [LIVE_ACTIONS]: tag.actions };
}

/**
 * Value of the `hexPattern` keyword: what a hex-string `pattern` of the specs accepts, as numbers.
 * A string is accepted iff it is `prefix` (`0x`: `none` never, `required` always, `optional` when
 * present) followed by `min`..`max` hex digits (`max` `null`: no limit), their count a multiple of `unit`.
 */
export type HexPatternSpec = {
  /** The spec's pattern, as error messages quote it. */
  pattern: string;
  prefix: 'none' | 'optional' | 'required';
  min: number;
  max: number | null;
  unit: 1 | 2;
};

/** `^`, an optional or required `0x`, hex digits alone or in pairs with a quantifier, `$`. */
const HEX_PATTERN_SHAPE =
  /^\^(?<prefix>\(0x\)\?|0x)?(?:\[(?<single>[^\]]+)\](?<q1>[*+]|\{\d+\}|\{\d+,\d*\})|\(\[(?<paired>[^\]]+)\]\{2\}\)(?<q2>[*+]|\{\d+\}|\{\d+,\d*\}))\$$/;

/** `0-9a-fA-F` in any order, each range once: exactly the 22 hex digits. */
function isHexClass(cls: string): boolean {
  const ranges = cls.match(/.-./g);
  return ranges !== null && ranges.join('') === cls && [...ranges].sort().join() === '0-9,A-F,a-f';
}

/**
 * Recognises the hex-string patterns of the specs (`^(0x)?[0-9a-fA-F]*$`, `^0x[0-9a-fA-F]{1,64}$`,
 * `^0x([0-9a-fA-F]{2})*$`, ...) and says what they accept as numbers; `undefined` for any other
 * pattern, which stays a regular expression. The equivalence is exact: with an optional prefix a
 * string starting with `0x` can only match with the prefix, since `x` is no hex digit.
 */
export function parseHexPattern(pattern: string): HexPatternSpec | undefined {
  const m = HEX_PATTERN_SHAPE.exec(pattern)?.groups;
  if (!m) return undefined;
  const cls = m.single ?? m.paired!;
  if (!isHexClass(cls)) return undefined;
  const q = (m.q1 ?? m.q2)!;
  let min: number;
  let max: number | null;
  if (q === '*') [min, max] = [0, null];
  else if (q === '+') [min, max] = [1, null];
  else {
    const [lo, hi] = q.slice(1, -1).split(',');
    min = Number(lo);
    max = hi === undefined ? min : hi === '' ? null : Number(hi);
    if (max !== null && max < min) return undefined;
  }
  const unit = m.paired === undefined ? 1 : 2;
  const prefix = m.prefix === undefined ? 'none' : m.prefix === '0x' ? 'required' : 'optional';
  return { pattern, prefix, min: min * unit, max: max === null ? null : max * unit, unit };
}

/** `pattern` becomes `hexPattern` where the pattern is a hex-string pattern (see `parseHexPattern`). */
export function rewriteHexPattern(s: Schema): Schema | undefined {
  if (typeof s.pattern !== 'string') return undefined;
  const spec = parseHexPattern(s.pattern);
  if (!spec) return undefined;
  const { pattern: _pattern, ...rest } = s;
  return { ...rest, [HEX_PATTERN]: spec };
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
 * The schema as the strict profile sees it, before any encoding: every object schema that declares
 * `properties` and no `additionalProperties` gets `additionalProperties: false`; objects typed only as
 * `object` stay open. Tests hand this to other JSON Schema implementations as the reference.
 */
export function closeObjects(schema: unknown, where: string): unknown {
  return mapSchema(schema, (s) => closeObject(s, where));
}

/**
 * The schema as the validators of one profile compile it:
 * - strict: every object schema that declares `properties` and no `additionalProperties` is closed;
 *   objects typed only as `object` stay open;
 * - keyed unions become the keyed encoding, `anyOf [X, null]` becomes `nullOr: X`, a node of the live
 *   reading `liveForms: [documented, observed]`;
 * - hex-string patterns become the code-based `hexPattern` keyword (same strings accepted);
 * - integers of format uint64/int64 get the `unsafeInteger` keyword.
 */
export function profileSchema(schema: unknown, profile: Profile, where: string): unknown {
  return mapSchema(schema, (original) => {
    let s = profile === 'strict' ? closeObject(original, where) : original;
    s = rewriteLiveForms(s) ?? rewriteKeyedUnion(s) ?? rewriteNullable(s) ?? s;
    s = rewriteHexPattern(s) ?? s;
    if (typeof s.format === 'string' && WIDE_INTEGER_FORMATS.has(s.format) && s.type === 'integer') {
      s = { ...s, [UNSAFE_INTEGER]: true };
    }
    return s;
  });
}
