/**
 * A property counts only as the value's own (issue 44, item 8): an inherited one, from a non-enumerable
 * member of Object.prototype (which the enumerable pollution guard cannot see) or from a prototype of
 * the value's own, never stands in for a required property, selects a union's branch or is validated.
 * In every validator: validateX, isX, assertX, validateResponse, both profiles, both strictness levels,
 * first error and all errors, and the Standard Schemas.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  ValidationError,
  assertAccountData,
  assertTransactionV3,
  isAccountData,
  isMoveValue,
  isTransactionV3,
  validateAccountData,
  validateMoveValue,
  validateResponse,
  validateTransactionOutput,
  validateTransactionV3,
} from '../src/index.ts';
import { AccountData, MoveValue, TransactionV3, responses, standardResponse, standardSchema } from '../src/standard.ts';
import { transactionOutput, userTransactionV3 } from './fixtures.js';
import { OPTIONS, READINGS, run, type Std } from './standard-results.ts';

const defined: string[] = [];

/** Object.prototype[name] = value, non-enumerable (as `Object.defineProperty` makes it), removed after the test. */
function inherit(name: string, value: unknown): void {
  define(name, { value, writable: true });
}

/** A non-enumerable member of Object.prototype with this descriptor, removed after the test. */
function define(name: string, descriptor: PropertyDescriptor): void {
  Object.defineProperty(Object.prototype, name, { ...descriptor, configurable: true, enumerable: false });
  defined.push(name);
}

afterEach(() => {
  for (const name of defined.splice(0)) Reflect.deleteProperty(Object.prototype, name);
});

const hash = userTransactionV3.hash;
const { sequence_number: _n, ...noSequenceNumber } = { sequence_number: 1, authentication_key: hash };
const { txn_type: _t, ...noTxnType } = userTransactionV3;

const missing = (name: string) => ({ path: `/${name}`, keyword: 'required', message: `required property "${name}" is missing` });

describe('a non-enumerable member of Object.prototype', () => {
  it('does not stand in for a missing required property: validateX, isX, assertX, every option', () => {
    inherit('sequence_number', 1);
    for (const options of OPTIONS) {
      expect(validateAccountData(noSequenceNumber, options), JSON.stringify(options)).toEqual({ ok: false, issues: [missing('sequence_number')] });
    }
    for (const options of READINGS) {
      expect(isAccountData(noSequenceNumber, options), JSON.stringify(options)).toBe(false);
      expect(() => assertAccountData(noSequenceNumber, options)).toThrow(ValidationError);
    }
    // The property the value has is still found.
    for (const options of READINGS) expect(isAccountData({ sequence_number: 1, authentication_key: hash }, options)).toBe(true);
  });

  it('does not stand in for a missing required property as a getter, whatever it returns', () => {
    let n = 0;
    define('sequence_number', { get: () => n++ });
    define('authentication_key', { get: () => ({ fresh: n++ }) });
    for (const options of OPTIONS) {
      expect(validateAccountData({ authentication_key: hash }, options), JSON.stringify(options)).toEqual({ ok: false, issues: [missing('sequence_number')] });
      expect(validateAccountData({ sequence_number: 1 }, options), JSON.stringify(options)).toEqual({ ok: false, issues: [missing('authentication_key')] });
    }
  });

  it('does not stand in for the tag of a tagged union (txn_type)', () => {
    inherit('txn_type', 'user');
    for (const options of OPTIONS) {
      expect(validateTransactionV3(noTxnType, options), JSON.stringify(options)).toEqual({ ok: false, issues: [missing('txn_type')] });
      expect(validateResponse('getTransactionV3', 200, noTxnType, options).ok, JSON.stringify(options)).toBe(false);
    }
    for (const options of READINGS) {
      expect(isTransactionV3(noTxnType, options)).toBe(false);
      expect(() => assertTransactionV3(noTxnType, options)).toThrow(ValidationError);
      expect(isTransactionV3(userTransactionV3, options)).toBe(true);
    }
  });

  it('is not a response body property', () => {
    inherit('sequence_number', 1);
    for (const options of OPTIONS) {
      for (const op of ['getAccountV1', 'getAccountV2', 'getAccountV3'] as const) {
        expect(validateResponse(op, 200, noSequenceNumber, options), `${op} ${JSON.stringify(options)}`).toEqual({ ok: false, issues: [missing('sequence_number')] });
      }
    }
  });

  it('is not read as the key of a keyed union, valid or not', () => {
    // An inherited key holding an invalid form: the union's own key alone is read.
    inherit('Bytes', 'not hex');
    inherit('Move', { gas_used: 'not a number' });
    for (const options of OPTIONS) {
      expect(validateMoveValue({ U8: 1 }, options), JSON.stringify(options)).toEqual({ ok: true, value: { U8: 1 } });
      expect(validateTransactionOutput('Empty', options).ok).toBe(true);
    }
    for (const options of READINGS) expect(isMoveValue({ U8: 1 }, options)).toBe(true);
    expect(validateTransactionOutput(transactionOutput).ok).toBe(true);
  });

  it('does not stand in for a required property in the Standard Schemas', () => {
    inherit('sequence_number', 1);
    inherit('txn_type', 'user');
    const issue = (name: string) => ({ issues: [{ message: `required property "${name}" is missing`, path: [name] }] });
    expect(run(AccountData as Std, noSequenceNumber)).toStrictEqual(issue('sequence_number'));
    expect(run(TransactionV3 as Std, noTxnType)).toStrictEqual(issue('txn_type'));
    for (const options of READINGS) {
      expect(run(standardSchema('AccountData', options) as Std, noSequenceNumber)).toStrictEqual(issue('sequence_number'));
      expect(run(standardSchema('TransactionV3', options) as Std, noTxnType)).toStrictEqual(issue('txn_type'));
      expect(run(standardResponse('getAccountV3', 200, options) as Std, noSequenceNumber)).toStrictEqual(issue('sequence_number'));
    }
    expect(run(responses.getTransactionV3['200'] as Std, noTxnType)).toStrictEqual(issue('txn_type'));
    expect(run(MoveValue as Std, { U8: 1 })).toStrictEqual({ value: { U8: 1 } });
  });
});

describe("a property of the value's own prototype", () => {
  it('does not count: only own properties are the value', () => {
    const value = Object.assign(Object.create({ sequence_number: 1 }) as object, { authentication_key: hash });
    for (const options of OPTIONS) expect(validateAccountData(value, options), JSON.stringify(options)).toEqual({ ok: false, issues: [missing('sequence_number')] });
    const tagged = Object.assign(Object.create({ txn_type: 'user' }) as object, noTxnType);
    for (const options of OPTIONS) expect(validateTransactionV3(tagged, options), JSON.stringify(options)).toEqual({ ok: false, issues: [missing('txn_type')] });
    expect(run(AccountData as Std, value)).toStrictEqual({ issues: [{ message: 'required property "sequence_number" is missing', path: ['sequence_number'] }] });
  });

  it('is no unknown property of the strict profile, which lists own keys only', () => {
    class Account {
      sequence_number = 1;
      authentication_key = hash;
    }
    (Account.prototype as unknown as Record<string, unknown>).extra = 'inherited, enumerable';
    for (const options of OPTIONS) expect(validateAccountData(new Account(), { ...options, strict: true }).ok, JSON.stringify(options)).toBe(true);
  });
});
