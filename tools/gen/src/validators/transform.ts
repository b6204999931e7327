import { LIVE_TAG } from '../live.ts';
import { describeHex, PATTERN_NOUNS, PATTERN_SENTENCES } from './pattern-messages.ts';
import type { Schema } from './walk.ts';
import { ANNOTATIONS, isSchemaObject, mapSchema } from './walk.ts';

/** Name of the custom keyword that replaces a detected keyed union (see `keywords.ts`). */
export const KEYED_UNION = 'keyedUnion';
/**
 * Names of the two custom keywords that replace a detected tagged union (see `keywords.ts`): the shape
 * and the tag, and the branch the tag selects.
 */
export const TAGGED_UNION = 'taggedUnion';
export const TAGGED_FORMS = 'taggedForms';
/** Name of the custom keyword that flags integers JSON.parse may have rounded (see `keywords.ts`). */
export const UNSAFE_INTEGER = 'unsafeInteger';
/** Name of the custom keyword that replaces `anyOf [X, null]`: `null`, or else valid against its subschema. */
export const NULL_OR = 'nullOr';
/** Name of the custom keyword that replaces a hex-string `pattern` by a code-based check (see `keywords.ts`). */
export const HEX_PATTERN = 'hexPattern';
/** Name of the custom keyword that replaces any other `pattern` of a named schema, to say what it is in words. */
export const NAMED_PATTERN = 'namedPattern';

/** Value of the `namedPattern` keyword: the spec's pattern and what it is, after `must be ` (pattern-messages.ts). */
export type NamedPatternSpec = { pattern: string; message: string };

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
/** Value of the `taggedUnion` keyword: the tag property and its values, one per branch, in spec order. */
export type TaggedUnionSpec = { tag: string; values: string[] };

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

/** The one string a property schema allows: `{type: 'string', const: v}` or `{const: v}` (annotations aside). */
function constString(s: unknown): string | undefined {
  if (!isSchemaObject(s) || typeof s.const !== 'string') return undefined;
  const assertions = assertionKeys(s);
  return sameKeys(assertions, ['const']) || (sameKeys(assertions, ['const', 'type']) && s.type === 'string') ? s.const : undefined;
}

/**
 * Detects an exclusive tagged union: a `oneOf` (only annotations beside it) of at least two object
 * schemas (`type: object`) that all require one property, the tag, which each branch's `properties`
 * limit to a distinct string (`const`). At most one branch can match any value, the one whose string
 * the value's tag is, so the union accepts exactly what the `oneOf` accepts:
 *
 * - an object (not an array) iff its tag is one of the branches' strings and the object is valid
 *   against that branch;
 * - nothing else.
 *
 * (The v3 transactions, tagged by `txn_type`; `mergeAllOf` first makes each branch one object schema.)
 * Returns the tag, its values and the branch of each value; `undefined` when the schema is not such a
 * union. When several properties could serve as the tag, the first of the first branch's required ones.
 */
export function detectTaggedUnion(s: Schema): { spec: TaggedUnionSpec; forms: Schema } | undefined {
  const branches = s.oneOf;
  if (!Array.isArray(branches) || branches.length < 2) return undefined;
  if (annotationsOf(s, 'oneOf') === undefined) return undefined;
  if (!branches.every((b) => isSchemaObject(b) && b.type === 'object' && Array.isArray(b.required) && isSchemaObject(b.properties))) return undefined;
  const objects = branches as (Schema & { required: unknown[]; properties: Schema })[];
  for (const tag of objects[0]!.required) {
    if (typeof tag !== 'string') continue;
    const values = objects.map((b) => (b.required.includes(tag) ? constString(b.properties[tag]) : undefined));
    if (values.some((v) => v === undefined) || new Set(values).size !== values.length) continue;
    const forms: Schema = {};
    values.forEach((v, i) => (forms[v!] = objects[i]));
    return { spec: { tag, values: values as string[] }, forms };
  }
  return undefined;
}

/**
 * Rewrites a detected tagged union (see `detectTaggedUnion`) into the tagged encoding: `taggedUnion`
 * checks the shape (an object) and the tag (present, a string, one of the values), and `taggedForms`
 * validates the value against the branch its tag selects, so an error points into that branch
 * (`/0/hash: required property "hash" is missing`) and a tag outside the union is one issue at the tag.
 */
export function rewriteTaggedUnion(s: Schema): Schema | undefined {
  const found = detectTaggedUnion(s);
  if (!found) return undefined;
  return { ...annotationsOf(s, 'oneOf'), [TAGGED_UNION]: found.spec, [TAGGED_FORMS]: found.forms };
}

