/** The generator's schema rewrites (tools/gen/src/validators/transform.ts), table-driven. */
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../../../tools/gen/src/specs.ts';
import { collect } from '../../../tools/gen/src/validators/collect.ts';
import {
  closeObjects,
  detectKeyedUnion,
  detectTaggedUnion,
  mergeAllOf,
  parseHexPattern,
  profileSchema,
  rewriteNullable,
} from '../../../tools/gen/src/validators/transform.ts';

const str = (v: string) => ({ type: 'string', const: v });
const keyed = (key: string, schema: unknown = { type: 'integer' }, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  required: [key],
  additionalProperties: false,
  properties: { [key]: schema },
  ...extra,
});

describe('detectKeyedUnion (structural, never by name)', () => {
  const detected: { name: string; schema: Record<string, unknown>; strings: string[]; keys: string[] }[] = [
    { name: 'string const + objects', schema: { oneOf: [str('Empty'), keyed('A'), keyed('B')] }, strings: ['Empty'], keys: ['A', 'B'] },
    { name: 'objects only', schema: { oneOf: [keyed('Resources'), keyed('Modules')] }, strings: [], keys: ['Resources', 'Modules'] },
    {
      name: 'string enum + objects, annotations allowed',
      schema: { description: 'd', oneOf: [{ type: 'string', title: 't', enum: ['u8', 'bool'] }, keyed('vector', {}, { title: 'V', description: 'x' })] },
      strings: ['u8', 'bool'],
      keys: ['vector'],
    },
    { name: 'any name at all', schema: { oneOf: [keyed('zz'), keyed('yy'), str('q')] }, strings: ['q'], keys: ['zz', 'yy'] },
  ];
  it.each(detected)('detects: $name', ({ schema, strings, keys }) => {
    expect(detectKeyedUnion(schema)?.spec).toEqual({ strings, keys });
  });

  const rejected: { name: string; schema: Record<string, unknown> }[] = [
    { name: 'strings only', schema: { oneOf: [str('a'), str('b')] } },
    { name: 'one branch', schema: { oneOf: [keyed('A')] } },
    { name: 'open object branch', schema: { oneOf: [keyed('A'), { ...keyed('B'), additionalProperties: true }] } },
    { name: 'object branch without additionalProperties', schema: { oneOf: [keyed('A'), { type: 'object', required: ['B'], properties: { B: {} } }] } },
    { name: 'two required keys', schema: { oneOf: [keyed('A'), { ...keyed('B'), required: ['B', 'C'], properties: { B: {}, C: {} } }] } },
    { name: 'required key not among properties', schema: { oneOf: [keyed('A'), { ...keyed('B'), properties: { C: {} } }] } },
    { name: 'extra assertion in a branch', schema: { oneOf: [keyed('A'), keyed('B', {}, { minProperties: 1 })] } },
    { name: 'same key twice', schema: { oneOf: [keyed('A'), keyed('A', { type: 'string' })] } },
    { name: 'overlapping strings', schema: { oneOf: [str('x'), { type: 'string', enum: ['x', 'y'] }, keyed('A')] } },
    { name: 'string branch with a pattern', schema: { oneOf: [{ type: 'string', pattern: '^a' }, keyed('A')] } },
    { name: 'number branch', schema: { oneOf: [{ type: 'integer' }, keyed('A')] } },
    { name: '$ref branch', schema: { oneOf: [{ $ref: '#/$defs/X' }, keyed('A')] } },
    { name: 'assertion next to oneOf', schema: { type: 'object', oneOf: [keyed('A'), keyed('B')] } },
    { name: 'anyOf, not oneOf', schema: { anyOf: [keyed('A'), keyed('B')] } },
  ];
  it.each(rejected)('leaves alone: $name', ({ schema }) => {
    expect(detectKeyedUnion(schema)).toBeUndefined();
    expect(profileSchema(schema, 'lenient', 'test')).toEqual(schema);
  });
});

const tagged = (tag: string, value: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  required: ['id', tag],
  properties: { id: { type: 'integer' }, [tag]: value },
  ...extra,
});

