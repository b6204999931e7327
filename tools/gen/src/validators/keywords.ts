import type { CodeKeywordDefinition, KeywordCxt } from 'ajv/dist/2020.js';
import { _, and, getProperty, not, or, type Code, type Name } from 'ajv/dist/compile/codegen/index.js';
import { propertyInData, usePattern } from 'ajv/dist/vocabularies/code.js';
import type { HexPatternKeyword, KeyedUnionSpec, NamedPatternSpec, TaggedUnionSpec } from './transform.ts';
import { HEX_PATTERN, KEYED_UNION, NAMED_PATTERN, NULL_OR, TAGGED_FORMS, TAGGED_UNION, UNSAFE_INTEGER } from './transform.ts';
import type { Schema } from './walk.ts';

/**
 * Custom ajv keywords. Both generate code (`code`), so ajv's standalone output contains them and the
 * validators need neither ajv nor `new Function` at run time. Their errors carry the keyword a user
 * sees in `params.keyword` and the facts the message needs in `params`; the facade
 * (`packages/validators/src/issues.ts`) turns them into issues.
 */

/** The error params object `{k: v, ...}` as code. */
function paramsCode(params: Record<string, Code | string | number>): Code {
  let body: Code = _``;
  for (const [k, v] of Object.entries(params)) body = _`${body}${k}: ${v}, `;
  return _`{${body}}`;
}

/** `"Empty" or an object with exactly one of the keys Dkg, Move, Oracle` */
function describeKeyedUnion({ strings, keys }: KeyedUnionSpec): string {
  const objects = `an object with exactly one of the keys ${keys.join(', ')}`;
  if (strings.length === 0) return objects;
  const quoted = strings.map((s) => JSON.stringify(s));
  const one = quoted.length === 1 ? quoted[0]! : `one of ${quoted.join(', ')}`;
  return `${one} or ${objects}`;
}

/**
 * `keyedUnion: {strings, keys}` — the shape part of an exclusive keyed union (see `transform.ts`).
 * Errors, in `params.keyword`:
 * - `type`: neither a string (when there are string forms) nor a non-array object;
 * - `enum`: a string that is none of the string forms;
 * - `minProperties` / `maxProperties`: an object without a key, or with more than one;
 * - `propertyNames`: a key that is none of the object forms (`params.key`).
 * The value under the key is validated by the `properties` next to this keyword.
 */
export const keyedUnionKeyword: CodeKeywordDefinition = {
  keyword: KEYED_UNION,
  schemaType: 'object',
  error: {
    message: 'must be one of the forms of the union',
    params: ({ params }) => paramsCode(params as Record<string, Code | string | number>),
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const spec = cxt.schema as KeyedUnionSpec;
    const expected = describeKeyedUnion(spec);
    const keyList = spec.keys.join(', ');
    const fail = (params: Record<string, Code | string | number>) => cxt.error(false, params);

    gen.if(_`typeof ${data} == "string"`);
    if (spec.strings.length > 0) {
      gen.if(_`!(${or(...spec.strings.map((s) => _`${data} === ${s}`))})`, () => fail({ keyword: 'enum', expected }));
    } else {
      fail({ keyword: 'type', expected });
    }
    gen.elseIf(_`${data} && typeof ${data} == "object" && !Array.isArray(${data})`);
    // Own keys are counted, not listed with Object.keys: a valid union allocates nothing (Object.keys
    // made an array per value, ~5.6 kB per page). The key list is made only for the error. With ajv's
    // `ownProperties` (compile.ts), `forIn` visits own keys only.
    const count: Name = gen.let('count', 0);
    gen.forIn('key', data, () => gen.assign(count, _`${count} + 1`));
    gen.if(_`${count} !== 1`, () =>
      fail({
        keyword: _`${count} === 0 ? "minProperties" : "maxProperties"`,
        keys: keyList,
        found: _`Object.keys(${data})`,
      }),
    );
    gen.forIn('key', data, (key) =>
      gen.if(_`!(${or(...spec.keys.map((k) => _`${key} === ${k}`))})`, () =>
        fail({ keyword: 'propertyNames', keys: keyList, key }),
      ),
    );
    gen.else();
    fail({ keyword: 'type', expected });
    gen.endIf();
  },
};

