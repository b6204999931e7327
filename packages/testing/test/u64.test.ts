/**
 * One u64 rule: the stubs' `readU64` (this package depends on no client package, so it keeps a copy)
 * gives the same answers as `readU64` of `@x/client-core`, the SDK's one u64 reader, and the stub's
 * `start` and a user account's amounts follow it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readU64 as coreReadU64 } from '@x/client-core';
import { createNodeStubFetch, StubArgumentError } from '@x/testing';
import { readU64 } from '../src/node/move.ts';

const MAX = 18446744073709551615n;

describe('readU64: the same rule as @x/client-core', () => {
  const table: unknown[] = [
    0, 1, -0, -1, 1.5, 2 ** 53 - 1, 2 ** 53, Number.NaN, Infinity,
    0n, -1n, MAX, MAX + 1n,
    '0', '007', '000', '18446744073709551615', '018446744073709551615', '18446744073709551616', `${'0'.repeat(70)}1`, `${'0'.repeat(80)}1`,
    '', ' 1', '1 ', '+1', '-1', '0x10', '1e3', '1.0', '１',
    null, undefined, {}, [], [1], true,
  ];
  it.each(table.map((v) => [v]))('%o', (value) => {
    expect(readU64(value)).toBe(coreReadU64(value));
  });

  it('on arbitrary values, digit strings and bigints', () => {
    const values = fc.oneof(fc.anything(), fc.bigInt({ min: -2n, max: MAX + 2n }), fc.stringMatching(/^[0-9]{0,25}$/), fc.integer(), fc.double());
    fc.assert(
      fc.property(values, (v) => {
        expect(readU64(v)).toBe(coreReadU64(v));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the stubs read u64s by it', () => {
  const stub = createNodeStubFetch();
  const start = async (value: string) => (await stub(`${stub.url}/rpc/v2/accounts/0x1/coin_transactions?count=1&start=${value}`)).status;

  it.each([
    ['0', 200],
    ['007', 200],
    ['18446744073709551615', 200],
    ['18446744073709551616', 400],
    ['-1', 400],
    ['0x1', 400],
    ['1.0', 400],
  ])('start=%s answers %i', async (value, status) => {
    expect(await start(value)).toBe(status);
  });

  it('a user account amount or balance that is not a u64 is a StubArgumentError naming it', () => {
    expect(() => createNodeStubFetch({ accounts: { carol: { balance: '18446744073709551616' } } })).toThrow(StubArgumentError);
    expect(() => createNodeStubFetch({ accounts: { carol: { balance: 2 ** 53 } } })).toThrow('accounts.carol.balance');
    expect(() => createNodeStubFetch({ accounts: { carol: { transactions: [{ to: 'alice', amount: -1n }] } } })).toThrow('accounts.carol.transactions[0].amount');
    expect(createNodeStubFetch({ accounts: { carol: { balance: '018446744073709551615' } } }).accounts.carol).toMatch(/^0x/);
  });
});
