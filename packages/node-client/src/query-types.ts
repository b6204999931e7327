/**
 * The types of the node client's TanStack Query options: keys, options, page options. A module of its
 * own, so that the generated per-version query types and the runtime (`query.ts`) both import it.
 */
import type { DataTag, InfiniteData } from '@tanstack/query-core';
import type { AnyClientError, QueryErrorOptions } from '@x/client-core';
import type { NodeRpcOperationId as OperationId, PagedOperationId } from '@x/common';

/** A page param: a u64 start in decimal, a cursor as the listing takes it back, or `undefined` for the listing's default page. */
export type PageParam = string | undefined;

/** The first segment of every key of this package, e.g. to invalidate every node query at once. */
export const NODE_QUERY_SCOPE = '@x/node-client';

/**
 * The error of every node query: one of the client's errors, tagged by `code` (`error.code === 'HTTP_ERROR'`
 * narrows it to `HttpError`; `instanceof` works too).
 */
export type NodeQueryError = AnyClientError;

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
  pageSize?: number | undefined;
};

/** Parameters of the list queries: the client's list options without `signal` (TanStack passes its own). */
export type ListQueryParams<Start> = { count?: number | undefined; start?: Start | undefined };

