/**
 * TanStack Query options for every node operation, in any framework: `createNodeQueries(node)` returns
 * plain objects (`queryKey`, `queryFn`, and for listings `initialPageParam` and `getNextPageParam`) to
 * pass to `useQuery`, `useInfiniteQuery`, `useSuspenseQuery`, `queryClient.fetchQuery`, … of React,
 * Vue, Solid, Svelte or query-core itself. Nothing of TanStack is imported at run time (its types only;
 * `@tanstack/query-core` is an optional peer dependency), and an app that does not import this subpath
 * carries none of it.
 *
 * @example
 * ```ts
 * import { createNodeClient } from '@x/node-client';
 * import { createNodeQueries } from '@x/node-client/query';
 * import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
 *
 * const queries = createNodeQueries(createNodeClient());
 * const { data: account, error } = useQuery(queries.v2.getAccount('0x1')); // AccountData | undefined, ClientError | null
 * const history = useInfiniteQuery(queries.v2.transactions('0x1', { pageSize: 25 }));
 * ```
 * @module @x/node-client/query
 */
import type { DataTag, InfiniteData } from '@tanstack/query-core';
import type { ClientError, QueryErrorOptions } from '@x/client-core';
import { normalizeAddress } from './address.js';
import type { ListCursor, NodeClient, ResponseBody, U64Input } from './api.js';
import type { OperationId } from './generated/operations.js';
import { paging, type PagedOperationId } from '@x/common';
import { fetchPage, firstParam, maxCount, nextParam, u64Text, type PageParam, type PagedListing } from './query-pages.js';

/** The first segment of every key of this package, e.g. to invalidate every node query at once. */
export const NODE_QUERY_SCOPE = '@x/node-client';

/** The error of every node query: the client's errors are all `ClientError`s (narrow with `instanceof`). */
export type NodeQueryError = ClientError;

/**
 * Key of a query: scope, the client's base URLs (two clients of different nodes never share an
 * entry), the operation id, and the call's parameters in JSON-safe form (u64s in decimal text,
 * addresses in their canonical form), so equal calls have equal keys.
 */
export type NodeQueryKey<Id extends OperationId = OperationId> = readonly [typeof NODE_QUERY_SCOPE, readonly string[], Id, Readonly<Record<string, unknown>>];

/** Key of an infinite query: as {@link NodeQueryKey} with `'infinite'` before the parameters, so it never meets the plain query of the same operation. */
export type NodeInfiniteQueryKey<Id extends PagedOperationId = PagedOperationId> = readonly [
  typeof NODE_QUERY_SCOPE,
  readonly string[],
  Id,
  'infinite',
  Readonly<Record<string, unknown>>,
];

// TanStack's retry options typed with the query's error: one declaration, in @x/client-core.
export type { QueryErrorOptions };

/**
 * Options of one query. `queryFn` passes TanStack's `signal` to the client, so a cancelled query
 * aborts its request. The key is tagged with the data and error types (`queryClient.getQueryData(key)` is typed).
 */
export type NodeQueryOptions<TData, TKey extends NodeQueryKey = NodeQueryKey> = QueryErrorOptions<NodeQueryError> & {
  queryKey: DataTag<TKey, TData, NodeQueryError>;
  queryFn: (context: { readonly signal: AbortSignal }) => Promise<TData>;
};

/**
 * Options of one infinite query: each page is one listing request's body, as the client returns it
 * (`page.record`, `page.modules`, …); `getNextPageParam` gives the next `start` the iterators would
 * take, or `undefined` at the end of the listing. Page params are text: see {@link PageParam}.
 */
export type NodeInfiniteQueryOptions<TPage, TKey extends NodeInfiniteQueryKey = NodeInfiniteQueryKey> = QueryErrorOptions<NodeQueryError> & {
  queryKey: DataTag<TKey, InfiniteData<TPage, PageParam>, NodeQueryError>;
  queryFn: (context: { readonly signal: AbortSignal; readonly pageParam: PageParam }) => Promise<TPage>;
  initialPageParam: PageParam;
  getNextPageParam: (lastPage: TPage, allPages: TPage[], lastPageParam: PageParam, allPageParams: PageParam[]) => PageParam;
};

/** Paging options of the infinite queries. */
export type PageOptions = {
  /** Items per page (per request); default and maximum: the operation's maximum `count` (100), as the iterators. */
  pageSize?: number;
};

/** Parameters of the list queries: the client's list options without `signal` (TanStack passes its own). */
export type ListQueryParams<Start> = { count?: number; start?: Start };

