/**
 * Hostile values: `__proto__` and `constructor` keys, nesting 10,000 deep, 10 MB strings, arrays of a
 * million items. No crash, no prototype pollution, the right verdicts, time linear in the size (shown as
 * a ratio of two sizes measured in the same run, not as a wall-clock limit).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
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
import { parseHexPattern } from '../../../tools/gen/src/validators/transform.ts';

const MAX_DEPTH_ISSUE = { path: '', keyword: 'maxDepth', message: 'is nested too deeply to validate (the call stack ran out)' };

/** Own property names and descriptors of Object.prototype, to compare before and after. */
const prototypeState = () => JSON.stringify(Object.getOwnPropertyNames(Object.prototype).sort());

/** Best of `n` timings of `fn`, in ms. */
function time(fn: () => unknown, n: number): number {
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

/**
 * Linear within a generous factor: ten times the input takes less than 50 times as long (1 ms at least
 * as the base). Quadratic work takes 100 times as long, so it still fails; the factor leaves room for a
 * loaded CI machine (the best of three runs each, so one run slowed by another process does not count).
 */
function expectLinear(small: () => unknown, large: () => unknown): void {
  const a = time(small, 3);
  const b = time(large, 3);
  expect(b, `10x the input took ${b.toFixed(1)} ms vs ${a.toFixed(1)} ms`).toBeLessThan(Math.max(a, 1) * 50);
}

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
      { path: '/__proto__', keyword: 'propertyNames', message: 'unknown key "__proto__"; the allowed keys are Dkg, Move, Oracle' },
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
  const MB = 2 ** 20;

  /** Every `pattern` in both spec documents (schemas and parameters). */
  const patterns = [
    ...new Set(
      ['node-rpc.openapi.yaml', 'price-history.openapi.yaml'].flatMap((file) => {
        const doc: unknown = parse(readFileSync(new URL(`../../../specs/${file}`, import.meta.url), 'utf8'));
        const found: string[] = [];
        const walk = (v: unknown): void => {
          if (Array.isArray(v)) v.forEach(walk);
          else if (v && typeof v === 'object') {
            for (const [k, x] of Object.entries(v)) {
              if (k === 'pattern' && typeof x === 'string') found.push(x);
              else walk(x);
            }
          }
        };
        walk(doc);
        return found;
      }),
    ),
  ];

  /** Long strings that almost match: one character repeated, then a character no pattern ends with. */
  const nearMisses = (n: number) =>
    ['0', 'a', '1.'].flatMap((c) => {
      const body = c.repeat(Math.ceil(n / c.length));
      return [`${body}!`, `0x${body}!`, `-${body}_${body}x`];
    });
  const small = nearMisses(MB);
  const large = nearMisses(10 * MB);

  it('finds the patterns of both specs', () => {
    expect(patterns).toContain('^(0x)?[0-9a-fA-F]{1,64}$');
    expect(patterns).toContain('^[a-z0-9]+_[a-z0-9]+$');
    expect(patterns.length).toBeGreaterThanOrEqual(10);
  });

  it('every spec pattern runs in time linear in the string (1 MB vs 10 MB), or is not used as a regular expression', () => {
    // V8 keeps a backtrack entry per iteration of a repeated group: `^0x([0-9a-fA-F]{2})*$` (MoveValue
    // Bytes) throws "Maximum call stack size exceeded" on 10 MB. The validators check every hex pattern
    // in code (`hexPattern`), with `^(0x)?[0-9a-fA-F]*$` for the digits, and never run it.
    const overflowing: string[] = [];
    const regexps = patterns
      .filter((p) => {
        const re = new RegExp(p, 'u');
        try {
          for (const s of large) re.test(s);
          return true;
        } catch (e) {
          expect(e).toBeInstanceOf(RangeError);
          overflowing.push(p);
          return false;
        }
      })
      .map((p) => new RegExp(p, 'u'));
    for (const p of overflowing) expect(parseHexPattern(p), p).toBeDefined();
    expect(regexps.length).toBeGreaterThanOrEqual(9);
    const run = (inputs: string[]) => () => {
      for (const re of regexps) for (const s of inputs) re.test(s);
    };
    expectLinear(run(small), run(large));
  });

  it('the validators: right verdicts, messages without the value, linear time', () => {
    const hex = `0x${'a'.repeat(10 * MB)}`;
    expect(fns('HexString').validate(hex).ok).toBe(true);
    expect(fns('Hash').validate(hex).ok).toBe(true);
    expect(fns('AccountAddress').validate(hex).ok).toBe(false); // more than 64 digits
    expect(validateMoveValue({ Bytes: hex }).ok).toBe(true);
    expect(validateMoveValue({ Bytes: `${hex}a` }).ok).toBe(false); // an odd number of digits
    const bad = issuesOf(fns('HexString').validate(`${hex}g`));
    expect(bad).toEqual([{ path: '', keyword: 'pattern', message: 'must match pattern "^(0x)?[0-9a-fA-F]*$"' }]);
    expect(fns('DecimalString').validate('1'.repeat(10 * MB)).ok).toBe(true);
    expect(fns('SignedDecimalString').validate(`-${'1'.repeat(5 * MB)}.${'1'.repeat(5 * MB)}x`).ok).toBe(false);

    const names = ['HexString', 'Hash', 'Identity', 'AccountAddress', 'Address', 'DecimalString', 'SignedDecimalString', 'TradingPair'];
    const run = (inputs: string[]) => () => {
      for (const name of names) for (const s of inputs) fns(name).validate(s);
      for (const s of inputs) validateMoveValue({ Bytes: s });
    };
    expectLinear(run(small), run(large));
  });

  it('a 10 MB key is shortened in the message, whole in the path', () => {
    const key = 'k'.repeat(10 * MB);
    const [i] = issuesOf(validateTransactionOutput({ [key]: 'Success' }));
    expect(i!.path).toBe(`/${key}`);
    expect(i!.message).toBe(`unknown key "${'k'.repeat(64)}..."; the allowed keys are Dkg, Move, Oracle`);
    expect(issuesOf(validateAccountData({ sequence_number: 1, authentication_key: '0x1', [key]: 1 }, { strict: true }))[0]!.message).toHaveLength(
      'unknown property "..." is not allowed'.length + 64,
    );
  });
});

