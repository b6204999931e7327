/** The generator's schema rewrites (tools/gen/src/validators/transform.ts), table-driven. */
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../../../tools/gen/src/specs.ts';
import { collect } from '../../../tools/gen/src/validators/collect.ts';
import { closeObjects, detectKeyedUnion, parseHexPattern, profileSchema, rewriteNullable } from '../../../tools/gen/src/validators/transform.ts';

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
      hexPattern: { pattern: '^0x[0-9a-fA-F]{1,64}$', prefix: 'required', min: 1, max: 64, unit: 1 },
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
  it('have exactly four keyed unions, all rewritten, and no oneOf/anyOf left', () => {
    const unions = schemas.filter((s) => detectKeyedUnion(s.schema)).map((s) => s.name);
    expect(unions.sort()).toEqual(['MoveList', 'MoveValue', 'TransactionOutput', 'TypeTag']);
    for (const profile of ['lenient', 'strict'] as const) {
      const all = JSON.stringify(schemas.map((s) => profileSchema(s.schema, profile, s.name)));
      expect(all).not.toMatch(/"(oneOf|anyOf)"/);
    }
  });
});
