/**
 * One address rule: `normalizeAddress` of the node client is `canonicalAddress` of `@x/common` (special
 * addresses `0x0`..`0xf` short, every other one long), the form the stubs answer with, plus a capital
 * `0X` read as `0x` and anything else passed through for the argument check to name. The property run
 * over every spelling is address.perf.test.ts's (the `perf` project: fuzzing).
 */
import { describe, expect, it } from 'vitest';
import { normalizeAddress } from '../src/address.ts';
import { STUB_ACCOUNTS } from '@x/testing';

const long = (hex: string): string => `0x${hex.padStart(64, '0')}`;

describe('normalizeAddress: the canonical form', () => {
  // The rule's own table is canonicalAddress's (packages/common/test/address.test.ts); these are the
  // client's additions (a capital 0X) and the stub accounts a user copies from the stubs.
  it.each([
    ['0x0001', '0x1'],
    ['0X1', '0x1'],
    ['0XABC', long('abc')],
    ['ABC', long('abc')],
    [STUB_ACCOUNTS.alice, STUB_ACCOUNTS.alice],
    [STUB_ACCOUNTS.exactly101.replace(/^0x0+/, '0x'), STUB_ACCOUNTS.exactly101],
    [STUB_ACCOUNTS.exactly101.toUpperCase(), STUB_ACCOUNTS.exactly101],
  ])('%s -> %s', (input, canonical) => {
    expect(normalizeAddress(input)).toBe(canonical);
  });

  it('returns what is not an address unchanged (the argument check names it)', () => {
    for (const bad of ['', '0x', 'xyz', '0x' + '1'.repeat(65), ' 0x1', 42, null, undefined]) expect(normalizeAddress(bad)).toBe(bad);
  });

  it('keeps an address that is already canonical as the same string', () => {
    for (const a of Object.values(STUB_ACCOUNTS)) expect(normalizeAddress(a)).toBe(a);
  });
});

describe('the client sends what the stubs answer with', () => {
  it('the stub answers a request in any spelling with the canonical address', async () => {
    const { createNodeStubFetch } = await import('@x/testing');
    const { createNodeClient } = await import('@x/node-client');
    const stub = createNodeStubFetch();
    const node = createNodeClient({ baseUrl: stub.url, fetch: stub, retry: false });
    const input = STUB_ACCOUNTS.exactly101.replace(/^0x0+/, '').toUpperCase();
    const [first] = (await node.v2.listResources(input, { count: 1 })).resources ?? [];
    expect(stub.requests[0]!.url).toBe(`/rpc/v2/accounts/${STUB_ACCOUNTS.exactly101}/resources?count=1`);
    expect(first).toBeDefined();
  });
});
