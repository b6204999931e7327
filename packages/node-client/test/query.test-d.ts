/**
 * The option objects of `@x/node-client/query` in the hooks of two frameworks and in query-core: each
 * hook takes them as they are and infers `data` and `error` without annotation. Type level only: no
 * component is rendered (calling a hook here would need React or a Vue setup context).
 */
import { describe, expectTypeOf, it } from 'vitest';
import { QueryClient, type InfiniteData } from '@tanstack/query-core';
import { useInfiniteQuery, useQuery, useSuspenseInfiniteQuery, useSuspenseQuery, queryOptions, infiniteQueryOptions } from '@tanstack/react-query';
import { useInfiniteQuery as useVueInfiniteQuery, useQuery as useVueQuery } from '@tanstack/vue-query';
import {
  createNodeClient,
  type AccountCoinStatementV2,
  type AccountData,
  type AccountStatementV1,
  type AccountStatementV2,
  type AnyClientError,
  type MoveList,
  type MoveModule,
  type MoveModuleBytecode,
  type MoveModuleListV2,
  type MoveResourceOf,
  type MoveResourcesResponse,
  type MoveValueResponseV1,
  type TransactionInfoV2,
} from '@x/node-client';
import { http, type AccountStatementV3, type CursorPage, type TransactionV3 } from '@x/node-client';
import {
  createNodeQueries,
  getAccountV3QueryOptions,
  getResourceV3QueryOptions,
  listModulesV3InfiniteQueryOptions,
  listTransactionsV3InfiniteQueryOptions,
  type NodeQueryError,
  type PageParam,
} from '@x/node-client/query';

const q = createNodeQueries(createNodeClient());

describe('React: useQuery, useSuspenseQuery', () => {
  it('infer data and error of every v2 operation', () => {
    const account = useQuery(q.v2.getAccount('0x1'));
    expectTypeOf(account.data).toEqualTypeOf<AccountData | undefined>();
    expectTypeOf(account.error).toEqualTypeOf<AnyClientError | null>();
    // The code narrows the class (issue 37.3).
    if (account.error?.code === 'HTTP_ERROR') expectTypeOf(account.error.status).toEqualTypeOf<number>();
    // A 410's code narrows to HistoryPrunedError alone, whose oldestBlock is then there to read.
    if (account.error?.code === 'HISTORY_PRUNED') expectTypeOf(account.error.oldestBlock).toEqualTypeOf<bigint | undefined>();
    expectTypeOf(useQuery(q.v2.listTransactions('0x1', { count: 5, start: 10n })).data).toEqualTypeOf<AccountStatementV2 | undefined>();
    expectTypeOf(useQuery(q.v2.listCoinTransactions('0x1')).data).toEqualTypeOf<AccountCoinStatementV2 | undefined>();
    expectTypeOf(useQuery(q.v2.listModules('0x1', { start: 'cursor' })).data).toEqualTypeOf<MoveModuleListV2 | undefined>();
    expectTypeOf(useQuery(q.v2.getModule('0x1', 'coin')).data).toEqualTypeOf<MoveModuleBytecode | undefined>();
    expectTypeOf(useQuery(q.v2.listResources('0x1')).data).toEqualTypeOf<MoveResourcesResponse | undefined>();
    // Typed by the resource type, as node.v2.getResource is (issue 37.2).
    expectTypeOf(useQuery(q.v2.getResource('0x1', '0x1::account::Account')).data).toEqualTypeOf<MoveResourceOf<'0x1::account::Account'> | undefined>();
    expectTypeOf(useQuery(q.v2.getResource('0x1', '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>')).data!.data.coin.value).toEqualTypeOf<string>();
  });

  it('v1: the v1 shapes, null where v1 answers null', () => {
    expectTypeOf(useQuery(q.v1.getAccount('0x1')).data).toEqualTypeOf<AccountData | null | undefined>();
    expectTypeOf(useQuery(q.v1.getModule('0x1', 'coin')).data).toEqualTypeOf<MoveModule | null | undefined>();
    expectTypeOf(useQuery(q.v1.getResource('0x1', '0x1::account::Account')).data).toEqualTypeOf<MoveValueResponseV1 | null | undefined>();
    expectTypeOf(useQuery(q.v1.listTransactions('0x1')).data).toEqualTypeOf<AccountStatementV1 | undefined>();
    expectTypeOf(useQuery(q.v1.listModules('0x1', { start: [0, 1] })).data).toEqualTypeOf<MoveList | undefined>();
    expectTypeOf(useQuery(q.v1.getAccount('0x1')).error).toEqualTypeOf<AnyClientError | null>();
  });

  it('useSuspenseQuery: data is defined', () => {
    const account = useSuspenseQuery(q.v2.getAccount('0x1'));
    expectTypeOf(account.data).toEqualTypeOf<AccountData>();
    expectTypeOf(account.error).toEqualTypeOf<AnyClientError | null>();
  });

  it('spread with query options of your own: still inferred', () => {
    const r = useQuery({ ...q.v2.getAccount('0x1'), staleTime: 10_000, retry: 1, enabled: true });
    expectTypeOf(r.data).toEqualTypeOf<AccountData | undefined>();
    expectTypeOf(r.error).toEqualTypeOf<AnyClientError | null>();
    const selected = useQuery({ ...q.v2.getAccount('0x1'), select: (a) => a.sequence_number });
    expectTypeOf(selected.data).toEqualTypeOf<AccountData['sequence_number'] | undefined>();
  });

  it("React's queryOptions() and infiniteQueryOptions() take them too", () => {
    expectTypeOf(useQuery(queryOptions(q.v2.getAccount('0x1'))).data).toEqualTypeOf<AccountData | undefined>();
    expectTypeOf(useInfiniteQuery(infiniteQueryOptions(q.v2.modules('0x1'))).data?.pages).toEqualTypeOf<MoveModuleListV2[] | undefined>();
  });
});

