/**
 * One route table: the generated `matchRoute` names the operation of a path for the stubs' request log
 * and `failNext`, and routes the node stub, whose handlers are keyed by operation id.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { matchRoute, routes } from '../src/generated/routes.ts';
import { createNodeStubFetch, createPriceStubFetch, STUB_ACCOUNTS, type NodeOperationId } from '@x/testing';

const sample: Record<string, string> = { address: '0x1', module_name: 'coin', resource_type: '0x1::account::Account' };
const fill = (path: string, encode = (s: string) => encodeURIComponent(s)): string => path.replace(/\{(\w+)\}/g, (_m, name: string) => encode(sample[name]!));

describe('matchRoute', () => {
  it.each(routes.map((r) => [r.operationId, r]))('%s: its own path, with its parameters decoded', (_id, route) => {
    const match = matchRoute(fill(route.path));
    expect(match?.route).toBe(route);
    const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    expect(match?.params).toEqual(Object.fromEntries(names.map((n) => [n, sample[n]])));
    expect(matchRoute(fill(route.path), { method: 'get', service: route.service })?.route).toBe(route);
  });

  it('compares segments decoded, and no path that is not valid percent-encoding matches', () => {
    expect(matchRoute('/rpc/v2/accounts/0x1/%74ransactions')?.route.operationId).toBe('listTransactionsV2');
    expect(matchRoute('/rpc/v2/accounts/%zz/transactions')).toBeUndefined();
  });

  it('a parameter is a non-empty segment unless emptyParams', () => {
    expect(matchRoute('/rpc/v2/accounts//transactions')).toBeUndefined();
    expect(matchRoute('/rpc/v2/accounts//transactions', { emptyParams: true })).toMatchObject({ route: { operationId: 'listTransactionsV2' }, params: { address: '' } });
  });

  it('the whole path by default; its end with suffix (a proxy prefix, one trailing slash), the longest template first', () => {
    expect(matchRoute('/node/rpc/v2/accounts/0x1')).toBeUndefined();
    expect(matchRoute('/rpc/v2/accounts/0x1/')).toBeUndefined();
    expect(matchRoute('/node/rpc/v2/accounts/0x1/', { suffix: true })?.route.operationId).toBe('getAccountV2');
    expect(matchRoute('/x/rpc/v1/accounts/0x1/modules/coin', { suffix: true })?.route.operationId).toBe('getModuleV1');
    expect(matchRoute('/rpc/v1/accounts/0x1/modules/coin/x', { suffix: true })).toBeUndefined();
  });

  it('filters by method and service', () => {
    expect(matchRoute('/history', { method: 'POST' })).toBeUndefined();
    expect(matchRoute('/history', { service: 'node-rpc' })).toBeUndefined();
    expect(matchRoute('/history', { service: 'price-history' })?.route.operationId).toBe('getHistory');
  });
});

describe('the stubs route by it', () => {
  it('every node operation is answered by its own handler and logged under its id', async () => {
    const stub = createNodeStubFetch();
    const ids = routes.filter((r) => r.service === 'node-rpc').map((r) => r.operationId);
    expect(stub.requests).toEqual([]);
    for (const id of ids) {
      const route = routes.find((r) => r.operationId === id)!;
      const res = await stub(stub.url + fill(route.path, (s) => encodeURIComponent(s === '0x1' ? STUB_ACCOUNTS.framework : s)));
      expect(res.status, id).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
    }
    expect(stub.requests.map((r) => r.operationId)).toEqual(ids);
  });

  it('failNext reaches a request by its matched operation, whatever its spelling', async () => {
    const stub = createNodeStubFetch();
    stub.failNext('listTransactionsV2', 503);
    expect((await stub(`${stub.url}/rpc/v2/accounts/0x1/%74ransactions`)).status).toBe(503);
    expect((await stub(`${stub.url}/rpc/v2/accounts/0x1/transactions`)).status).toBe(200);
  });

  it('a path no route names is a 404, and an empty address the bad address it is', async () => {
    const stub = createNodeStubFetch();
    expect((await stub(`${stub.url}/rpc/v2/accounts/0x1/nope`)).status).toBe(404);
    expect(await (await stub(`${stub.url}/rpc/v2/accounts//transactions`)).json()).toMatchObject({ error: 'invalid_address' });
    expect(stub.requests.map((r) => r.operationId)).toEqual([undefined, undefined]);
  });

  it('the price stub logs its operations by the same matcher', async () => {
    const stub = createPriceStubFetch();
    await stub(`${stub.url}/latest?trading_pair=btc_usdt`);
    expect(stub.requests[0]?.operationId).toBe('getLatest');
  });

  it('NodeOperationId is the spec’s node operations, the keys the handlers must have', () => {
    expectTypeOf<'getAccountV1' | 'listResourcesV2'>().toMatchTypeOf<NodeOperationId>();
    expectTypeOf<'getHistory'>().not.toMatchTypeOf<NodeOperationId>();
  });
});
