/**
 * A pattern failure says what the value must be in words (issue 48, item 15): a form user reads
 * `must be an account address: 0x followed by 1 to 64 hex digits`, not a regular expression. The
 * keyword stays `pattern` and the path the value's, in every variant and in the Standard Schemas.
 */
import { describe, expect, it } from 'vitest';
import { validateResponse } from '../src/index.ts';
import { canonicalAddress } from '@x/common';
import { AccountAddress, Address, DecimalString, standardSchema } from '../src/standard.ts';
import { smrTransactionHeader } from './fixtures.js';
import { fns, issuesOf } from './helpers.js';
import { OPTIONS, READINGS, run, type Std } from './standard-results.ts';

/** Every named pattern of both specs, a value it refuses and the message of that refusal. */
const NAMED: [schema: string, bad: string, message: string][] = [
  ['Address', '1', 'must be an account address: 0x followed by 1 to 64 hex digits'],
  ['AccountAddress', '0xZZ', 'must be an account address: 1 to 64 hex digits, with or without 0x'],
  ['Hash', '0x', 'must be a hash: one or more hex digits, with or without 0x'],
  ['Identity', 'xyz', 'must be an identity: one or more hex digits, with or without 0x'],
  ['HexString', '0xg', 'must be a hex string: any number of hex digits, with or without 0x'],
  ['DecimalString', '1.5', 'must be a decimal number: digits 0-9 only'],
  ['SignedDecimalString', '+1', 'must be a decimal number: digits, an optional leading "-" and an optional fraction (e.g. -12.5)'],
  ['TradingPair', 'BTC_USDT', 'must be a trading pair: lowercase letters and digits, base and quote joined by "_" (e.g. btc_usdt)'],
  ['MoveFunctionId', '0x1::coin', 'must be a Move function: address::module::function (e.g. 0x1::coin::balance)'],
  ['MoveTypeTag', 'u7', 'must be a Move type: bool, u8 to u256, address, signer, vector<...> or address::module::Struct'],
];

describe('pattern failures in words', () => {
  it.each(NAMED)('%s: keyword pattern, path unchanged, the sentence, in every variant', (schema, bad, message) => {
    for (const options of OPTIONS) expect(issuesOf(fns(schema).validate(bad, options)), JSON.stringify(options)).toEqual([{ path: '', keyword: 'pattern', message }]);
    expect(run(standardSchema(schema as 'Address') as Std, bad)).toStrictEqual({ issues: [{ message, path: [] }] });
  });

  it('inside a record and a response, at the field', () => {
    const header = { ...smrTransactionHeader, sender: 'not hex' };
    // (The live profile adds the overlay's note: the observed sender is another form.)
    for (const options of READINGS.filter((r) => r.profile !== 'live')) {
      expect(issuesOf(fns('SmrTransactionHeader').validate(header, options))).toEqual([
        { path: '/sender', keyword: 'pattern', message: 'must be an account address: 1 to 64 hex digits, with or without 0x' },
      ]);
    }
    expect(issuesOf(validateResponse('getAccountV3', 200, { sequence_number: 1, authentication_key: 'zz' }))).toEqual([
      { path: '/authentication_key', keyword: 'pattern', message: 'must be a hash: one or more hex digits, with or without 0x' },
    ]);
    // A hex pattern of no named schema is worded from the pattern alone.
    expect(issuesOf(fns('MoveValue').validate({ Bytes: '0x0' }))).toEqual([
      { path: '/Bytes', keyword: 'pattern', message: 'must be 0x followed by any number of hex digits in pairs (whole bytes)' },
    ]);
  });

  it('the Standard Schemas a form uses', () => {
    expect(run(Address as Std, '0xzz')).toStrictEqual({ issues: [{ message: 'must be an account address: 0x followed by 1 to 64 hex digits', path: [] }] });
    expect(run(DecimalString as Std, '-1')).toStrictEqual({ issues: [{ message: 'must be a decimal number: digits 0-9 only', path: [] }] });
  });
});

describe('addresses: the schemas and the clients agree (issue 48, item 15)', () => {
  // The clients' rule is canonicalAddress of @x/common (node-client's normalizeAddress also rewrites a
  // capital `0X`, which nodes refuse, before it).
  const spellings = ['1', 'ABC', '0x1', '0x0001', '0xabc', `0x${'f'.repeat(64)}`, 'f'.repeat(64), '', '0x', 'g', '0xg', `0x${'1'.repeat(65)}`, ' 0x1'];

  it('AccountAddress, the address as a user types it, accepts exactly what the clients accept', () => {
    for (const s of spellings) expect(run(AccountAddress as Std, s).issues === undefined, s).toBe(canonicalAddress(s) !== undefined);
  });

  it('Address, what the node sends, accepts every address the clients send (the canonical form)', () => {
    for (const s of spellings) {
      const canonical = canonicalAddress(s);
      if (canonical !== undefined) expect(run(Address as Std, canonical), s).toStrictEqual({ value: canonical });
    }
    expect(run(Address as Std, '1').issues).toBeDefined();
  });
});
