/**
 * Standard JSON Schema: `~standard.jsonSchema.input/output({ target })` of every schema, in every reading,
 * compiled by ajv (2020-12 and draft-07 dialects, strict mode), must judge values as `~standard.validate`
 * does; the OpenAPI 3.0 form, read back as JSON Schema by OpenAPI 3.0.3's rules, too. Values here: the
 * valid fixtures and the live bodies; values fast-check builds from the spec schemas and mutates are
 * standard-json-schema.perf.test.ts's (the `perf` project: a property run of seconds of CPU).
 */
import { describe, expect, it } from 'vitest';
import * as standard from '../src/standard.ts';
import { AccountData, responses, standardResponse, standardSchema } from '../src/standard.ts';
import { fixtures, okBodies, transactionInfoV2 } from './fixtures.js';
import { exportedSchemaNames } from './helpers.js';
import { ajv2020, compile, json, judges, READINGS, type Schema, type Std, valid } from './json-schema-judges.ts';
import { liveModuleAbi, liveModulesV1, liveResourceV1, liveTransactionV1 } from './live-bodies.ts';

/** A walk over every subschema (the values of data keywords are not schemas). */
function subschemas(schema: unknown, visit: (s: Schema) => void): void {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return;
  const s = schema as Schema;
  visit(s);
  for (const [k, v] of Object.entries(s)) {
    if (['enum', 'const', 'examples', 'example', 'default', 'required', 'type'].includes(k)) continue;
    if (['properties', '$defs', 'definitions', 'patternProperties'].includes(k)) Object.values(v as object).forEach((x) => subschemas(x, visit));
    else if (Array.isArray(v)) v.forEach((x) => subschemas(x, visit));
    else subschemas(v, visit);
  }
}

/** The schemas OpenAPI 3.0 cannot express: they reach the recursive TypeTag/StructTag or a tuple. */
const NOT_OPENAPI_30 = ['MoveList', 'MoveModuleList', 'MoveResourceList', 'StructTag', 'TypeTag'];