describe('React: useInfiniteQuery', () => {
  it('pages are the listing bodies; page params text', () => {
    const txs = useInfiniteQuery(q.v2.transactions('0x1', { pageSize: 25 }));
    expectTypeOf(txs.data?.pages).toEqualTypeOf<AccountStatementV2[] | undefined>();
    expectTypeOf(txs.error).toEqualTypeOf<AnyClientError | null>();
    expectTypeOf(txs.fetchNextPage).toBeFunction();
    expectTypeOf(useInfiniteQuery(q.v2.coinTransactions('0x1')).data?.pages).toEqualTypeOf<AccountCoinStatementV2[] | undefined>();
    expectTypeOf(useInfiniteQuery(q.v2.modules('0x1')).data?.pages).toEqualTypeOf<MoveModuleListV2[] | undefined>();
    expectTypeOf(useInfiniteQuery(q.v2.resources('0x1')).data?.pages).toEqualTypeOf<MoveResourcesResponse[] | undefined>();
    expectTypeOf(useInfiniteQuery(q.v1.modules('0x1', { start: [1, 2] })).data?.pages).toEqualTypeOf<MoveList[] | undefined>();
    // React's hooks type `data.pageParams` as unknown[] (their TData defaults to InfiniteData<TQueryFnData>): TanStack's own typing.
    expectTypeOf(useInfiniteQuery(q.v2.transactions('0x1')).data?.pageParams).toEqualTypeOf<unknown[] | undefined>();
  });

  it('select flattens the pages into items', () => {
    const txs = useInfiniteQuery({ ...q.v2.transactions('0x1'), select: (data) => data.pages.flatMap((page) => page.record) });
    expectTypeOf(txs.data).toEqualTypeOf<TransactionInfoV2[] | undefined>();
    expectTypeOf(txs.error).toEqualTypeOf<AnyClientError | null>();
  });

  it('useSuspenseInfiniteQuery', () => {
    const txs = useSuspenseInfiniteQuery(q.v2.transactions('0x1', { order: 'desc' }));
    expectTypeOf(txs.data.pages).toEqualTypeOf<AccountStatementV2[]>();
    expectTypeOf(txs.error).toEqualTypeOf<AnyClientError | null>();
  });
});