/** `an object whose "txn_type" is one of "user", "automated"` */
function describeTaggedUnion({ tag, values }: TaggedUnionSpec): string {
  return `an object whose ${JSON.stringify(tag)} is one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
}

/**
 * The value's own tag, or `undefined`: an inherited one (a member of Object.prototype, enumerable or
 * not) selects no branch and is reported missing.
 */
const ownTag = ({ gen, data }: KeywordCxt, tag: string): Code => _`${propertyInData(gen, data, tag, true)} ? ${data}${getProperty(tag)} : undefined`;

/** `typeof data == "object"`, not null, not an array: what the branches of a tagged union all are. */
const isObject = (data: Name): Code => _`${data} && typeof ${data} == "object" && !Array.isArray(${data})`;

/**
 * `taggedUnion: {tag, values}` — the shape and the tag of an exclusive tagged union (see `transform.ts`).
 * Each error carries the keyword a user sees in `params.keyword` and its whole message in
 * `params.message` (written here, so the facade adds nothing for it); an error about the tag is at the
 * tag's path:
 * - `type`: not a non-array object, or (at the tag) a tag that is not a string;
 * - `required` (at the tag): an object without the tag;
 * - `enum` (at the tag): a tag that is none of the values.
 * The object is validated against the branch its tag selects by `taggedForms` next to this keyword.
 */
export const taggedUnionKeyword: CodeKeywordDefinition = {
  keyword: TAGGED_UNION,
  schemaType: 'object',
  error: {
    message: 'must be one of the forms of the tagged union',
    params: ({ params }) => paramsCode(params as Record<string, Code | string | number>),
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const spec = cxt.schema as TaggedUnionSpec;
    const values = spec.values.map((v) => JSON.stringify(v)).join(', ');
    // ajv appends a plain property name to the error's path itself (`/` and the name, escaped as a JSON
    // pointer segment), as its own keywords do; its type only declares code.
    const tagPath = { instancePath: spec.tag as unknown as Code };
    const fail = (keyword: string, message: string, atTag = true) => cxt.error(false, { keyword, message }, atTag ? tagPath : {});
    gen.if(isObject(data));
    const tag = gen.const('tag', ownTag(cxt, spec.tag));
    gen.if(_`${tag} === undefined`);
    fail('required', `required property ${JSON.stringify(spec.tag)} is missing`);
    gen.elseIf(_`typeof ${tag} != "string"`);
    fail('type', 'must be string');
    gen.elseIf(not(or(...spec.values.map((v) => _`${tag} === ${v}`))));
    fail('enum', `must be one of ${values}`);
    gen.endIf();
    gen.else();
    fail('type', `must be ${describeTaggedUnion(spec)}`, false);
    gen.endIf();
  },
};

/**
 * `taggedForms: {value: branch, ...}` next to `taggedUnion`: an object whose tag is one of the values is
 * validated against that value's branch, its errors at their own paths; any other value is left to
 * `taggedUnion`.
 */
export const taggedFormsKeyword: CodeKeywordDefinition = {
  keyword: TAGGED_FORMS,
  schemaType: 'object',
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const spec = (cxt.parentSchema as Schema)[TAGGED_UNION] as TaggedUnionSpec | undefined;
    if (!spec) throw new Error(`${TAGGED_FORMS} needs ${TAGGED_UNION} next to it`);
    const valid = gen.let('valid', true);
    gen.if(isObject(data), () => {
      const tag = gen.const('tag', ownTag(cxt, spec.tag));
      spec.values.forEach((v, i) => {
        const selected = _`${tag} === ${v}`;
        if (i === 0) gen.if(selected);
        else gen.elseIf(selected);
        const form = gen.name('_valid');
        cxt.subschema({ keyword: TAGGED_FORMS, schemaProp: v }, form);
        gen.assign(valid, form);
      });
      gen.endIf();
    });
    cxt.ok(valid);
  },
};

/**
 * `unsafeInteger: true` on a u64/i64 field: a number beyond ±Number.MAX_SAFE_INTEGER may have been
 * rounded by JSON.parse, so its exact value is lost. Reported under its own keyword so a caller can tell
 * "precision lost" from "wrong".
 */
export const unsafeIntegerKeyword: CodeKeywordDefinition = {
  keyword: UNSAFE_INTEGER,
  type: 'number',
  schemaType: 'boolean',
  error: {
    message: 'must be a safe integer',
    params: () => _`{limit: ${Number.MAX_SAFE_INTEGER}}`,
  },
  code(cxt: KeywordCxt) {
    if (cxt.schema !== true) return;
    const { data } = cxt;
    cxt.fail(_`${data} > ${Number.MAX_SAFE_INTEGER} || ${data} < ${-Number.MAX_SAFE_INTEGER}`);
  },
};

/** Char codes of `0` and `x`, the hex prefix. */
const ZERO = 48;
const X = 120;
/** Hex digits only, and hex digits after an optional `0x`: linear (one optional group, one class). */
const HEX_DIGITS = '^[0-9a-fA-F]*$';
const HEX_DIGITS_AFTER_PREFIX = '^(0x)?[0-9a-fA-F]*$';

/**
 * `hexPattern: {pattern, prefix, min, max, unit}` on a string — a hex-string `pattern` of the specs
 * (see `parseHexPattern` in `transform.ts`) as code: the `0x` prefix and the number of digits are
 * checked with `length` and `charCodeAt`, the digits by one regular expression without bounds,
 * `^(0x)?[0-9a-fA-F]*$` (or `^[0-9a-fA-F]*$` where the pattern has no prefix). V8 runs a bounded
 * repetition such as `{1,64}` about twice as slowly, and a JavaScript loop over char codes slower
 * still. It accepts exactly the strings the pattern matches: once the prefix is known to be present
 * (or absent), the regular expression can only match that way, since `x` is no hex digit. Errors keep
 * the pattern's keyword: `params.keyword` is `pattern`, `params.pattern` the spec's pattern, and
 * `params.message` what it is in words (`0x followed by 1 to 64 hex digits`).
 */
export const hexPatternKeyword: CodeKeywordDefinition = {
  keyword: HEX_PATTERN,
  type: 'string',
  schemaType: 'object',
  error: {
    message: 'must match the pattern',
    params: ({ schema }) => _`{keyword: "pattern", pattern: ${(schema as HexPatternKeyword).pattern}, message: ${(schema as HexPatternKeyword).message}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const spec = cxt.schema as HexPatternKeyword;
    const n = _`${data}.length`;
    const prefixed = _`${n} >= 2 && ${data}.charCodeAt(0) === ${ZERO} && ${data}.charCodeAt(1) === ${X}`;
    const checks: Code[] = [];
    let digits: Code = n;
    if (spec.prefix === 'required') {
      checks.push(prefixed);
      digits = _`(${n} - 2)`;
    } else if (spec.prefix === 'optional') {
      digits = gen.const('digits', _`${n} - (${prefixed} ? 2 : 0)`);
    }
    if (spec.min > 0) checks.push(_`${digits} >= ${spec.min}`);
    if (spec.max !== null) checks.push(_`${digits} <= ${spec.max}`);
    if (spec.unit !== 1) checks.push(_`${digits} % ${spec.unit} === 0`);
    const regExp = usePattern(cxt, spec.prefix === 'none' ? HEX_DIGITS : HEX_DIGITS_AFTER_PREFIX);
    checks.push(_`${regExp}.test(${data})`);
    cxt.fail(_`!(${and(...checks)})`);
  },
};

