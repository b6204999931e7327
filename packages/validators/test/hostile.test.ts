/**
 * Hostile values: `__proto__` and `constructor` keys, nesting 10,000 deep, 10 MB strings, arrays of
 * 300,000 items (`MANY`: more than one call takes as arguments). No crash, no prototype pollution, the
 * right verdicts. That the time they take is linear in their size (up to a million items) is
 * hostile.perf.test.ts's check (the `perf` project: timings want the CPU to themselves).
 */
import { describe, expect, it } from 'vitest';
import {
  ValidationError,
  assertTypeTag,
  isAccountData,
  isTypeTag,
  validateAccountData,
  validateAccountStatementV2,
  validateEvent,
  validateMoveListCursor,
  validateMoveValue,
  validateMoveValueResponseV1,
  validateResponse,
  validateStructTag,
  validateTransactionOutput,
  validateTypeTag,
} from '@x/validators';
import { structTag, transactionInfoV2 } from './fixtures.js';
import { fns, issuesOf } from './helpers.js';
import { MANY, MB, moveValues as values, nearMisses, specPatterns as patterns, splitByOverflow, u8s } from './hostile-values.ts';
import { parseHexPattern } from '../../../tools/gen/src/validators/transform.ts';

const MAX_DEPTH_ISSUE = { path: '', keyword: 'maxDepth', message: 'is nested too deeply to validate (the call stack ran out)' };

/** Own property names and descriptors of Object.prototype, to compare before and after. */
const prototypeState = () => JSON.stringify(Object.getOwnPropertyNames(Object.prototype).sort());

