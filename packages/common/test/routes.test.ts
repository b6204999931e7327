/**
 * The operation tables, generated from both specs, the route and paging tables read from them, and the
 * matcher: the stubs, their engine and x-validate name the operation of a path by it (their own tests
 * show each reading it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import * as common from '@x/common';
import { matchRoute, nodeRpcOperations, operationTables, paging, pathSegments, priceHistoryOperations, routes } from '@x/common';

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
  event_hash: '0x5a4f3e2d6f1c2b6c2f0a8c2e5d0b7a4f8e9d1c3b2a6f5e4d3c2b1a0f9e8d7c6b',
  transaction_hash: '0x6f1c2b6c2f0a8c2e5d0b7a4f8e9d1c3b2a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d',
  epoch: '744',
};
const fill = (path: string, encode = (s: string) => encodeURIComponent(s)): string => path.replace(/\{(\w+)\}/g, (_m, name: string) => encode(sample[name]!));

type SpecOperation = { operationId?: string; deprecated?: boolean };
/** Every operation of both spec files, with its service, method and path. */
const declared = (['node-rpc', 'price-history'] as const).flatMap((service) => {
  const spec = parse(readFileSync(join(ROOT, 'specs', `${service}.openapi.yaml`), 'utf8')) as { paths: Record<string, Record<string, SpecOperation>> };
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ service, method: method.toUpperCase(), path, op })),
  );
});

type Entry = { method: string; path: string; deprecated?: true; paging?: unknown };
const tables = operationTables as unknown as Record<string, Record<string, Entry>>;

describe('the operation tables', () => {
  it('hold every operation of each spec once, by id, each entry also its own export of @x/common', () => {
    expect(Object.keys(operationTables)).toEqual(['node-rpc', 'price-history']);
    expect(operationTables['node-rpc']).toBe(nodeRpcOperations);
    expect(operationTables['price-history']).toBe(priceHistoryOperations);
    for (const { service, method, path, op } of declared) {
      const entry = tables[service]![op.operationId!];
      expect(entry, `${service} ${op.operationId}`).toMatchObject({ method, path });
      expect((common as unknown as Record<string, unknown>)[op.operationId!]).toBe(entry);
      // Deprecation is the spec's, in the entry and nowhere else.
      expect(entry!.deprecated === true, `${op.operationId} deprecated`).toBe(op.deprecated === true);
    }
    expect(Object.values(tables).flatMap((t) => Object.keys(t)).sort()).toEqual(declared.map((d) => d.op.operationId).sort());
  });
});

describe('routes', () => {
  it('has every operation of both specs once, as the spec files declare them', () => {
    const ids = routes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(routes.map((r) => `${r.service} ${r.method} ${r.path} ${r.operationId}`).sort()).toEqual(declared.map((d) => `${d.service} ${d.method} ${d.path} ${d.op.operationId}`).sort());
  });

  it('is read from the operation tables: each route is the method and path of its entry', () => {
    for (const r of routes) expect([r.method, r.path]).toEqual([tables[r.service]![r.operationId]!.method, tables[r.service]![r.operationId]!.path]);
  });
});

describe('paging', () => {
  it('is the paging rule of each table entry that has one, the same object', () => {
    const listings = Object.values(tables).flatMap((t) => Object.entries(t).filter(([, e]) => e.paging !== undefined));
    expect(Object.keys(paging).sort()).toEqual(listings.map(([id]) => id).sort());
    for (const [id, entry] of listings) expect((paging as Record<string, unknown>)[id]).toBe(entry.paging);
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
