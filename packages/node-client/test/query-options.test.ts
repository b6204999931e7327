/**
 * One query option per operation and per listing, imported alone (`getAccountV3QueryOptions(client,
 * address)`, `listTransactionsV3InfiniteQueryOptions(client, address, options)`): over a transport of
 * their own (`http`) or a client, over real HTTP against the node stub, the same keys and answers as
 * `createNodeQueries`' methods and the actions, and a bad argument is the query's error, never a throw.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/query-core';
import { createNodeClient, getAccountV3, getBlockByHeightV3, http, walkCoinTransactionsV3, walkTransactionsV3 } from '@x/node-client';
import {
  createNodeQueries,
  getAccountV3QueryOptions,
  getBlockByHeightV3QueryOptions,
  getResourceV3QueryOptions,
  listCoinTransactionsV3InfiniteQueryOptions,
  listModulesV1QueryOptions,
  listTransactionsV3InfiniteQueryOptions,
  listTransactionsV3QueryOptions,
  NODE_QUERY_SCOPE,
  viewV3QueryOptions,
} from '@x/node-client/query';
import { STUB_ACCOUNTS } from '@x/testing';
import { collect, expectInvalid, useNodeStub } from '@x-tools/test-helpers';

const ctx = useNodeStub();
const clients: QueryClient[] = [];
/** A QueryClient that schedules no garbage collection and retries nothing, cleared after each test. */
function queryClient(): QueryClient {
  const qc = new QueryClient({ defaultOptions: { queries: { gcTime: Infinity, retry: false } } });
  clients.push(qc);
  return qc;
}
afterEach(() => {
  for (const qc of clients.splice(0)) qc.clear();
});
const A = STUB_ACCOUNTS;

describe('a query option imported alone', () => {
  it('over http(): the key of createNodeQueries, and the answer of the action', async () => {
    const transport = http({ baseUrl: ctx.stub.url });
    const options = getAccountV3QueryOptions(transport, A.alice);
    expect(options.queryKey).toEqual([NODE_QUERY_SCOPE, [ctx.stub.url], 'getAccountV3', { address: A.alice }]);
    expect(options.queryKey).toEqual(createNodeQueries(createNodeClient({ baseUrl: ctx.stub.url })).v3.getAccount(A.alice).queryKey);
    expect(options.retry).toBe(false);
    expect(await queryClient().fetchQuery(options)).toEqual(await getAccountV3(transport, A.alice));
  });

  it('over a client: the same key as over its transport', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    expect(getAccountV3QueryOptions(node, '1').queryKey).toEqual(getAccountV3QueryOptions(node.transport, '0x1').queryKey);
    expect(await queryClient().fetchQuery(getAccountV3QueryOptions(node, A.bob))).toEqual(await node.v3.getAccount(A.bob));
  });

  it('keys hold what the request sends: a u64 in decimal, a byte cursor as hex, a body as plain JSON', async () => {
    const transport = http({ baseUrl: ctx.stub.url });
    const queries = createNodeQueries(createNodeClient({ baseUrl: ctx.stub.url }));
    expect(getBlockByHeightV3QueryOptions(transport, 1n).queryKey.at(-1)).toEqual({ height: '1' });
    expect(getBlockByHeightV3QueryOptions(transport, 1, { with_finalized_transactions: true }).queryKey).toEqual(queries.v3.getBlockByHeight('1', { with_finalized_transactions: true }).queryKey);
    expect(listTransactionsV3QueryOptions(transport, A.alice, { start: 10n, count: 5 }).queryKey.at(-1)).toMatchObject({ address: A.alice, start: '10', count: 5 });
    expect(listModulesV1QueryOptions(transport, '0x1', { start: [0, 171, 255] }).queryKey.at(-1)).toMatchObject({ start: '00abff' });
    expect(getResourceV3QueryOptions(transport, '0x1', '0x1::account::Account').queryKey.at(-1)).toEqual({ address: '0x1', resource_type: '0x1::account::Account' });
    expect(viewV3QueryOptions(transport, { function: '0xabc::m::f', arguments: [5n] }).queryKey.at(-1)).toEqual({ body: { function: '0xabc::m::f', arguments: ['5'] } });
    expect(await queryClient().fetchQuery(getBlockByHeightV3QueryOptions(transport, 1))).toEqual(await getBlockByHeightV3(transport, 1));
  });

  it('a bad argument is the query\'s InvalidArgumentError, sent nowhere; building the options never throws', async () => {
    const transport = http({ baseUrl: ctx.stub.url });
    await expectInvalid(queryClient().fetchQuery(getAccountV3QueryOptions(transport, '0xnot-hex')), 'address');
    await expectInvalid(queryClient().fetchQuery(getBlockByHeightV3QueryOptions(transport, -1)), 'height');
    await expectInvalid(queryClient().fetchInfiniteQuery(listTransactionsV3InfiniteQueryOptions(transport, A.alice, { pageSize: 0 })), 'pageSize');
    expect(ctx.stub.requests).toEqual([]);
  });
});

describe('an infinite query option imported alone', () => {
  it('walks every page as the walk does, newest first too, with the key of createNodeQueries', async () => {
    const transport = http({ baseUrl: ctx.stub.url });
    const queries = createNodeQueries(createNodeClient({ baseUrl: ctx.stub.url }));
    for (const order of ['asc', 'desc'] as const) {
      const options = listTransactionsV3InfiniteQueryOptions(transport, A.alice, { pageSize: 40, order });
      expect(options.queryKey).toEqual(queries.v3.transactions(A.alice, { pageSize: 40, order }).queryKey);
      const data = await queryClient().fetchInfiniteQuery({ ...options, pages: Infinity });
      expect(data.pages.length).toBeGreaterThan(2);
      expect(data.pages.flat()).toEqual(await collect(walkTransactionsV3(transport, A.alice, { pageSize: 40, order })));
    }
  });

  it('a header-cursor listing: its pages are the action\'s { items, cursor }, its items the walk\'s', async () => {
    const transport = http({ baseUrl: ctx.stub.url });
    const data = await queryClient().fetchInfiniteQuery({ ...listCoinTransactionsV3InfiniteQueryOptions(transport, A.bob, { pageSize: 9, type: 'user' }), pages: Infinity });
    expect(data.pages.length).toBeGreaterThan(1);
    expect(data.pages.flatMap((page) => page.items)).toEqual(await collect(walkCoinTransactionsV3(transport, A.bob, { pageSize: 9, type: 'user' })));
  });
});