describe('__proto__ and constructor keys (as JSON.parse makes them: own properties)', () => {
  const before = prototypeState();
  const body = `{"sequence_number": 1, "authentication_key": "0x1", "__proto__": {"polluted": true, "sequence_number": 2}, "constructor": {"prototype": {"polluted": true}}}`;

  it('are unknown properties: accepted when lenient, reported when strict, the prototype untouched', () => {
    const value: unknown = JSON.parse(body);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(validateAccountData(value)).toEqual({ ok: true, value });
    expect(issuesOf(validateAccountData(value, { strict: true, allErrors: true }))).toEqual([
      { path: '/__proto__', keyword: 'additionalProperties', message: 'unknown property "__proto__" is not allowed' },
      { path: '/constructor', keyword: 'additionalProperties', message: 'unknown property "constructor" is not allowed' },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(prototypeState()).toBe(before);
  });

  it('do not stand in for required properties', () => {
    const value: unknown = JSON.parse('{"__proto__": {"sequence_number": 1, "authentication_key": "0x1"}}');
    expect(issuesOf(validateAccountData(value))).toEqual([
      { path: '/sequence_number', keyword: 'required', message: 'required property "sequence_number" is missing' },
    ]);
    expect(isAccountData(value)).toBe(false);
  });

  it('are unknown keys of a one-key union', () => {
    expect(issuesOf(validateTransactionOutput(JSON.parse('{"__proto__": "Success"}')))).toEqual([
      { path: '/__proto__', keyword: 'propertyNames', message: 'unknown key "__proto__"; the allowed keys are Dkg, Move, Oracle, Evm' },
    ]);
    expect(issuesOf(validateTransactionOutput(JSON.parse('{"Dkg": "Success", "constructor": "Success"}')))[0]).toMatchObject({
      path: '',
      keyword: 'maxProperties',
    });
    expect(validateMoveValue(JSON.parse('{"Struct": {"__proto__": {"x": 1}, "constructor": 1}}'), { strict: true }).ok).toBe(true);
    expect(prototypeState()).toBe(before);
  });

  it('in every record of a page and in a response body', () => {
    const page = `{"record": [${JSON.stringify(transactionInfoV2).replace(/^\{/, '{"__proto__": {"x": 1}, ')}], "__proto__": null}`;
    const value: unknown = JSON.parse(page);
    expect(validateResponse('listTransactionsV2', 200, value).ok).toBe(true);
    expect(issuesOf(validateResponse('listTransactionsV2', 200, value, { strict: true, allErrors: true })).map((i) => i.path)).toEqual([
      '/__proto__',
      '/record/0/__proto__',
    ]);
    expect(prototypeState()).toBe(before);
  });

  it('objects without a prototype validate like plain ones', () => {
    const value = Object.assign(Object.create(null) as object, { sequence_number: 1, authentication_key: '0x1' });
    expect(validateAccountData(value, { strict: true }).ok).toBe(true);
  });
});

describe('a polluted Object.prototype', () => {
  it('is refused with one prototypePollution issue instead of answers it would falsify', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.authentication_key = '0x1';
    try {
      // without the guard `{ sequence_number: 1 }` would pass: the look-up finds the prototype's key
      expect(validateAccountData({ sequence_number: 1 })).toEqual({
        ok: false,
        issues: [
          {
            path: '',
            keyword: 'prototypePollution',
            message: 'cannot be validated: Object.prototype has the enumerable property "authentication_key" (prototype pollution)',
          },
        ],
      });
      expect(isAccountData({ sequence_number: 1, authentication_key: '0x1' })).toBe(false);
    } finally {
      delete proto.authentication_key;
    }
    expect(isAccountData({ sequence_number: 1 })).toBe(false);
    expect(isAccountData({ sequence_number: 1, authentication_key: '0x1' })).toBe(true);
  });
});

describe('nesting 10,000 deep', () => {
  const vectors = (depth: number, leaf = '"u8"') => JSON.parse(`${'{"vector":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`) as unknown;
  const structs = (depth: number, leaf: unknown = 'u8') => {
    let t: unknown = leaf;
    for (let i = 0; i < depth; i++) t = { struct: { ...structTag, type_args: [t] } };
    return t;
  };

  it('a TypeTag {vector: {vector: ...}} gives one maxDepth issue, never a RangeError', () => {
    for (const depth of [10_000, 100_000]) {
      const value = vectors(depth);
      for (const options of [{}, { strict: true }, { allErrors: true }, { strict: true, allErrors: true }]) {
        // Node's default stack holds some thousand levels; a bigger stack would validate it (and say valid)
        const result = validateTypeTag(value, options);
        expect(result.ok ? result : result.issues).toEqual(result.ok ? { ok: true, value } : [MAX_DEPTH_ISSUE]);
      }
      expect(() => isTypeTag(value)).not.toThrow();
      expect(() => assertTypeTag(value)).toThrow(ValidationError);
    }
    expect(validateTypeTag(vectors(100_000))).toEqual({ ok: false, issues: [MAX_DEPTH_ISSUE] });
  });

  it('an invalid TypeTag deep down is never accepted', () => {
    expect(validateTypeTag(vectors(10_000, '"u7"')).ok).toBe(false);
    expect(validateTypeTag(vectors(100_000, '"u7"')).ok).toBe(false);
    // within the stack, the issue is the real one, at its path
    expect(issuesOf(validateTypeTag(vectors(200, '"u7"')))[0]).toMatchObject({ path: '/vector'.repeat(200), keyword: 'enum' });
  });

  it('StructTag nesting, through a v1 resource listing response too', () => {
    expect(validateStructTag({ ...structTag, type_args: [structs(10_000)] })).toEqual({ ok: false, issues: [MAX_DEPTH_ISSUE] });
    expect(validateTypeTag(structs(10_000), { strict: true, allErrors: true })).toEqual({ ok: false, issues: [MAX_DEPTH_ISSUE] });
    const listing = { Resources: { resource: [['r', { ...structTag, type_args: [structs(10_000)] }]] } };
    expect(validateResponse('listResourcesV1', 200, listing, { strict: true })).toEqual({ ok: false, issues: [MAX_DEPTH_ISSUE] });
    expect(validateTypeTag(structs(50), { strict: true }).ok).toBe(true);
  });

  it('a cyclic value (not JSON) ends the same way', () => {
    const cyclic: { vector: unknown } = { vector: null };
    cyclic.vector = cyclic;
    expect(validateTypeTag(cyclic)).toEqual({ ok: false, issues: [MAX_DEPTH_ISSUE] });
  });

  it('open objects (MoveValue Struct, event data) are not walked, so any depth is fine', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`) as unknown;
    expect(validateMoveValue({ Struct: deep }, { strict: true }).ok).toBe(true);
    expect(validateMoveValueResponseV1({ result: [{ Struct: deep }, null] }, { allErrors: true }).ok).toBe(true);
    expect(validateEvent({ guid: 'g', sequence_number: 1, type: 't', data: deep }, { strict: true }).ok).toBe(true);
  });

  it('validation works as before after a stack overflow', () => {
    validateTypeTag(vectors(100_000));
    expect(validateTypeTag({ vector: { struct: structTag } }).ok).toBe(true);
    expect(issuesOf(validateTypeTag({ vector: { vector: 'u7' } }))[0]).toMatchObject({ path: '/vector/vector', keyword: 'enum' });
  });
});

describe('10 MB strings', () => {
  it('finds the patterns of both specs', () => {
    expect(patterns).toContain('^(0x)?[0-9a-fA-F]{1,64}$');
    expect(patterns).toContain('^[a-z0-9]+_[a-z0-9]+$');
    expect(patterns.length).toBeGreaterThanOrEqual(10);
  });

  it('a spec pattern that overflows the stack on 10 MB is not used as a regular expression', () => {
    const { regexps, overflowing } = splitByOverflow(nearMisses(10 * MB));
    for (const { pattern, error } of overflowing) {
      expect(error).toBeInstanceOf(RangeError);
      expect(parseHexPattern(pattern), pattern).toBeDefined();
    }
    expect(regexps.length).toBeGreaterThanOrEqual(9);
  });

  it('the validators: right verdicts, messages without the value', () => {
    const hex = `0x${'a'.repeat(10 * MB)}`;
    expect(fns('HexString').validate(hex).ok).toBe(true);
    expect(fns('Hash').validate(hex).ok).toBe(true);
    expect(fns('AccountAddress').validate(hex).ok).toBe(false); // more than 64 digits
    expect(validateMoveValue({ Bytes: hex }).ok).toBe(true);
    expect(validateMoveValue({ Bytes: `${hex}a` }).ok).toBe(false); // an odd number of digits
    const bad = issuesOf(fns('HexString').validate(`${hex}g`));
    expect(bad).toEqual([{ path: '', keyword: 'pattern', message: 'must be a hex string: any number of hex digits, with or without 0x' }]);
    expect(fns('DecimalString').validate('1'.repeat(10 * MB)).ok).toBe(true);
    expect(fns('SignedDecimalString').validate(`-${'1'.repeat(5 * MB)}.${'1'.repeat(5 * MB)}x`).ok).toBe(false);
  });

  it('a 10 MB key is shortened in the message, whole in the path', () => {
    const key = 'k'.repeat(10 * MB);
    const [i] = issuesOf(validateTransactionOutput({ [key]: 'Success' }));
    expect(i!.path).toBe(`/${key}`);
    expect(i!.message).toBe(`unknown key "${'k'.repeat(64)}..."; the allowed keys are Dkg, Move, Oracle, Evm`);
    expect(issuesOf(validateAccountData({ sequence_number: 1, authentication_key: '0x1', [key]: 1 }, { strict: true }))[0]!.message).toHaveLength(
      'unknown property "..." is not allowed'.length + 64,
    );
  });
});

describe('arrays of 300,000 items', () => {
  it('u8 cursors: valid, and the one bad item found at its index', () => {
    expect(validateMoveListCursor(u8s(MANY)).ok).toBe(true);
    expect(issuesOf(validateMoveListCursor(u8s(MANY, 256)))).toEqual([{ path: `/${MANY - 1}`, keyword: 'maximum', message: 'must be <= 255' }]);
  });

  it('MoveValues and transactions: valid', () => {
    expect(validateMoveValueResponseV1(values(MANY, { U64: '18446744073709551615' })).ok).toBe(true);
    const records = (n: number) => ({ record: new Array<unknown>(n).fill(transactionInfoV2) });
    expect(validateAccountStatementV2(records(MANY / 10), { strict: true }).ok).toBe(true);
  });

  it('allErrors with 300,000 bad items: capped issues', () => {
    const bad = (n: number) => values(n, { U8: 1, U16: 1 });
    const issues = issuesOf(validateMoveValueResponseV1(bad(MANY), { allErrors: true, strict: true }));
    expect(issues).toHaveLength(100);
    expect(issues[99]).toMatchObject({ path: '/result/99', keyword: 'maxProperties' });
    expect(issuesOf(validateMoveValueResponseV1(bad(MANY), { allErrors: true, maxIssues: 3 })).map((i) => i.path)).toEqual([
      '/result/0',
      '/result/1',
      '/result/2',
    ]);
  });

  it('an object of 300,000 keys: one issue naming at most five of them', () => {
    const keys: Record<string, number> = {};
    for (let i = 0; i < MANY; i++) keys[`k${i}`] = i;
    const [issue] = issuesOf(validateTransactionOutput(keys));
    expect(issue).toEqual({
      path: '',
      keyword: 'maxProperties',
      message: 'must have exactly one key, one of Dkg, Move, Oracle, Evm (found "k0", "k1", "k2", "k3", "k4", ...)',
    });
    expect(issuesOf(validateAccountData(keys, { strict: true, allErrors: true, maxIssues: 2 }))).toHaveLength(2);
  });
});
