/**
 * `@x/validators/standard`: a Standard Schema v1 for every schema and every documented response, whose
 * `validate` gives `validateX`'s verdict and issues (paths as keys), in every reading. The same on
 * values fast-check builds from the specs and mutates: standard.perf.test.ts (the `perf` project).
 */
import { describe, expect, it } from 'vitest';
import * as validators from '../src/index.ts';
import * as standard from '../src/standard.ts';
import { AccountData, MoveValue, TransactionOutput, TypeTag, responses, standardResponse, standardSchema } from '../src/standard.ts';
import { pointerToPath } from '../src/standard/adapter.ts';
import { responses as rules } from '../src/generated/responses.ts';
import { automationRecordTransactionV3, fixtures, moveModule, okBodies, smrTransactionHeader, structTag, transactionInfoV2, userTransactionV3 } from './fixtures.js';
import { exportedSchemaNames, fns } from './helpers.js';
import { liveModuleAbi, liveTransactionV1, liveTransactionV3 } from './live-bodies.ts';
import { expected, OPTIONS, pointerOf, READINGS, run, type Std } from './standard-results.ts';

const table = standard as unknown as Record<string, unknown>;
const std = (name: string): Std => table[name] as Std;

describe('@x/validators/standard exports', () => {
  it('one Standard Schema per schema with a validateX, named as the type', () => {
    const schemaExports = Object.keys(table).filter((k) => typeof table[k] === 'object' && table[k] !== null && '~standard' in (table[k] as object));
    expect(schemaExports.sort()).toEqual(exportedSchemaNames);
    for (const name of exportedSchemaNames) {
      const props = std(name)['~standard'];
      expect(props.version).toBe(1);
      expect(props.vendor).toBe('x-validators');
      expect(typeof props.validate).toBe('function');
      expect(typeof props.jsonSchema.input).toBe('function');
      expect(typeof props.jsonSchema.output).toBe('function');
    }
  });

  it('one per documented operation and status, as validateResponse knows them', () => {
    expect(Object.keys(responses)).toEqual(Object.keys(rules));
    for (const [op, statuses] of Object.entries(rules)) {
      const byStatus = (responses as unknown as Record<string, Record<string, Std>>)[op]!;
      expect(Object.keys(byStatus), op).toEqual(Object.keys(statuses));
      for (const s of Object.values(byStatus)) expect(s['~standard']).toMatchObject({ version: 1, vendor: 'x-validators' });
    }
  });
});

