/**
 * TanStack Query options for every node operation, in any framework: plain objects (`queryKey`,
 * `queryFn`, and for listings `initialPageParam` and `getNextPageParam`) to pass to `useQuery`,
 * `useInfiniteQuery`, `useSuspenseQuery`, `queryClient.fetchQuery`, … of React, Vue, Solid, Svelte or
 * query-core itself. One function per operation (`getAccountV3QueryOptions(client, address)`) and per
 * listing (`listTransactionsV3InfiniteQueryOptions(client, address, { pageSize })`): a bundle carries the
 * action of each it imports and nothing of the others. `createNodeQueries(node)` binds them all to one
 * client (`queries.v3.getAccount(address)`, same keys). Nothing of TanStack is imported at run time (its
 * types only; `@tanstack/query-core` is an optional peer dependency), and an app that does not import
 * this subpath carries none of it.
 *
 * @example
 * ```ts
 * import { http } from '@x/node-client';
 * import { getAccountV3QueryOptions, listTransactionsV3InfiniteQueryOptions } from '@x/node-client/query';
 * import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
 *
 * const node = http({ baseUrl: 'http://127.0.0.1:27000' });
 * const { data: account, error } = useQuery(getAccountV3QueryOptions(node, '0x1')); // AccountData | undefined, AnyClientError | null
 * const history = useInfiniteQuery(listTransactionsV3InfiniteQueryOptions(node, '0x1', { pageSize: 25 }));
 * ```
 * @module @x/node-client/query
 */
import type { ClientError } from '@x/client-core';
import type { NodeClient } from './api.js';
import type { NodeVersionQueries } from './generated/queries.js';
import { versionQueries } from './generated/query-tables.js';

export * from './query-types.js';
export * from './generated/queries.js';
export type { NodeQueryClient } from './query-options.js';

/** What {@link createNodeQueries} returns: the query options of every version. */
export type NodeQueries = NodeVersionQueries;

/**
 * TanStack Query options for the operations of `client`: `queries.v2.getAccount(address)` and the other
 * operations for `useQuery`/`fetchQuery`, `queries.v2.transactions(address, { pageSize })` and the other
 * listings for `useInfiniteQuery`/`fetchInfiniteQuery`. Options are built without a request and never
 * throw: a bad argument is the query's `InvalidArgumentError`, as the client reports it. Each method is
 * the operation's own query option bound to `client` (`queries.v3.getAccount(address)` is
 * `getAccountV3QueryOptions(client, address)`, same key): import those instead where bundle size counts,
 * as this binds every operation's.
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
  const queries: Record<string, Record<string, unknown>> = {};
  for (const [version, table] of Object.entries(versionQueries)) {
    const bound: Record<string, unknown> = {};
    for (const [name, options] of Object.entries(table)) bound[name] = (...args: unknown[]) => (options as (client: NodeClient, ...args: unknown[]) => unknown)(client, ...args);
    queries[version] = bound;
  }
  return queries as NodeQueries;
}

export type { PageParam } from './query-pages.js';
export type { ListCursor, ResponseBody, U64Input } from './api.js';
export type { NodeRpcOperationId as OperationId } from '@x/common';
export type { PagedOperationId } from '@x/common';
export type { ClientError };
