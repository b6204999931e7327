/**
 * Query keys of `@x/node-client/query`, through TanStack's own hashing (`hashKey`, JSON with sorted
 * object keys): equal calls have equal keys whatever form their arguments take, keys are JSON (a bigint
 * start does not throw), two nodes never share a cache entry, and an infinite query never meets the
 * plain query of its operation.
 */
import { describe, expect, it } from 'vitest';
import { hashKey, QueryClient } from '@tanstack/query-core';
import { createNodeClient } from '@x/node-client';
import { createNodeQueries, NODE_QUERY_SCOPE } from '@x/node-client/query';
import { STUB_ACCOUNTS } from '@x/testing';
import { useNodeStub } from '@x-tools/test-helpers';

const ctx = useNodeStub();
const queries = createNodeQueries(createNodeClient({ baseUrl: 'http://127.0.0.1:27000' }));
const hash = (options: { queryKey: readonly unknown[] }): string => hashKey(options.queryKey);

describe('keys', () => {
  it('have the documented form: scope, base URLs, operation id, parameters', () => {
    expect(queries.v2.getAccount('0x1').queryKey).toEqual([NODE_QUERY_SCOPE, ['http://127.0.0.1:27000'], 'getAccountV2', { address: '0x1' }]);
    expect(queries.v1.getResource('0x1', '0x1::account::Account').queryKey).toEqual([
      '@x/node-client',
      ['http://127.0.0.1:27000'],
      'getResourceV1',
      { address: '0x1', resource_type: '0x1::account::Account' },
    ]);
    expect(queries.v2.listTransactions('0x1', { count: 5, start: 10n }).queryKey).toEqual([
      '@x/node-client',
      ['http://127.0.0.1:27000'],
      'listTransactionsV2',
      { address: '0x1', count: 5, start: '10' },
    ]);
    expect(queries.v2.transactions('0x1', { pageSize: 25 }).queryKey).toEqual([
      '@x/node-client',
      ['http://127.0.0.1:27000'],
      'listTransactionsV2',
      'infinite',
      { address: '0x1', pageSize: 25, order: 'asc', start: '0' },
    ]);
  });

  it('are stable: the same call, the same key and hash', () => {
    expect(queries.v2.getAccount('0x1').queryKey).toEqual(queries.v2.getAccount('0x1').queryKey);
    expect(hash(queries.v2.listCoinTransactions('0x1', { count: 3, start: 4 }))).toBe(hash(queries.v2.listCoinTransactions('0x1', { count: 3, start: 4 })));
    expect(hash(queries.v1.modules('0x1', { pageSize: 3 }))).toBe(hash(queries.v1.modules('0x1', { pageSize: 3 })));
  });

  it('are one for every form of the same arguments', () => {
    // An address in any accepted form, a u64 as a number, bigint or decimal text, a v1 cursor as bytes or hex.
    expect(hash(queries.v2.getAccount('ABC'))).toBe(hash(queries.v2.getAccount('0xabc')));
    expect(hash(queries.v2.listTransactions('0x1', { start: 10 }))).toBe(hash(queries.v2.listTransactions('0x1', { start: 10n })));
    expect(hash(queries.v2.listTransactions('0x1', { start: '10' }))).toBe(hash(queries.v2.listTransactions('0x1', { start: 10n })));
    expect(hash(queries.v1.listModules('0x1', { start: [0, 171, 255] }))).toBe(hash(queries.v1.listModules('0x1', { start: '00abff' })));
    expect(hash(queries.v2.transactions('0x1'))).toBe(hash(queries.v2.transactions('0x1', { start: 0, pageSize: 100, order: 'asc' })));
    expect(hash(queries.v1.resources('0x1', { start: [1, 2] }))).toBe(hash(queries.v1.resources('0x1', { start: '0102' })));
  });

  it('are JSON: a u64 above 2^53 as a bigint hashes, exactly', () => {
    const max = 18446744073709551615n;
    expect(() => hash(queries.v2.listCoinTransactions('0x1', { start: max }))).not.toThrow();
    expect(queries.v2.coinTransactions('0x1', { start: max }).queryKey[4]).toMatchObject({ start: '18446744073709551615' });
    expect(hash(queries.v2.listCoinTransactions('0x1', { start: max }))).not.toBe(hash(queries.v2.listCoinTransactions('0x1', { start: max - 1n })));
  });

  it('differ by every parameter, operation and version', () => {
    const all = [
      queries.v2.getAccount('0x1'),
      queries.v2.getAccount('0x2'),
      queries.v1.getAccount('0x1'),
      queries.v2.listTransactions('0x1'),
      queries.v2.listTransactions('0x1', { count: 5 }),
      queries.v2.listTransactions('0x1', { start: 5 }),
      queries.v2.listCoinTransactions('0x1'),
      queries.v2.getModule('0x1', 'coin'),
      queries.v2.getModule('0x1', 'code'),
      queries.v2.getResource('0x1', '0x1::account::Account'),
      queries.v2.transactions('0x1'),
      queries.v2.transactions('0x1', { pageSize: 5 }),
      queries.v2.transactions('0x1', { start: 5 }),
      queries.v2.transactions('0x1', { order: 'desc' }),
      queries.v1.transactions('0x1'),
      queries.v2.coinTransactions('0x1'),
      queries.v2.modules('0x1'),
      queries.v2.resources('0x1'),
    ];
    expect(new Set(all.map(hash)).size).toBe(all.length);
  });

  it('differ between clients of different nodes, and agree between clients of the same node', () => {
    const other = createNodeQueries(createNodeClient({ baseUrl: 'http://127.0.0.1:27001' }));
    const same = createNodeQueries(createNodeClient({ baseUrl: 'http://127.0.0.1:27000/' }));
    expect(hash(other.v2.getAccount('0x1'))).not.toBe(hash(queries.v2.getAccount('0x1')));
    expect(hash(other.v2.transactions('0x1'))).not.toBe(hash(queries.v2.transactions('0x1')));
    expect(hash(same.v2.getAccount('0x1'))).toBe(hash(queries.v2.getAccount('0x1')));
  });

  it('an infinite query and the plain query of its operation are two cache entries', () => {
    const plain = queries.v2.listTransactions('0x1');
    const infinite = queries.v2.transactions('0x1');
    expect(hash(plain)).not.toBe(hash(infinite));
    expect(infinite.queryKey.slice(0, 4)).toEqual([NODE_QUERY_SCOPE, ['http://127.0.0.1:27000'], 'listTransactionsV2', 'infinite']);
  });
});

