/**
 * The one route table, generated from both specs, and its matcher: the stubs, their engine and
 * x-validate name the operation of a path by it (their own tests show each reading it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { matchRoute, pathSegments, routes } from '@x/common';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A value of every path parameter of both specs, as a request sends it (the route test below fails on a parameter without one). */
const sample: Record<string, string> = {
  address: '0x1',
  module_name: 'coin',
  resource_type: '0x1::account::Account',
  hash: '0x6f1c2b6c2f0a8c2e5d0b7a4f8e9d1c3b2a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d',
  height: '4512337',
  block_hash: '2a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d6f1c2b6c2f0a8c2e5d0b7a4f8e9d1c3b',
  event_type: '0x1::coin::CoinDeposit',
  table_handle: '0x1b854694ae746cdbd8d44186ca4929b2b337df21d1c74633be19b2710552fdca',
};
const fill = (path: string, encode = (s: string) => encodeURIComponent(s)): string => path.replace(/\{(\w+)\}/g, (_m, name: string) => encode(sample[name]!));

describe('routes', () => {
  it('has every operation of both specs once, as the spec files declare them', () => {
    const ids = routes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const declared = (['node-rpc', 'price-history'] as const).flatMap((service) => {
      const spec = parse(readFileSync(join(ROOT, 'specs', `${service}.openapi.yaml`), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
      return Object.entries(spec.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => METHODS.includes(method))
          .map(([method, op]) => `${service} ${method.toUpperCase()} ${path} ${op.operationId}`),
      );
    });
    expect(routes.map((r) => `${r.service} ${r.method} ${r.path} ${r.operationId}`).sort()).toEqual(declared.sort());
  });
});

describe('matchRoute', () => {
  it('has a sample value of every path parameter of the route table', () => {
    const names = new Set(routes.flatMap((r) => [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)));
    expect([...names].filter((n) => !Object.hasOwn(sample, n))).toEqual([]);
  });

  it.each(routes.map((r) => [r.operationId, r]))('%s: its own path, with its parameters decoded', (_id, route) => {
    const match = matchRoute(fill(route.path));
    expect(match?.route).toBe(route);
    const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    expect(match?.params).toEqual(Object.fromEntries(names.map((n) => [n, sample[n]])));
    expect(matchRoute(fill(route.path), { method: route.method.toLowerCase(), service: route.service })?.route).toBe(route);
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

  it('a literal segment names its own operation, not the parameter beside it (the gas price is no transaction hash)', () => {
    expect(matchRoute('/rpc/v3/transactions/estimate_gas_price')?.route.operationId).toBe('estimateGasPriceV3');
    expect(matchRoute(`/rpc/v3/transactions/${sample.hash}`)).toMatchObject({ route: { operationId: 'getTransactionV3' }, params: { hash: sample.hash } });
    expect(matchRoute('/rpc/v3/block/height/7')).toMatchObject({ route: { operationId: 'getBlockByHeightV3' }, params: { height: '7' } });
    expect(matchRoute(`/rpc/v3/block/${sample.block_hash}`)).toMatchObject({ route: { operationId: 'getBlockV3' }, params: { block_hash: sample.block_hash } });
    expect(matchRoute(`/node/rpc/v3/transactions/estimate_gas_price/`, { suffix: true })?.route.operationId).toBe('estimateGasPriceV3');
  });

  it('filters by method and service', () => {
    expect(matchRoute('/history', { method: 'POST' })).toBeUndefined();
    expect(matchRoute('/history', { service: 'node-rpc' })).toBeUndefined();
    expect(matchRoute('/history', { service: 'price-history' })?.route.operationId).toBe('getHistory');
    // The POST reads: their paths with POST only.
    expect(matchRoute('/rpc/v3/view', { method: 'POST' })?.route.operationId).toBe('viewV3');
    expect(matchRoute('/rpc/v3/view', { method: 'GET' })).toBeUndefined();
    expect(matchRoute(`/rpc/v2/tables/${sample.table_handle}/item`, { method: 'post' })?.route.operationId).toBe('getTableItemV2');
  });
});

describe('pathSegments', () => {
  it('splits after the first slash and decodes each segment; undefined for bad percent-encoding', () => {
    expect(pathSegments('/rpc/v2/accounts/0x1')).toEqual(['rpc', 'v2', 'accounts', '0x1']);
    expect(pathSegments('/a%2Fb/')).toEqual(['a/b', '']);
    expect(pathSegments('/%zz')).toBeUndefined();
  });
});