describe('arrays of a million items', () => {
  const M = 1_000_000;
  const u8s = (n: number, last = 7) => Object.assign(new Array<number>(n).fill(7), { [n - 1]: last });
  const values = (n: number, item: unknown) => ({ result: new Array<unknown>(n).fill(item) });

  it('u8 cursors: valid, and the one bad item found at its index', () => {
    expect(validateMoveListCursor(u8s(M)).ok).toBe(true);
    expect(issuesOf(validateMoveListCursor(u8s(M, 256)))).toEqual([{ path: `/${M - 1}`, keyword: 'maximum', message: 'must be <= 255' }]);
    expectLinear(() => validateMoveListCursor(u8s(M / 10)), () => validateMoveListCursor(u8s(M)));
  });

  it('MoveValues and transactions: linear', () => {
    expect(validateMoveValueResponseV1(values(M, { U64: '18446744073709551615' })).ok).toBe(true);
    expectLinear(
      () => validateMoveValueResponseV1(values(M / 10, { U8: 1 }), { strict: true }),
      () => validateMoveValueResponseV1(values(M, { U8: 1 }), { strict: true }),
    );
    const records = (n: number) => ({ record: new Array<unknown>(n).fill(transactionInfoV2) });
    expect(validateAccountStatementV2(records(M / 10), { strict: true }).ok).toBe(true);
  });

  it('allErrors with a million bad items: capped issues, linear time (ajv concatenated errors quadratically)', () => {
    const bad = (n: number) => values(n, { U8: 1, U16: 1 });
    const issues = issuesOf(validateMoveValueResponseV1(bad(M), { allErrors: true, strict: true }));
    expect(issues).toHaveLength(100);
    expect(issues[99]).toMatchObject({ path: '/result/99', keyword: 'maxProperties' });
    expect(issuesOf(validateMoveValueResponseV1(bad(M), { allErrors: true, maxIssues: 3 })).map((i) => i.path)).toEqual([
      '/result/0',
      '/result/1',
      '/result/2',
    ]);
    expectLinear(
      () => validateMoveValueResponseV1(values(M / 10, { U8: 256 }), { allErrors: true }),
      () => validateMoveValueResponseV1(values(M, { U8: 256 }), { allErrors: true }),
    );
  });

  it('an object of a million keys: one issue naming at most five of them', () => {
    const keys: Record<string, number> = {};
    for (let i = 0; i < M; i++) keys[`k${i}`] = i;
    const [issue] = issuesOf(validateTransactionOutput(keys));
    expect(issue).toEqual({
      path: '',
      keyword: 'maxProperties',
      message: 'must have exactly one key, one of Dkg, Move, Oracle (found "k0", "k1", "k2", "k3", "k4", ...)',
    });
    expect(issuesOf(validateAccountData(keys, { strict: true, allErrors: true, maxIssues: 2 }))).toHaveLength(2);
  });
});