describe('detectTaggedUnion (structural, never by name)', () => {
  const detected: { name: string; schema: Record<string, unknown>; tag: string; values: string[] }[] = [
    { name: 'string consts', schema: { oneOf: [tagged('kind', str('a')), tagged('kind', str('b'))] }, tag: 'kind', values: ['a', 'b'] },
    { name: 'const without type, annotations allowed', schema: { description: 'd', oneOf: [tagged('t', { const: 'x', title: 'X' }), tagged('t', str('y'), { title: 'Y' })] }, tag: 't', values: ['x', 'y'] },
    { name: 'closed branches with other assertions', schema: { oneOf: [tagged('t', str('x'), { additionalProperties: false, minProperties: 1 }), tagged('t', str('y'))] }, tag: 't', values: ['x', 'y'] },
    {
      name: 'the first required property that tags every branch',
      schema: { oneOf: [{ type: 'object', required: ['a', 'b'], properties: { a: { type: 'string' }, b: str('1') } }, { type: 'object', required: ['b'], properties: { b: str('2') } }] },
      tag: 'b',
      values: ['1', '2'],
    },
  ];
  it.each(detected)('detects: $name', ({ schema, tag, values }) => {
    expect(detectTaggedUnion(schema)?.spec).toEqual({ tag, values });
    expect(Object.keys(detectTaggedUnion(schema)!.forms)).toEqual(values);
  });

  const rejected: { name: string; schema: Record<string, unknown> }[] = [
    { name: 'one branch', schema: { oneOf: [tagged('t', str('x'))] } },
    { name: 'the same value twice', schema: { oneOf: [tagged('t', str('x')), tagged('t', str('x'))] } },
    { name: 'a tag that is not required', schema: { oneOf: [tagged('t', str('x')), { ...tagged('t', str('y')), required: ['id'] }] } },
    { name: 'a tag of an enum', schema: { oneOf: [tagged('t', str('x')), tagged('t', { type: 'string', enum: ['y', 'z'] })] } },
    { name: 'a tag that is no string', schema: { oneOf: [tagged('t', str('x')), tagged('t', { const: 1 })] } },
    { name: 'a tag const with another assertion', schema: { oneOf: [tagged('t', str('x')), tagged('t', { ...str('y'), minLength: 1 })] } },
    { name: 'a branch that is not typed object', schema: { oneOf: [tagged('t', str('x')), { required: ['t'], properties: { t: str('y') } }] } },
    { name: 'an allOf branch (merge it first)', schema: { oneOf: [tagged('t', str('x')), { allOf: [{ $ref: '#/$defs/X' }, tagged('t', str('y'))] }] } },
    { name: 'assertion next to oneOf', schema: { type: 'object', oneOf: [tagged('t', str('x')), tagged('t', str('y'))] } },
    { name: 'anyOf, not oneOf', schema: { anyOf: [tagged('t', str('x')), tagged('t', str('y'))] } },
  ];
  it.each(rejected)('leaves alone: $name', ({ schema }) => {
    expect(detectTaggedUnion(schema)).toBeUndefined();
  });

  it('rewrites into taggedUnion + taggedForms, each branch whole (its own assertions kept)', () => {
    const a = tagged('t', str('a'), { title: 'A' });
    const b = tagged('t', str('b'));
    expect(profileSchema({ description: 'd', oneOf: [a, b] }, 'strict', 't')).toEqual({
      description: 'd',
      taggedUnion: { tag: 't', values: ['a', 'b'] },
      taggedForms: { a: { ...a, additionalProperties: false }, b: { ...b, additionalProperties: false } },
    });
  });
});

