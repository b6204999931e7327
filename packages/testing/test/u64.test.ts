/**
 * One u64 rule: the stub's `start` and a user account's amounts are read by `readU64` of `@x/common`,
 * the SDK's one u64 reader (its own table is in packages/common/test/u64.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { createNodeStubFetch, StubArgumentError } from '@x/testing';

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