/**
 * `namedPattern: {pattern, message}` on a string — the `pattern` of a named schema that is no hex
 * pattern (`DecimalString`, `TradingPair`, ...), run as ajv runs `pattern` (one regular expression), its
 * failure reported as `pattern` with `params.message`, what the schema is in words.
 */
export const namedPatternKeyword: CodeKeywordDefinition = {
  keyword: NAMED_PATTERN,
  type: 'string',
  schemaType: 'object',
  error: {
    message: 'must match the pattern',
    params: ({ schema }) => _`{keyword: "pattern", pattern: ${(schema as NamedPatternSpec).pattern}, message: ${(schema as NamedPatternSpec).message}}`,
  },
  code(cxt: KeywordCxt) {
    const regExp = usePattern(cxt, (cxt.schema as NamedPatternSpec).pattern);
    cxt.fail(_`!${regExp}.test(${cxt.data})`);
  },
};

/**
 * `nullOr: X` — `null`, or else a value valid against the subschema X (the generator's encoding of
 * `anyOf [X, null]`). A non-null value gets exactly the errors of X, at their own paths.
 */
export const nullOrKeyword: CodeKeywordDefinition = {
  keyword: NULL_OR,
  schemaType: ['object', 'boolean'],
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const valid = gen.let('valid', true);
    gen.if(_`${data} !== null`, () => {
      const subValid = gen.name('_valid');
      cxt.subschema({ keyword: NULL_OR }, subValid);
      gen.assign(valid, subValid);
    });
    cxt.ok(valid);
  },
};