describe('validate', () => {
  it('passes every valid fixture as { value } (the value itself, no issues key), in every reading', () => {
    for (const name of exportedSchemaNames) {
      const value = fixtures[name];
      for (const options of READINGS) {
        const result = run(standardSchema(name as never, options), value);
        expect(result, `${name} ${JSON.stringify(options)}`).toStrictEqual({ value });
        expect(result.value).toBe(value);
        expect('issues' in result).toBe(false);
      }
      expect(run(std(name), value)).toStrictEqual({ value });
    }
  });

  it('works with expect.schemaMatching (vitest 4)', () => {
    expect(fixtures.AccountData).toEqual(expect.schemaMatching(AccountData));
    expect({ sequence_number: '1', authentication_key: '0x1' }).not.toEqual(expect.schemaMatching(AccountData));
    expect({ Move: { gas_used: 7, events: [], vm_status: 'Executed' } }).toEqual(expect.schemaMatching(TransactionOutput));
    expect({ Move: { gas_used: '7', events: [], vm_status: 'Executed' } }).not.toEqual(expect.schemaMatching(TransactionOutput));
    expect({ list: [{ U8: 1 }, { Bool: true }] }).toEqual({ list: [expect.schemaMatching(MoveValue), expect.schemaMatching(MoveValue)] });
    expect([{ U8: 256 }]).not.toEqual([expect.schemaMatching(MoveValue)]);
    expect(liveTransactionV1).toEqual(expect.schemaMatching(standardSchema('TransactionInfoV1', { profile: 'live', strict: true })));
    expect(liveTransactionV1).not.toEqual(expect.schemaMatching(standard.TransactionInfoV1));
    expect([liveTransactionV3]).toEqual(expect.schemaMatching(standardSchema('AccountStatementV3', { profile: 'live', strict: true })));
    expect([liveTransactionV3]).not.toEqual(expect.schemaMatching(standard.AccountStatementV3));
    expect(null).toEqual(expect.schemaMatching(responses.getAccountV1['200']));
    expect(null).not.toEqual(expect.schemaMatching(responses.getAccountV2['200']));
  });

  it('gives the issue of the branch a union key selects, its path as keys with numbers for array indices', () => {
    expect(run(TransactionOutput, { Move: { gas_used: '7', events: [], vm_status: 'x' } })).toStrictEqual({
      issues: [{ message: 'must be integer', path: ['Move', 'gas_used'] }],
    });
    const page = { record: [transactionInfoV2, { ...transactionInfoV2, output: { Move: { gas_used: 1, events: [{}], vm_status: 'x' } } }] };
    expect(run(standard.AccountStatementV2, page)).toStrictEqual({
      issues: [{ message: 'required property "guid" is missing', path: ['record', 1, 'output', 'Move', 'events', 0, 'guid'] }],
    });
    expect(run(AccountData, null)).toStrictEqual({ issues: [{ message: 'must be object', path: [] }] });
  });

  const invalid: [name: string, value: unknown][] = [
    ['AccountData', { authentication_key: '0x1' }],
    ['AccountData', { sequence_number: 1.5, authentication_key: '0x1', extra: 1 }],
    ['AccountData', { sequence_number: 2 ** 53, authentication_key: '0x1' }],
    ['AccountData', 'x'],
    ['EpochId', { chain_id: 256, epoch: -1 }],
    ['SmrTransactionHeader', { ...smrTransactionHeader, chain_id: -1, sender: 'zz' }],
    ['TransactionOutput', 'Nothing'],
    ['TransactionOutput', { Move: { gas_used: 1, events: [], vm_status: 'x' }, Dkg: 'Success' }],
    ['TransactionOutput', { Mvoe: {} }],
    ['TransactionOutput', { Dkg: 'Done' }],
    ['AccountStatementV2', { record: [transactionInfoV2, { ...transactionInfoV2, header: { ...smrTransactionHeader, chain_id: undefined } }, 7] }],
    ['AccountStatementV1', { record: [liveTransactionV1] }],
    ['AccountStatementV3', [userTransactionV3, { ...userTransactionV3, txn_type: 'oracle' }, { ...automationRecordTransactionV3, status: 'Lost', x: 1 }, 7]],
    ['AccountStatementV3', [liveTransactionV3]],
    ['TransactionV3', { ...userTransactionV3, txn_type: undefined }],
    ['TransactionV3', { ...userTransactionV3, txn_type: 'block_metadata', extra: 1 }],
    ['BlockMetadataInfoV3', { hash: '0xzz', output: 'Nothing' }],
    ['AutomationRecordInfoV3', { status: 'Done', anything: true }],
    ['ErrorMessage', { message: 7, code: 410 }],
    ['TypeTag', { vector: { vector: { struct: { ...structTag, type_args: ['u7', { vector: 8 }] } } } }],
    ['StructTag', { ...structTag, 'a/b~c': 1, 0: 2 }],
    ['MoveListCursor', [0, 256, -1, 'x']],
    ['MoveResourceList', { resource: [['r', structTag, 'extra'], ['only']], cursor: 'ab' }],
    ['MoveList', { Resources: { resource: [] }, Modules: { modules: [] } }],
    ['MoveModule', liveModuleAbi],
    ['MoveModule', { ...moveModule, name: 7 }],
    ['MoveValue', { U8: 300 }],
    ['MoveValue', { Bytes: '0x0' }],
    ['MoveValueResponseV1', { result: [{ U8: 1 }, { U64: 1 }, { Vector: [1] }, { Struct: [] }] }],
    ['Candle', { ...(fixtures.Candle as object), open: '1', close: null }],
    ['Instrument', { ...(fixtures.Instrument as object), '24h_high': undefined, 'x/y': 1 }],
    ['LatestResponse', { currentPage: 1, totalPages: 1, totalRecords: 1, pageSize: 10, instruments: [{}, 'x'] }],
    ['HistoryResponse', { status: 'ok', data: [{}] }],
  ];

  it.each(invalid)('%s: the same issues as validateX, in every reading and with allErrors', (name, value) => {
    let rejected = 0;
    for (const options of OPTIONS) {
      const reference = fns(name).validate(value, options);
      const result = run(standardSchema(name as never, options), value);
      if (reference.ok) {
        expect(result).toStrictEqual({ value });
        continue;
      }
      rejected++;
      expect(result, JSON.stringify(options)).toStrictEqual({ issues: expected(reference.issues, value) });
      // the paths are the pointers, each segment a key of the value
      expect(result.issues!.map((i) => pointerOf(i.path!))).toEqual(reference.issues.map((i) => i.path));
    }
    expect(rejected).toBeGreaterThan(0);
    // the default reading is validateX's default
    const reference = fns(name).validate(value);
    expect(run(std(name), value)).toStrictEqual(reference.ok ? { value } : { issues: expected(reference.issues, value) });
  });

  it('paths: ~0 and ~1 unescaped, numbers only for array indices (an object key "0" stays a string)', () => {
    const result = run(standardSchema('StructTag', { strict: true, allErrors: true }), { ...structTag, 'a/b~c': 1, 0: 2, type_args: ['u7'] });
    expect(result.issues!.map((i) => i.path)).toEqual(
      expect.arrayContaining([['0'], ['a/b~c'], ['type_args', 0]]),
    );
    expect(pointerToPath('/a~1b~0c/~01', { 'a/b~c': {} })).toEqual(['a/b~c', '~1']);
    expect(pointerToPath('/x/1/2', { x: [[0, 1, 2], [0, 1, 2]] })).toEqual(['x', 1, 2]);
    expect(pointerToPath('/x/01', { x: [] })).toEqual(['x', '01']);
    expect(pointerToPath('', 1)).toEqual([]);
    // a getter that throws when read again leaves the rest of the path as strings
    const hostile = { get a(): unknown { throw new Error('no'); } };
    expect(pointerToPath('/a/0', hostile)).toEqual(['a', '0']);
  });

  it('values that cannot be judged: one issue at the root, as validateX gives it', () => {
    const deep = JSON.parse(`${'{"vector":'.repeat(100_000)}"u8"${'}'.repeat(100_000)}`) as unknown;
    expect(run(TypeTag, deep)).toStrictEqual({ issues: [{ message: 'is nested too deeply to validate (the call stack ran out)', path: [] }] });
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = 1;
    try {
      expect(run(AccountData, fixtures.AccountData)).toStrictEqual({
        issues: [{ message: 'cannot be validated: Object.prototype has the enumerable property "polluted" (prototype pollution)', path: [] }],
      });
    } finally {
      delete proto.polluted;
    }
  });
});

