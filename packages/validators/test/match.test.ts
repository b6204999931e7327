/** x-validate finds a recording's operation by the generated route table's one matcher (`matchRoute`). */
import { describe, expect, it } from 'vitest';
import { matchOperation } from '../src/cli/match.ts';
import { routes } from '@x/common';

describe('matchOperation', () => {
  it.each(routes.map((r) => [r.operationId, r]))('%s: found at the end of a recorded URL, behind a prefix, with a trailing slash', (_id, route) => {
    const path = route.path.replace(/\{\w+\}/g, 'x1');
    expect(matchOperation(route.method, `http://n${path}?a=1`)).toBe(route);
    expect(matchOperation(route.method.toLowerCase(), `https://proxy.example/base${path}/`)).toBe(route);
  });

  it('a route without parameters wins over a parameter taking its segment: the gas price is no transaction hash', () => {
    const hash = `0x${'6f'.repeat(32)}`;
    expect(matchOperation('GET', 'http://n/rpc/v3/transactions/estimate_gas_price')?.operationId).toBe('estimateGasPriceV3');
    expect(matchOperation('GET', 'https://proxy.example/node/rpc/v3/transactions/estimate_gas_price/')?.operationId).toBe('estimateGasPriceV3');
    expect(matchOperation('GET', `http://n/rpc/v3/transactions/${hash}`)?.operationId).toBe('getTransactionV3');
    expect(matchOperation('GET', 'http://n/rpc/v3/block')?.operationId).toBe('getLatestBlockV3');
    expect(matchOperation('GET', `http://n/rpc/v3/block/${hash}`)?.operationId).toBe('getBlockV3');
  });

  it('compares segments decoded, as the stubs do', () => {
    expect(matchOperation('GET', 'http://n/rpc/v2/accounts/0x1/%74ransactions')?.operationId).toBe('listTransactionsV2');
  });

  it('a path that is not valid percent-encoding, or no URL at all, matches nothing', () => {
    expect(matchOperation('GET', 'http://n/rpc/v2/accounts/%zz')).toBeUndefined();
    expect(matchOperation('GET', 'http://[bad')).toBeUndefined();
  });
});
