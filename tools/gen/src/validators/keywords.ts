import type { CodeKeywordDefinition, KeywordCxt } from 'ajv/dist/2020.js';
import { _, or, type Code, type Name } from 'ajv/dist/compile/codegen/index.js';
import type { KeyedUnionSpec } from './transform.ts';
import { KEYED_UNION, UNSAFE_INTEGER } from './transform.ts';

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
    const present: Name = gen.const('keys', _`Object.keys(${data})`);
    gen.if(_`${present}.length !== 1`, () =>
      fail({
        keyword: _`${present}.length === 0 ? "minProperties" : "maxProperties"`,
        keys: keyList,
        found: present,
      }),
    );
    gen.forOf('key', present, (key) =>
      gen.if(_`!(${or(...spec.keys.map((k) => _`${key} === ${k}`))})`, () =>
        fail({ keyword: 'propertyNames', keys: keyList, key }),
      ),
    );
    gen.else();
    fail({ keyword: 'type', expected });
    gen.endIf();
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