describe('Vue: useQuery, useInfiniteQuery', () => {
  it('infer data and error', () => {
    const account = useVueQuery(q.v2.getAccount('0x1'));
    expectTypeOf(account.data.value).toEqualTypeOf<AccountData | undefined>();
    expectTypeOf(account.error.value).toEqualTypeOf<AnyClientError | null>();
    expectTypeOf(useVueQuery(q.v1.getResource('0x1', '0x1::account::Account')).data.value).toEqualTypeOf<MoveValueResponseV1 | null | undefined>();
    const txs = useVueInfiniteQuery(q.v2.transactions('0x1', { pageSize: 25 }));
    expectTypeOf(txs.data.value?.pages).toEqualTypeOf<AccountStatementV2[] | undefined>();
    expectTypeOf(txs.error.value).toEqualTypeOf<AnyClientError | null>();
  });
});

describe('query-core', () => {
  it('fetchQuery, fetchInfiniteQuery and getQueryData are typed by the options and the key', async () => {
    const qc = new QueryClient();
    expectTypeOf(qc.fetchQuery(q.v2.getAccount('0x1'))).resolves.toEqualTypeOf<AccountData>();
    expectTypeOf(qc.fetchInfiniteQuery(q.v2.transactions('0x1'))).resolves.toEqualTypeOf<InfiniteData<AccountStatementV2, PageParam>>();
    expectTypeOf(qc.getQueryData(q.v2.getAccount('0x1').queryKey)).toEqualTypeOf<AccountData | undefined>();
    expectTypeOf(qc.getQueryData(q.v2.modules('0x1').queryKey)).toEqualTypeOf<InfiniteData<MoveModuleListV2, PageParam> | undefined>();
    // A prefix of a key selects a group: every page of a node's transaction listings, plain and infinite.
    void qc.invalidateQueries({ queryKey: ['@x/node-client', createNodeClient().baseUrls, 'listTransactionsV2'] });
  });
});

describe('arguments', () => {
  it('are the client calls\' own, without signal (TanStack passes its own)', () => {
    expectTypeOf<NodeQueryError>().toEqualTypeOf<AnyClientError>();
    expectTypeOf(q.v2.listTransactions).toBeCallableWith('0x1', { count: 5, start: '18446744073709551615' });
    expectTypeOf(q.v1.resources).toBeCallableWith('0x1', { start: [0, 255], pageSize: 10 });
    // @ts-expect-error a v2 cursor is a string
    void q.v2.modules('0x1', { start: [1, 2] });
    // @ts-expect-error newest first starts at the newest item: no start
    void q.v2.transactions('0x1', { order: 'desc', start: 5 });
    // @ts-expect-error coin transactions have no documented way back past their newest page
    void q.v2.coinTransactions('0x1', { order: 'desc' });
    // @ts-expect-error the query's signal is TanStack's
    void q.v2.listTransactions('0x1', { signal: new AbortController().signal });
  });
});

describe('one query option per operation', () => {
  it('is typed as the method of createNodeQueries, over a transport or a client', () => {
    const node = http({ baseUrl: 'http://127.0.0.1:27000' });
    expectTypeOf(getAccountV3QueryOptions(node, '0x1')).toEqualTypeOf(q.v3.getAccount('0x1'));
    expectTypeOf(getAccountV3QueryOptions(createNodeClient(), '0x1')).toEqualTypeOf(q.v3.getAccount('0x1'));
    expectTypeOf(useQuery(getAccountV3QueryOptions(node, '0x1')).data).toEqualTypeOf<AccountData | undefined>();
    expectTypeOf(useQuery(getResourceV3QueryOptions(node, '0x1', '0x1::account::Account')).data).toEqualTypeOf<MoveResourceOf<'0x1::account::Account'> | undefined>();
    const history = useInfiniteQuery(listTransactionsV3InfiniteQueryOptions(node, '0x1', { order: 'desc', pageSize: 25 }));
    expectTypeOf(history.data?.pages).toEqualTypeOf<AccountStatementV3[] | undefined>();
    expectTypeOf(history.data?.pages[0]?.[0]).toEqualTypeOf<TransactionV3 | undefined>();
    expectTypeOf(useInfiniteQuery(listModulesV3InfiniteQueryOptions(node, '0x1')).data?.pages).toEqualTypeOf<CursorPage<MoveModuleBytecode>[] | undefined>();
    // @ts-expect-error an address is a string
    void getAccountV3QueryOptions(node, 1);
    // @ts-expect-error the first argument is a transport or a client
    void getAccountV3QueryOptions({ baseUrl: 'http://127.0.0.1:27000' }, '0x1');
  });
});
