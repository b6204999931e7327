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

  it('compares segments decoded, as the stubs do', () => {
    expect(matchOperation('GET', 'http://n/rpc/v2/accounts/0x1/%74ransactions')?.operationId).toBe('listTransactionsV2');
  });

  it('a path that is not valid percent-encoding, or no URL at all, matches nothing', () => {
    expect(matchOperation('GET', 'http://n/rpc/v2/accounts/%zz')).toBeUndefined();
    expect(matchOperation('GET', 'http://[bad')).toBeUndefined();
  });
});