type Q<V extends string, Name extends string> = NodeQueryOptions<ResponseBody<`${Name}${V}` & OperationId>, NodeQueryKey<`${Name}${V}` & OperationId>>;
type I<V extends string, Name extends string> = NodeInfiniteQueryOptions<ResponseBody<`${Name}${V}` & PagedOperationId>, NodeInfiniteQueryKey<`${Name}${V}` & PagedOperationId>>;

/** The query options of one version: one per operation, and one infinite query per listing. */
export type AccountQueries<V extends 'V1' | 'V2'> = {
  /** The account's sequence number and authentication key. */
  getAccount(address: string): Q<V, 'getAccount'>;
  /** One page of the transactions sent by the account (`node.v2.listTransactions`). */
  listTransactions(address: string, params?: ListQueryParams<U64Input>): Q<V, 'listTransactions'>;
  /** One page of the coin transactions sent and received. */
  listCoinTransactions(address: string, params?: ListQueryParams<U64Input>): Q<V, 'listCoinTransactions'>;
  /** One page of the modules published by the account. */
  listModules(address: string, params?: ListQueryParams<ListCursor<V>>): Q<V, 'listModules'>;
  /** One module by name. */
  getModule(address: string, moduleName: string): Q<V, 'getModule'>;
  /** One page of the account's resources. */
  listResources(address: string, params?: ListQueryParams<ListCursor<V>>): Q<V, 'listResources'>;
  /** One resource by its Move type, e.g. `0x1::account::Account`. */
  getResource(address: string, resourceType: string): Q<V, 'getResource'>;
  /**
   * Transactions sent by the account, page after page: ascending by sequence number from `start`
   * (default 0), or newest first with `order: 'desc'` (each page's `record` newest first).
   */
  transactions(address: string, options?: PageOptions & ({ order?: 'asc'; start?: U64Input } | { order: 'desc'; start?: never })): I<V, 'listTransactions'>;
  /** Coin transactions sent and received, ascending from the cursor `start` (default 0). */
  coinTransactions(address: string, options?: PageOptions & { start?: U64Input }): I<V, 'listCoinTransactions'>;
  /** The account's modules, from `start` (default: the beginning). */
  modules(address: string, options?: PageOptions & { start?: ListCursor<V> }): I<V, 'listModules'>;
  /** The account's resources, from `start` (default: the beginning). */
  resources(address: string, options?: PageOptions & { start?: ListCursor<V> }): I<V, 'listResources'>;
};

/**
 * Version 1 query options.
 * @deprecated The v1 API is deprecated; use `queries.v2`.
 */
export type NodeV1Queries = {
  /** @deprecated Use `queries.v2.getAccount`. Resolves to `null` where v1 answers null. */
  getAccount: AccountQueries<'V1'>['getAccount'];
  /** @deprecated Use `queries.v2.listTransactions`. */
  listTransactions: AccountQueries<'V1'>['listTransactions'];
  /** @deprecated Use `queries.v2.listCoinTransactions`. */
  listCoinTransactions: AccountQueries<'V1'>['listCoinTransactions'];
  /** @deprecated Use `queries.v2.listModules`. */
  listModules: AccountQueries<'V1'>['listModules'];
  /** @deprecated Use `queries.v2.getModule`. Resolves to `null` where v1 answers null. */
  getModule: AccountQueries<'V1'>['getModule'];
  /** @deprecated Use `queries.v2.listResources`. */
  listResources: AccountQueries<'V1'>['listResources'];
  /** @deprecated Use `queries.v2.getResource`. Resolves to `null` where v1 answers null. */
  getResource: AccountQueries<'V1'>['getResource'];
  /** @deprecated Use `queries.v2.transactions`. */
  transactions: AccountQueries<'V1'>['transactions'];
  /** @deprecated Use `queries.v2.coinTransactions`. */
  coinTransactions: AccountQueries<'V1'>['coinTransactions'];
  /** @deprecated Use `queries.v2.modules`. */
  modules: AccountQueries<'V1'>['modules'];
  /** @deprecated Use `queries.v2.resources`. */
  resources: AccountQueries<'V1'>['resources'];
};

/** What {@link createNodeQueries} returns. */
export type NodeQueries = {
  /** @deprecated The v1 API is deprecated; use `v2`. */
  readonly v1: NodeV1Queries;
  readonly v2: AccountQueries<'V2'>;
};