describe('standardSchema(name, options)', () => {
  it('the live reading accepts what live nodes send; strict rejects unknown properties', () => {
    expect(run(standardSchema('MoveModule', { profile: 'live' }), liveModuleAbi)).toStrictEqual({ value: liveModuleAbi });
    expect(run(standardSchema('MoveModule'), liveModuleAbi).issues).toBeDefined();
    const extra = { ...(fixtures.AccountData as object), extra: 1 };
    expect(run(standardSchema('AccountData'), extra)).toStrictEqual({ value: extra });
    expect(run(standardSchema('AccountData', { strict: true }), extra)).toStrictEqual({
      issues: [{ message: 'unknown property "extra" is not allowed', path: ['extra'] }],
    });
  });

  it('allErrors and maxIssues as validateX', () => {
    const bad = { record: [1, 2, 3, 4] };
    expect(run(standardSchema('AccountStatementV2'), bad).issues).toHaveLength(1);
    expect(run(standardSchema('AccountStatementV2', { allErrors: true }), bad).issues).toHaveLength(4);
    expect(run(standardSchema('AccountStatementV2', { allErrors: true, maxIssues: 2 }), bad).issues).toHaveLength(2);
  });

  it('throws a RangeError for an unknown name or bad options, when created', () => {
    expect(() => standardSchema('Nope' as never)).toThrow(/^unknown schema "Nope"; known schemas: ErrorMessage, AccountStatementV3, TransactionV3, .*HexString, /);
    expect(() => standardSchema('validateResponse' as never)).toThrow(RangeError);
    expect(() => standardSchema('toString' as never)).toThrow(RangeError);
    expect(() => standardSchema('AccountData', { profile: 'Live' as never })).toThrow(new RangeError(`profile must be 'documented' or 'live', got "Live"`));
    expect(() => standardSchema('AccountData', { allErrors: true, maxIssues: 0 })).toThrow(RangeError);
  });

  it('each call gives a new schema; the default exports are the documented, lenient reading', () => {
    expect(standardSchema('AccountData')).not.toBe(standardSchema('AccountData'));
    expect(AccountData['~standard'].jsonSchema.output({ target: 'draft-2020-12' })).toEqual(
      standardSchema('AccountData', { profile: 'documented', strict: false })['~standard'].jsonSchema.output({ target: 'draft-2020-12' }),
    );
  });
});