/** Keywords an `allOf` branch may have for `mergeAllOf` to merge it: what an object schema of properties says. */
const MERGEABLE = new Set(['type', 'required', 'properties']);

/**
 * Every `allOf` of object schemas (each branch a `$ref` to one, or one written in place) replaced by one
 * object schema: `type: object` where a branch says it, every branch's `required` and `properties`
 * together, the annotations next to the `allOf` kept (the branches' own, such as a referenced schema's
 * description, dropped). For such branches, which constrain objects only through `required` and
 * `properties`, the merged schema accepts exactly the values the `allOf` accepts; it is needed by the
 * strict profile, which closes one object schema that lists every property (closing each branch would
 * reject every value: each branch's properties are unknown to the others), and it puts the tag of a
 * tagged union where `detectTaggedUnion` finds it.
 *
 * Throws, naming the schema, for an `allOf` it cannot merge exactly: a branch with another assertion
 * (`additionalProperties`, a composition, ...), a `$ref` to a schema that is not such an object schema,
 * two branches that type one property differently, or an assertion next to the `allOf` other than
 * `type: object`.
 */
export function mergeAllOf(defs: Readonly<Record<string, Schema>>): Record<string, Schema> {
  const merged = new Map<string, Schema>();
  const active = new Set<string>();
  const mergeDef = (name: string): Schema => {
    const done = merged.get(name);
    if (done) return done;
    const def = defs[name];
    if (!def) throw new Error(`mergeAllOf: unknown schema ${name}`);
    if (active.has(name)) return def; // recursion through properties: refs stay refs there
    active.add(name);
    const out = mapSchema(def, (s) => (Array.isArray(s.allOf) ? mergeOne(s, name) : s)) as Schema;
    active.delete(name);
    merged.set(name, out);
    return out;
  };
  const part = (branch: unknown, where: string): Schema => {
    if (!isSchemaObject(branch)) throw new Error(`${where}: an allOf branch that is not a schema object cannot be merged`);
    let s = branch;
    if (typeof s.$ref === 'string') {
      if (Object.keys(s).some((k) => k !== '$ref' && !ANNOTATIONS.has(k))) throw new Error(`${where}: an allOf branch with a $ref and assertions beside it cannot be merged`);
      const target = s.$ref.replace('#/$defs/', '');
      if (active.has(target)) throw new Error(`${where}: an allOf branch refers back to ${target}, which contains it; it cannot be merged`);
      s = mergeDef(target);
    }
    // `additionalProperties: true` asserts nothing (an object of the spec that says so stays open, strict too).
    const other = assertionKeys(s).filter((k) => !MERGEABLE.has(k) && !(k === 'additionalProperties' && s.additionalProperties === true));
    if (other.length > 0 || (s.type !== undefined && s.type !== 'object')) {
      throw new Error(`${where}: an allOf branch with ${other.length > 0 ? other.join(', ') : `type ${JSON.stringify(s.type)}`} cannot be merged into one object schema. Extend mergeAllOf (tools/gen/src/validators/transform.ts).`);
    }
    return s;
  };
  const mergeOne = (s: Schema, name: string): Schema => {
    const where = `$defs/${name}`;
    const { allOf, ...rest } = s;
    const beside = assertionKeys(rest);
    if (beside.some((k) => k !== 'type') || (rest.type !== undefined && rest.type !== 'object')) {
      throw new Error(`${where}: ${beside.join(', ')} next to allOf cannot be merged. Extend mergeAllOf (tools/gen/src/validators/transform.ts).`);
    }
    const parts = (allOf as unknown[]).map((b) => part(b, where));
    const required: string[] = [];
    const properties: Schema = {};
    let object = rest.type === 'object';
    for (const p of parts) {
      if (p.type === 'object') object = true;
      for (const r of Array.isArray(p.required) ? p.required : []) if (typeof r === 'string' && !required.includes(r)) required.push(r);
      for (const [k, v] of Object.entries(isSchemaObject(p.properties) ? p.properties : {})) {
        if (k in properties && JSON.stringify(properties[k]) !== JSON.stringify(v)) {
          throw new Error(`${where}: two allOf branches type the property ${JSON.stringify(k)} differently; they cannot be merged`);
        }
        properties[k] = v;
      }
    }
    const { type: _type, ...annotations } = rest;
    return {
      ...annotations,
      ...(object ? { type: 'object' } : {}),
      ...(required.length > 0 ? { required } : {}),
      ...(parts.some((p) => 'properties' in p) ? { properties } : {}),
      ...(parts.some((p) => p.additionalProperties === true) ? { additionalProperties: true } : {}),
    };
  };
  const out: Record<string, Schema> = {};
  for (const name of Object.keys(defs)) out[name] = mergeDef(name);
  return out;
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

/** Value of the `hexPattern` keyword: what the pattern accepts, and that in words, after `must be `. */
export type HexPatternKeyword = HexPatternSpec & { message: string };

/**
 * `pattern` becomes `hexPattern` where the pattern is a hex-string pattern (see `parseHexPattern`), its
 * failures worded from the pattern (`0x followed by 1 to 64 hex digits`; a named schema's noun is put in
 * front by `namePattern`).
 */
export function rewriteHexPattern(s: Schema): Schema | undefined {
  if (typeof s.pattern !== 'string') return undefined;
  const spec = parseHexPattern(s.pattern);
  if (!spec) return undefined;
  const { pattern: _pattern, ...rest } = s;
  return { ...rest, [HEX_PATTERN]: { ...spec, message: describeHex(spec) } satisfies HexPatternKeyword };
}

/**
 * A named schema's own pattern (`Address`, `DecimalString`, ...) said in words: a hex pattern's message
 * gets the schema's noun in front (`an account address: 0x followed by 1 to 64 hex digits`), any other
 * pattern becomes `namedPattern` with its sentence. Throws for a named pattern pattern-messages.ts has
 * no words for.
 */
export function namePattern(name: string, s: Schema): Schema {
  const hex = s[HEX_PATTERN] as HexPatternKeyword | undefined;
  if (hex) {
    const noun = PATTERN_NOUNS[name];
    if (!noun) throw new Error(`$defs/${name}: a named hex pattern needs its noun in PATTERN_NOUNS (tools/gen/src/validators/pattern-messages.ts)`);
    return { ...s, [HEX_PATTERN]: { ...hex, message: `${noun}: ${hex.message}` } };
  }
  if (typeof s.pattern !== 'string') return s;
  const sentence = PATTERN_SENTENCES[name];
  if (!sentence) throw new Error(`$defs/${name}: a named pattern needs its sentence in PATTERN_SENTENCES (tools/gen/src/validators/pattern-messages.ts)`);
  const { pattern, ...rest } = s;
  return { ...rest, [NAMED_PATTERN]: { pattern, message: sentence } satisfies NamedPatternSpec };
}

/** Adds `additionalProperties: false` where the strict profile closes an object schema. */
function closeObject(s: Schema, where: string): Schema {
  if (Array.isArray(s.allOf) && s.allOf.some((b) => isSchemaObject(b) && ('properties' in b || '$ref' in b))) {
    throw new Error(
      `strict profile: ${where} composes object schemas with allOf; closing each branch would reject every value. ` +
        'Merge them first (mergeAllOf, tools/gen/src/validators/transform.ts).',
    );
  }
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
 * `object` stay open. An `allOf` of object schemas must be merged first (`mergeAllOf`): it throws on one.
 * Tests hand this to other JSON Schema implementations as the reference.
 */
export function closeObjects(schema: unknown, where: string): unknown {
  return mapSchema(schema, (s) => closeObject(s, where));
}

/**
 * The schema as the validators of one profile compile it (its `allOf`s merged by `mergeAllOf` first):
 * - strict: every object schema that declares `properties` and no `additionalProperties` is closed;
 *   objects typed only as `object` stay open;
 * - keyed unions become the keyed encoding, tagged unions the tagged encoding, `anyOf [X, null]`
 *   becomes `nullOr: X`, a node of the live reading `liveForms: [documented, observed]`;
 * - hex-string patterns become the code-based `hexPattern` keyword (same strings accepted);
 * - integers of format uint64/int64 get the `unsafeInteger` keyword.
 */
export function profileSchema(schema: unknown, profile: Profile, where: string): unknown {
  return mapSchema(schema, (original) => {
    let s = profile === 'strict' ? closeObject(original, where) : original;
    s = rewriteLiveForms(s) ?? rewriteKeyedUnion(s) ?? rewriteTaggedUnion(s) ?? rewriteNullable(s) ?? s;
    s = rewriteHexPattern(s) ?? s;
    if (typeof s.format === 'string' && WIDE_INTEGER_FORMATS.has(s.format) && s.type === 'integer') {
      s = { ...s, [UNSAFE_INTEGER]: true };
    }
    return s;
  });
}