describe('~standard.jsonSchema', () => {
  it('draft-2020-12: the schema as generated, with the definitions it reaches', () => {
    expect(AccountData['~standard'].jsonSchema.output({ target: 'draft-2020-12' })).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: ['sequence_number', 'authentication_key'],
      properties: {
        sequence_number: {
          type: 'integer',
          format: 'uint64',
          minimum: 0,
          maximum: 2 ** 64, // 18446744073709551615 in the spec, the same double
          description: 'Current expected sequence number of the account.',
        },
        authentication_key: { $ref: '#/$defs/Hash', description: 'Key used for validating transactions.' },
      },
      $defs: { Hash: { type: 'string', description: 'Hash (hex string).', pattern: '^(0x)?[0-9a-fA-F]+$' } },
    });
    // recursive: the root refers to its own definition
    const typeTag = json(standard.TypeTag as Std, 'draft-2020-12');
    expect(Object.keys(typeTag.$defs as object)).toEqual(['AccountAddress', 'StructTag', 'TypeTag']);
  });

  it('strict closes every object that lists its properties; live has both forms where the overlay says', () => {
    const strict = json(standardSchema('AccountData', { strict: true }) as Std, 'draft-2020-12');
    expect(strict.additionalProperties).toBe(false);
    expect(json(AccountData as Std, 'draft-2020-12')).not.toHaveProperty('additionalProperties');
    const live = json(standardSchema('SmrTransactionHeader', { profile: 'live' }) as Std, 'draft-2020-12');
    expect((live.properties as Record<string, Schema>).sender).toMatchObject({ anyOf: [expect.any(Object), expect.any(Object)] });
    expect(JSON.stringify(live)).not.toContain('x-live-forms');
  });

  it('input and output are the same schema, a new object on every call', () => {
    for (const target of ['draft-2020-12', 'draft-07', 'openapi-3.0']) {
      const { input, output } = AccountData['~standard'].jsonSchema;
      const first = output({ target });
      expect(input({ target })).toEqual(first);
      (first.properties as Record<string, unknown>).sequence_number = 'changed';
      expect((output({ target }).properties as Record<string, unknown>).sequence_number).not.toBe('changed');
    }
  });

  it('an unsupported target throws an Error naming it', () => {
    for (const target of ['draft-04', 'draft-2019-09', 'openapi-3.1', '']) {
      expect(() => AccountData['~standard'].jsonSchema.output({ target })).toThrow(
        new Error(`AccountData: JSON Schema target ${JSON.stringify(target)} is not supported (supported: draft-2020-12, draft-07, openapi-3.0)`),
      );
    }
    expect(() => standardSchema('AccountData', { profile: 'live', strict: true })['~standard'].jsonSchema.input({ target: 'draft-04' })).toThrow(
      /^AccountData \(live, strict\): JSON Schema target "draft-04" is not supported/,
    );
  });

  it('draft-07: definitions, items arrays for tuples, $ref alone (draft-07 ignores its siblings)', () => {
    const list = json(standard.MoveResourceList as Std, 'draft-07');
    expect(list.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(Object.keys(list.definitions as object)).toEqual(['AccountAddress', 'MoveListCursor', 'StructTag', 'TypeTag']);
    expect(((list.properties as Record<string, Schema>).resource!.items as Schema)).toMatchObject({
      type: 'array',
      items: [{ type: 'string' }, { $ref: '#/definitions/StructTag' }],
      additionalItems: false,
    });
    subschemas(list, (s) => {
      if ('$ref' in s) expect(Object.keys(s)).toEqual(['$ref']);
      expect(s).not.toHaveProperty('prefixItems');
      expect(s).not.toHaveProperty('$defs');
    });
  });

  it('openapi-3.0: references inlined, nullable, enum for const; recursive schemas and tuples throw, naming the target', () => {
    const v1 = json(responses.getAccountV1['200'] as Std, 'openapi-3.0');
    expect(v1).toMatchObject({ type: 'object', nullable: true, required: ['sequence_number', 'authentication_key'] });
    const output = json(standard.TransactionOutput as Std, 'openapi-3.0');
    expect((output.oneOf as Schema[])[0]).toEqual({ type: 'string', enum: ['Empty'], description: 'No output.' });
    const cursor = json(standard.MoveListCursor as Std, 'openapi-3.0');
    expect(cursor).toMatchObject({ type: 'array', nullable: true });
    const allowed = new Set([
      'title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'example', 'format', 'type', 'nullable',
      'enum', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
      'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'properties',
      'additionalProperties', 'items', 'allOf', 'anyOf', 'oneOf', 'not',
    ]);
    const failing: string[] = [];
    for (const name of exportedSchemaNames) {
      let schema: Schema;
      try {
        schema = json(standard[name as keyof typeof standard] as Std, 'openapi-3.0');
      } catch (e) {
        failing.push(name);
        expect((e as Error).message).toMatch(/JSON Schema target "openapi-3\.0" cannot express (the recursive schema (TypeTag|StructTag)|a tuple \(prefixItems\))/);
        expect((e as Error).message).toContain('use target "draft-2020-12" or "draft-07"');
        continue;
      }
      subschemas(schema, (s) => {
        for (const k of Object.keys(s)) expect(allowed, `${name}: ${k}`).toContain(k);
        if ('type' in s) expect(typeof s.type).toBe('string');
        expect(s.type).not.toBe('null');
      });
    }
    expect(failing).toEqual(NOT_OPENAPI_30);
  });

  const values = (name: string): unknown[] => [fixtures[name], liveTransactionV1, liveModuleAbi, liveModulesV1, liveResourceV1, null, 7, 'x', {}, []];

  it.each(exportedSchemaNames)('%s: every target, compiled by ajv, judges the fixtures as validate does, in every reading', (name) => {
    for (const r of READINGS) {
      const s = standardSchema(name as never, r.options) as Std;
      for (const [target, judge] of judges(name, r)) {
        if (!judge) continue;
        for (const value of values(name)) expect(judge(value), `${name} (${r.label}) ${target}: ${JSON.stringify(value)?.slice(0, 80)}`).toBe(valid(s, value));
      }
      expect(valid(s, fixtures[name])).toBe(true);
    }
  });

  it('responses: the JSON Schema of every documented response judges its bodies as validate does', () => {
    const bodies = (op: string): unknown[] => [okBodies[op], null, { record: [transactionInfoV2, { hash: 1 }] }, 'x', {}];
    for (const [op, byStatus] of Object.entries(responses as unknown as Record<string, Record<string, Std>>)) {
      for (const [status, s] of Object.entries(byStatus)) {
        const schema = json(s, 'draft-2020-12');
        const judge = compile(`${op} ${status}`, () => ({ ajv: ajv2020, schema }));
        for (const body of bodies(op)) expect(judge(body), `${op} ${status}`).toBe(valid(s, body));
      }
    }
    const live = standardResponse('listTransactionsV1', 200, { profile: 'live', strict: true }) as Std;
    const judge = compile('listTransactionsV1 200 live strict', () => ({ ajv: ajv2020, schema: json(live, 'draft-2020-12') }));
    expect(judge({ record: [liveTransactionV1] })).toBe(true);
    expect(valid(live, { record: [liveTransactionV1] })).toBe(true);
  });

  it('what JSON Schema cannot say: a u64 above 2^53-1 is valid JSON Schema, flagged by validate (unsafeInteger)', () => {
    const value = { sequence_number: 2 ** 53, authentication_key: '0x1' };
    const judge = compile('AccountData (documented) 2020-12', () => ({ ajv: ajv2020, schema: json(AccountData as Std, 'draft-2020-12') }));
    expect(judge(value)).toBe(true);
    expect(valid(AccountData as Std, value)).toBe(false);
  });
});