describe('responses and standardResponse', () => {
  it('every valid 200 body passes; v1 answers accept null, v2 ones do not; a status documented as {} accepts anything', () => {
    for (const [op, body] of Object.entries(okBodies)) {
      const s = (responses as unknown as Record<string, Record<string, Std>>)[op]!['200']!;
      expect(run(s, body), op).toStrictEqual({ value: body });
      expect(run(s, null), op).toStrictEqual(validators.validateResponse(op, 200, null).ok ? { value: null } : { issues: expect.any(Array) });
    }
    expect(run(responses.getAccountV1['200'], null)).toStrictEqual({ value: null });
    expect(run(responses.getAccountV2.default, 'anything')).toStrictEqual({ value: 'anything' });
    expect(run(responses.getHistory['404'], { message: 'x' })).toStrictEqual({ value: { message: 'x' } });
  });

  it('the same issues as validateResponse, in every reading', () => {
    const cases: [string, number, unknown][] = [
      ['getAccountV1', 200, { sequence_number: 'x' }],
      ['listTransactionsV2', 200, { record: [transactionInfoV2, { ...transactionInfoV2, hash: 7 }] }],
      ['listTransactionsV1', 200, { record: [liveTransactionV1] }],
      ['listTransactionsV3', 200, [userTransactionV3, liveTransactionV3, { ...userTransactionV3, txn_type: 'x' }]],
      ['listTransactionsV3', 410, { oldest: 1 }],
      ['getLatest', 200, { instruments: [] }],
    ];
    for (const [op, status, body] of cases) {
      for (const options of OPTIONS) {
        const reference = validators.validateResponse(op, status, body, options);
        const result = run(standardResponse(op as never, status as never, options), body);
        expect(result, `${op} ${JSON.stringify(options)}`).toStrictEqual(reference.ok ? { value: body } : { issues: expected(reference.issues, body) });
      }
    }
    expect(run(standardResponse('listTransactionsV1', 200, { profile: 'live' }), { record: [liveTransactionV1] }).issues).toBeUndefined();
  });

  it('a number is looked up as validateResponse does (exact, NXX, default); an unknown operation or status throws', () => {
    expect(run(standardResponse('getAccountV2', 503), 'busy')).toStrictEqual({ value: 'busy' });
    expect(run(standardResponse('getAccountV2', 'default'), 'busy')).toStrictEqual({ value: 'busy' });
    expect(run(standardResponse('getAccountV2', 200), null).issues).toBeDefined();
    expect(() => standardResponse('getHistory', 503)).toThrow(new RangeError('status 503 is not documented for getHistory (documented: 200, 400, 404, 500)'));
    expect(() => standardResponse('getHistory', '2XX' as never)).toThrow(RangeError);
    expect(() => standardResponse('nope' as never, 200)).toThrow(/^unknown operation "nope"; known operations: getAccountV1, /);
    expect(() => standardResponse('getAccountV1', 200, { profile: 'x' as never })).toThrow(RangeError);
    expect(() => standardResponse('getAccountV1', 'default', { profile: 'x' as never })).toThrow(RangeError);
  });
});