describe('keys in a QueryClient', () => {
  it('two nodes and the two kinds of query keep apart; a prefix of the key reaches them all', async () => {
    const a = createNodeQueries(createNodeClient({ baseUrl: ctx.stub.url }));
    // The same stub under another name: another base URL, so another cache entry.
    const b = createNodeQueries(createNodeClient({ baseUrl: ctx.stub.url.replace('127.0.0.1', 'localhost') }));
    const qc = new QueryClient({ defaultOptions: { queries: { gcTime: Infinity, retry: false } } });
    try {
      const address = STUB_ACCOUNTS.alice;
      await qc.fetchQuery(a.v2.listTransactions(address, { count: 2 }));
      await qc.fetchQuery(b.v2.listTransactions(address, { count: 2 }));
      await qc.fetchInfiniteQuery(a.v2.transactions(address, { pageSize: 2 }));
      expect(qc.getQueryCache().getAll()).toHaveLength(3);
      expect(qc.getQueryData(a.v2.listTransactions(address, { count: 2 }).queryKey)?.record).toHaveLength(2);
      expect(qc.getQueryData(a.v2.transactions(address, { pageSize: 2 }).queryKey)?.pages).toHaveLength(1);
      expect(qc.getQueryCache().findAll({ queryKey: [NODE_QUERY_SCOPE] })).toHaveLength(3);
      expect(qc.getQueryCache().findAll({ queryKey: [NODE_QUERY_SCOPE, [ctx.stub.url]] })).toHaveLength(2);
      expect(qc.getQueryCache().findAll({ queryKey: [NODE_QUERY_SCOPE, [ctx.stub.url], 'listTransactionsV2'] })).toHaveLength(2);
    } finally {
      qc.clear();
    }
  });
});
