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
 * const { data: account, error } = useQuery(queries.v2.getAccount('0x1')); // AccountData | undefined, AnyClientError | null
 * const history = useInfiniteQuery(queries.v2.transactions('0x1', { pageSize: 25 }));
 * ```
 * @module @x/node-client/query
 */
import type { ClientError, OperationSpec } from '@x/client-core';
import { bigintAsText } from '@x/client-core';
import { normalizeAddress } from './address.js';
import type { NodeClient } from './api.js';
import { nodeRpcOperations as operations, type NodeRpcOperationId as OperationId } from '@x/common';
import { versionQueries, type NodeV1Queries, type NodeV2Queries, type NodeVersionQueries } from './generated/queries.js';
import { NODE_QUERY_SCOPE, type PageOptions } from './query-types.js';
import { fetchPage, firstParam, nextParam, u64Text, type PageParam, type PagedListing } from './query-pages.js';
import { floorOf, maxCount, nodeLeaver, pageParams, walkFilters, type ListingSpec } from './walk.js';
import { callWithBody } from './body-call.js';

export * from './query-types.js';
export type { NodeV1Queries, NodeV2Queries };

/** What {@link createNodeQueries} returns: the query options of every version. */
export type NodeQueries = NodeVersionQueries;

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
  const queries: Record<string, unknown> = {};
  for (const [version, table] of Object.entries(versionQueries)) queries[version] = queriesOf(client, table);
  return queries as NodeQueries;
}

type Table = Readonly<Record<string, { readonly id: OperationId; readonly walk?: boolean }>>;

/** A path parameter as a key holds it: an address in its canonical form. */
const keyed = (name: string, value: unknown): unknown => (name === 'address' ? normalizeAddress(value) : name === 'body' ? plain(value) : value);

/** A walk's filters as a key holds them: a u64 (the events' heights) in decimal. */
function keyedFilters(op: ListingSpec, filters: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of op.params) if (p.name in filters) out[p.name] = p.schema.format === 'uint64' ? u64Text(filters[p.name]) : filters[p.name];
  return out;
}

/** A request body as a key holds it: plain JSON (a bigint argument as its decimal string), which TanStack hashes. */
function plain(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value, bigintAsText) ?? 'null');
  } catch {
    return value; // refused by the call itself, with the parameter named
  }
}

/**
 * The query options of one version, built from the generated table: each takes the operation's path
 * parameters in order, then its query parameters (a query) or page options (an infinite query).
 */
function queriesOf(client: NodeClient, table: Table): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, { id, walk }] of Object.entries(table)) {
    // Read as the transport reads it: the literal types of the table add nothing here.
    const op: OperationSpec & { readonly paging?: ListingSpec['paging'] } = operations[id];
    // The path parameters in order, then the request body of a POST read (a view call).
    const path = [...op.params.filter((p) => p.in === 'path').map((p) => p.name), ...(op.body ? ['body'] : [])];
    /** The path parameters of a call's arguments, by name. */
    const u64 = new Set(op.params.filter((p) => p.schema.format === 'uint64').map((p) => p.name));
    // A key holds what the request sends: a u64 (a block height) in decimal, whichever form it was given in.
    const fixed = (args: readonly unknown[], key: boolean): Record<string, unknown> =>
      Object.fromEntries(path.map((n, i) => [n, key ? (u64.has(n) ? u64Text(args[i]) : keyed(n, args[i])) : args[i]]));
    out[name] = walk ? infinite(client, id, op as ListingSpec, path.length, fixed) : (...args: unknown[]) => {
      const params = (args[path.length] ?? {}) as Record<string, unknown>;
      const query: Record<string, unknown> = {};
      for (const p of op.params) {
        if (p.in !== 'query') continue;
        // The key's value is the one the request sends: a u64 in decimal, a v1 byte cursor as hex.
        const value = params[p.name];
        query[p.name] = p.schema.format === 'uint64' ? u64Text(value) : op.paging && p.name === 'start' && value !== undefined ? firstParam(op.paging, value) : value;
      }
      return {
        queryKey: [NODE_QUERY_SCOPE, client.baseUrls, id, { ...fixed(args, true), ...query }],
        queryFn: ({ signal }: { signal: AbortSignal }) => (op.body ? callWithBody(client.transport, id, op as Parameters<typeof callWithBody>[2], { ...fixed(args, false), ...params }, { signal }) : client.transport.call(id, op, { ...fixed(args, false), ...params }, { signal })),
        retry: false,
      };
    };
  }
  return out;
}

/** The infinite query of one listing: pages as the walks read them (see `query-pages.ts`). */
function infinite(client: NodeClient, id: OperationId, op: ListingSpec, positional: number, fixed: (args: readonly unknown[], key: boolean) => Record<string, unknown>) {
  return (...args: unknown[]) => {
    const o = (args[positional] ?? {}) as PageOptions & { order?: unknown; start?: unknown };
    const rule = op.paging;
    const order = o.order ?? 'asc';
    const args0 = fixed(args, false);
    // The listing's filters (v3's `type`) go with every page, and into the key.
    const filters = walkFilters(op, o);
    const listing: PagedListing = {
      operationId: id,
      rule,
      maxPageSize: maxCount(op),
      pageSize: o.pageSize ?? maxCount(op),
      order,
      start: o.start,
      floor: floorOf(op, o),
      fetch: (start, count, signal, affinity) => client.transport.call(id, op, { ...args0, ...filters, ...pageParams(rule, order, start, count) }, { signal }, affinity),
      leaver: (affinity) => nodeLeaver(client.transport, op, affinity),
    };
    const initialPageParam = order === 'desc' && rule.predictable ? undefined : firstParam(rule, o.start);
    return {
      queryKey: [NODE_QUERY_SCOPE, client.baseUrls, id, 'infinite', { ...fixed(args, true), ...keyedFilters(op, filters), pageSize: listing.pageSize, order, start: initialPageParam }],
      queryFn: ({ signal, pageParam }: { signal: AbortSignal; pageParam: PageParam }) => fetchPage(listing, pageParam, signal),
      initialPageParam,
      getNextPageParam: (page: unknown, _pages: unknown[], param: PageParam, params: PageParam[]) => nextParam(listing, page, param, params),
      retry: false,
    };
  };
}

export type { PageParam } from './query-pages.js';
export type { ListCursor, ResponseBody, U64Input } from './api.js';
export type { NodeRpcOperationId as OperationId } from '@x/common';
export type { PagedOperationId } from '@x/common';
export type { ClientError };