describe('mergeAllOf', () => {
  const base = { type: 'object', description: 'the base', required: ['a'], properties: { a: { type: 'integer' }, b: { $ref: '#/$defs/Leaf' } } };
  const leaf = { type: 'string' };

  it('merges an allOf of a $ref and an object into one object schema, keeping the annotations beside it', () => {
    const defs = { Base: base, Leaf: leaf, U: { oneOf: [{ title: 'T', allOf: [{ $ref: '#/$defs/Base' }, { type: 'object', required: ['t'], properties: { t: str('x') } }] }, tagged('t', str('y'))] } };
    const merged = mergeAllOf(defs);
    expect(merged.U!.oneOf).toEqual([
      { title: 'T', type: 'object', required: ['a', 't'], properties: { a: { type: 'integer' }, b: { $ref: '#/$defs/Leaf' }, t: str('x') } },
      tagged('t', str('y')),
    ]);
    expect(merged.Base).toEqual(defs.Base);
    expect(detectTaggedUnion(merged.U!)?.spec).toEqual({ tag: 't', values: ['x', 'y'] });
  });

  it('merges through a $ref to an allOf, and the same property typed alike twice', () => {
    const defs = { Leaf: leaf, A: { allOf: [{ type: 'object', properties: { a: leaf } }, { properties: { b: leaf } }] }, B: { allOf: [{ $ref: '#/$defs/A' }, { required: ['c'], properties: { a: leaf, c: leaf } }] } };
    expect(mergeAllOf(defs).B).toEqual({ type: 'object', required: ['c'], properties: { a: leaf, b: leaf, c: leaf } });
  });

  it.each([
    ['a branch with additionalProperties', { X: { allOf: [{ properties: { a: {} }, additionalProperties: false }, { properties: { b: {} } }] } }, /additionalProperties cannot be merged/],
    ['a $ref to a union', { L: { oneOf: [str('a'), str('b')] }, X: { allOf: [{ $ref: '#/$defs/L' }, { properties: { b: {} } }] } }, /oneOf cannot be merged/],
    ['a branch of another type', { X: { allOf: [{ type: 'string' }, { properties: { b: {} } }] } }, /type "string" cannot be merged/],
    ['a property typed twice differently', { X: { allOf: [{ properties: { a: { type: 'string' } } }, { properties: { a: { type: 'integer' } } }] } }, /property "a" differently/],
    ['an assertion next to allOf', { X: { minProperties: 1, allOf: [{ properties: { a: {} } }] } }, /minProperties next to allOf/],
  ] as const)('refuses %s, naming the schema', (_what, defs, message) => {
    expect(() => mergeAllOf(defs as never)).toThrow(message);
    expect(() => mergeAllOf(defs as never)).toThrow(/\$defs\/X/);
  });

  it('the strict profile refuses an unmerged allOf of object schemas rather than close each branch', () => {
    expect(() => closeObjects({ allOf: [{ $ref: '#/$defs/Base' }, { type: 'object', properties: { t: {} } }] }, 'U')).toThrow(/U composes object schemas with allOf.*mergeAllOf/);
  });
});

describe('profileSchema', () => {
  it('rewrites a keyed union into keyedUnion + properties, recursively', () => {
    const inner = { oneOf: [str('E'), keyed('A')] };
    expect(profileSchema({ type: 'object', properties: { u: inner } }, 'lenient', 't')).toEqual({
      type: 'object',
      properties: { u: { keyedUnion: { strings: ['E'], keys: ['A'] }, properties: { A: { type: 'integer' } } } },
    });
  });

  it('closes object schemas with properties in the strict profile only', () => {
    const schema = {
      type: 'object',
      properties: { free: { type: 'object' }, explicit: { type: 'object', properties: {}, additionalProperties: true }, nested: { properties: { a: {} } } },
    };
    expect(profileSchema(schema, 'lenient', 't')).toEqual(schema);
    expect(profileSchema(schema, 'strict', 't')).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        free: { type: 'object' },
        explicit: { type: 'object', properties: {}, additionalProperties: true },
        nested: { properties: { a: {} }, additionalProperties: false },
      },
    });
  });

  it('refuses to close an object whose properties may come from a composition', () => {
    expect(() => profileSchema({ properties: { a: {} }, allOf: [{ properties: { b: {} } }] }, 'strict', 'X')).toThrow(/allOf/);
  });

  it('marks u64 and i64 integers with unsafeInteger', () => {
    expect(profileSchema({ type: 'integer', format: 'uint64', minimum: 0 }, 'lenient', 't')).toMatchObject({ unsafeInteger: true });
    expect(profileSchema({ type: 'integer', format: 'uint8' }, 'lenient', 't')).not.toHaveProperty('unsafeInteger');
  });

  it('rewrites anyOf [X, null] (either order) into nullOr: X, and nothing else', () => {
    const x = { $ref: '#/$defs/X' };
    expect(rewriteNullable({ description: 'd', anyOf: [x, { type: 'null' }] })).toEqual({ description: 'd', nullOr: x });
    expect(rewriteNullable({ anyOf: [{ type: 'null' }, x] })).toEqual({ nullOr: x });
    expect(rewriteNullable({ anyOf: [x, { type: 'string' }] })).toBeUndefined();
    expect(rewriteNullable({ type: 'object', anyOf: [x, { type: 'null' }] })).toBeUndefined();
    expect(rewriteNullable({ anyOf: [x, { type: 'null' }, { type: 'string' }] })).toBeUndefined();
  });

  it('replaces a hex-string pattern by hexPattern, keeping every other keyword', () => {
    expect(profileSchema({ type: 'string', description: 'd', pattern: '^0x[0-9a-fA-F]{1,64}$' }, 'lenient', 't')).toEqual({
      type: 'string',
      description: 'd',
      hexPattern: { pattern: '^0x[0-9a-fA-F]{1,64}$', prefix: 'required', min: 1, max: 64, unit: 1, message: '0x followed by 1 to 64 hex digits' },
    });
    const other = { type: 'string', pattern: '^[0-9]+$' };
    expect(profileSchema(other, 'strict', 't')).toEqual(other);
  });

  it('closeObjects closes exactly what the strict profile closes, and encodes nothing', () => {
    const schema = { type: 'object', properties: { u: { oneOf: [{ type: 'string', const: 'E' }, { type: 'object', required: ['A'], additionalProperties: false, properties: { A: {} } }] } } };
    expect(closeObjects(schema, 't')).toEqual({ ...schema, additionalProperties: false });
  });
});