/**
 * TanStack Query options for the operations of `client`: `queries.v2.getAccount(address)` and the other
 * operations for `useQuery`/`fetchQuery`, `queries.v2.transactions(address, { pageSize })` and the other
 * listings for `useInfiniteQuery`/`fetchInfiniteQuery`. Options are built without a request and never
 * throw: a bad argument is the query's `InvalidArgumentError`, as the client reports it.
 *
 * @example
 * ```ts
 * import { QueryClient } from '@tanstack/query-core';
 * const queryClient = new QueryClient();
 * const queries = createNodeQueries(createNodeClient({ baseUrl: 'http://127.0.0.1:27000' }));
 * const account = await queryClient.fetchQuery(queries.v2.getAccount('0x1'));        // AccountData
 * const pages = await queryClient.fetchInfiniteQuery({ ...queries.v2.modules('0x1', { pageSize: 10 }), pages: 2 });
 * console.log(pages.pages.flatMap((page) => page.modules.map((m) => m.abi.name)));
 * ```
 */
export function createNodeQueries(client: NodeClient): NodeQueries {
  return { v1: accountQueries(client, 'V1') as NodeV1Queries, v2: accountQueries(client, 'V2') };
}

type Call = (...args: unknown[]) => Promise<unknown>;

function accountQueries<V extends 'V1' | 'V2'>(client: NodeClient, v: V): AccountQueries<V> {
  const api = (v === 'V1' ? client.v1 : client.v2) as unknown as Record<string, Call>;
  const query = (name: string, params: Record<string, unknown>, args: (signal: AbortSignal) => unknown[]) => ({
    queryKey: [NODE_QUERY_SCOPE, client.baseUrls, `${name}${v}`, params],
    queryFn: ({ signal }: { signal: AbortSignal }) => api[name]!(...args(signal)),
  });
  const address = (a: string): unknown => normalizeAddress(a);
  const list = (name: string) => (a: string, p: ListQueryParams<unknown> = {}) => {
    const rule = paging[`${name}${v}` as PagedOperationId];
    // The key's start is the one the request sends: a u64 in decimal, a v1 byte cursor as hex.
    const start = rule.next.encoding === 'u64' ? u64Text(p.start) : p.start === undefined ? undefined : firstParam(rule, p.start);
    return query(name, { address: address(a), count: p.count, start }, (signal) => [a, { count: p.count, start: p.start, signal }]);
  };
  const infinite =
    (name: string) =>
    (a: string, o: PageOptions & { order?: unknown; start?: unknown } = {}) => {
      const operationId = `${name}${v}` as PagedOperationId;
      const rule = paging[operationId];
      const order = o.order ?? 'asc';
      const listing: PagedListing = {
        operationId,
        rule,
        pageSize: o.pageSize ?? maxCount(operationId),
        order,
        start: o.start,
        fetch: (start, count, signal) => api[name]!(a, { count, start, signal }),
      };
      const initialPageParam = order === 'desc' ? undefined : firstParam(rule, o.start);
      return {
        queryKey: [NODE_QUERY_SCOPE, client.baseUrls, operationId, 'infinite', { address: address(a), pageSize: listing.pageSize, order, start: initialPageParam }],
        queryFn: ({ signal, pageParam }: { signal: AbortSignal; pageParam: PageParam }) => fetchPage(listing, pageParam, signal),
        initialPageParam,
        getNextPageParam: (page: unknown, _pages: unknown[], param: PageParam, params: PageParam[]) => nextParam(listing, page, param, params),
      };
    };
  // Built untyped from the names; the types are the public signature's (AccountQueries).
  return {
    getAccount: (a: string) => query('getAccount', { address: address(a) }, (signal) => [a, { signal }]),
    listTransactions: list('listTransactions'),
    listCoinTransactions: list('listCoinTransactions'),
    listModules: list('listModules'),
    getModule: (a: string, module_name: string) => query('getModule', { address: address(a), module_name }, (signal) => [a, module_name, { signal }]),
    listResources: list('listResources'),
    getResource: (a: string, resource_type: string) => query('getResource', { address: address(a), resource_type }, (signal) => [a, resource_type, { signal }]),
    transactions: infinite('listTransactions'),
    coinTransactions: infinite('listCoinTransactions'),
    modules: infinite('listModules'),
    resources: infinite('listResources'),
  } as unknown as AccountQueries<V>;
}

export type { PageParam } from './query-pages.js';
export type { ListCursor, ResponseBody, U64Input } from './api.js';
export type { OperationId } from './generated/operations.js';
export type { PagedOperationId } from '@x/common';
export type { ClientError } from '@x/client-core';