describe('parseHexPattern (what a hex pattern accepts, as numbers)', () => {
  const hex = '[0-9a-fA-F]';
  const parsed: [string, ReturnType<typeof parseHexPattern>][] = [
    [`^(0x)?${hex}*$`, { pattern: `^(0x)?${hex}*$`, prefix: 'optional', min: 0, max: null, unit: 1 }],
    [`^(0x)?${hex}+$`, { pattern: `^(0x)?${hex}+$`, prefix: 'optional', min: 1, max: null, unit: 1 }],
    [`^(0x)?${hex}{1,64}$`, { pattern: `^(0x)?${hex}{1,64}$`, prefix: 'optional', min: 1, max: 64, unit: 1 }],
    [`^0x${hex}{1,64}$`, { pattern: `^0x${hex}{1,64}$`, prefix: 'required', min: 1, max: 64, unit: 1 }],
    [`^0x(${hex}{2})*$`, { pattern: `^0x(${hex}{2})*$`, prefix: 'required', min: 0, max: null, unit: 2 }],
    ['^[a-fA-F0-9]{64}$', { pattern: '^[a-fA-F0-9]{64}$', prefix: 'none', min: 64, max: 64, unit: 1 }],
    ['^0x([A-Fa-f0-9]{2}){1,4}$', { pattern: '^0x([A-Fa-f0-9]{2}){1,4}$', prefix: 'required', min: 2, max: 8, unit: 2 }],
    [`^${hex}{2,}$`, { pattern: `^${hex}{2,}$`, prefix: 'none', min: 2, max: null, unit: 1 }],
  ];
  it.each(parsed)('%s', (pattern, spec) => {
    expect(parseHexPattern(pattern)).toEqual(spec);
  });

  const others = [
    '^[0-9]+$', // not hex
    '^(0x)?[0-9a-f]+$', // lowercase only
    '^(0x)?[0-9a-fA-FxX]+$', // more than hex
    '^(0x)?[0-9a-fA-F]+', // not anchored at the end
    '(0x)?[0-9a-fA-F]+$', // not anchored at the start
    '^(0X)?[0-9a-fA-F]+$', // another prefix
    '^(0x)?[0-9a-fA-F]{4,2}$', // empty range
    '^0x([0-9a-fA-F]{3})*$', // not pairs
    '^0x[0-9a-fA-F]*|z$', // alternation
    '^[^0-9a-fA-F]*$', // negated
  ];
  it.each(others)('leaves %s to the regular expression', (pattern) => {
    expect(parseHexPattern(pattern)).toBeUndefined();
  });
});

describe('the specs', () => {
  const { schemas } = collect(loadSpecs());
  const merged = mergeAllOf(Object.fromEntries(schemas.map((s) => [s.name, s.schema])));
  it('have exactly these keyed unions and two tagged unions (the v3 and v4 transactions, on txn_type), all rewritten, and no oneOf/anyOf/allOf left', () => {
    const unions = schemas.filter((s) => detectKeyedUnion(s.schema)).map((s) => s.name);
    expect(unions.sort()).toEqual(['AuthorizedCommittee', 'EvmTransactionOutput', 'FaucetStatus', 'MoveList', 'MoveValue', 'TransactionOutput', 'TransactionOutputV4', 'TypeTag']);
    const taggedUnions = Object.entries(merged).flatMap(([name, s]) => {
      const found = detectTaggedUnion(s);
      return found ? [[name, found.spec]] : [];
    });
    const kinds = { tag: 'txn_type', values: ['user', 'automated', 'block_metadata', 'automation_record'] };
    expect(taggedUnions).toEqual([['TransactionV3', kinds], ['TransactionV4', kinds]]);
    // As written, the branches are allOfs: only the merged schema is a tagged union.
    expect(detectTaggedUnion(schemas.find((s) => s.name === 'TransactionV3')!.schema)).toBeUndefined();
    for (const profile of ['lenient', 'strict'] as const) {
      const all = JSON.stringify(Object.entries(merged).map(([name, s]) => profileSchema(s, profile, name)));
      expect(all).not.toMatch(/"(oneOf|anyOf|allOf)"/);
    }
  });
});
