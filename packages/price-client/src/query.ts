/**
 * TanStack Query options for the price service, in any framework: `historyQueryOptions(prices, parameters)`
 * and `latestQueryOptions(prices, parameters)` (or `createPriceQueries(prices)`, both bound to one client)
 * return plain objects (`queryKey`, `queryFn`) for `useQuery`, `useSuspenseQuery`, `queryClient.fetchQuery`, …
 * Nothing of TanStack is imported at run time (its types only; `@tanstack/query-core` is an optional
 * peer dependency), and an app that does not import this subpath carries none of it.
 *
 * @example
 * ```ts
 * import { createPriceClient } from '@x/price-client';
 * import { createPriceQueries, latestQueryOptions } from '@x/price-client/query';
 * import { useQuery } from '@tanstack/react-query';
 *
 * const prices = createPriceClient({ apiKey });
 * const { data: latest } = useQuery(latestQueryOptions(prices, { pair: 'btc_usdt' })); // LatestResponse | undefined
 * const same = createPriceQueries(prices).latest({ pair: 'btc_usdt' }); // the same options, bound to the client
 * ```
 * @module @x/price-client/query
 */
import type { DataTag } from '@tanstack/query-core';
import type { AnyClientError, QueryErrorOptions } from '@x/client-core';
import type { HistoryParameters, LatestParameters, PriceClient } from './client.js';
import type { CandleUpdate, WatchCandlesParameters } from './client.js';
import type { Candle, LatestResponse } from '@x/price-types';
import type { PriceHistoryOperationId as OperationId } from '@x/common';

/** The first segment of every key of this package. */
export const PRICE_QUERY_SCOPE = '@x/price-client';

/**
 * The error of every price query: one of the client's errors, tagged by `code` (`error.code === 'HTTP_ERROR'`
 * narrows it to `HttpError`; `instanceof` works too).
 */
export type PriceQueryError = AnyClientError;

/**
 * Key of a query: scope, the client's base URLs, the operation id, and the parameters (times as Unix
 * milliseconds, so a `Date` and its milliseconds are one key). The API key is never part of it: the
 * client holds it, and keys are visible to devtools, persisters and logs.
 */
export type PriceQueryKey<Id extends OperationId = OperationId> = readonly [typeof PRICE_QUERY_SCOPE, readonly string[], Id, Readonly<Record<string, unknown>>];

// TanStack's retry options typed with the query's error: one declaration, in @x/client-core.
export type { QueryErrorOptions };

/** Options of one query; `queryFn` passes TanStack's `signal` to the client, so a cancelled query aborts its request. */
export type PriceQueryOptions<TData, TKey extends PriceQueryKey = PriceQueryKey> = QueryErrorOptions<PriceQueryError> & {
  queryKey: DataTag<TKey, TData, PriceQueryError>;
  queryFn: (context: { readonly signal: AbortSignal }) => Promise<TData>;
};

/** What {@link createPriceQueries} returns. */
export type PriceQueries = {
  /** Candles of one pair in `[start, end]`, sorted by timestamp (`prices.history`). */
  history(parameters: Omit<HistoryParameters, 'signal'>): PriceQueryOptions<Candle[], PriceQueryKey<'getHistory'>>;
  /** The latest price data (`prices.latest`). */
  latest(parameters?: Omit<LatestParameters, 'signal'>): PriceQueryOptions<LatestResponse, PriceQueryKey<'getLatest'>>;
};

/** The key of a price query: scope, base URLs, operation id, parameters. */
const key = (client: PriceClient, id: OperationId, params: Record<string, unknown>) => [PRICE_QUERY_SCOPE, client.baseUrls, id, params];

/**
 * TanStack Query options of `prices.history(parameters)`: candles of one pair in `[start, end]`. A range
 * ending "now" is a new key at each render: compute `end` once (or round it) so that the query is cached
 * and not refetched in a loop. Only the named parameters reach the key, so nothing else a caller's object
 * holds (the API key is the client's) can be cached or shown.
 *
 * @example
 * ```ts
 * import { QueryClient } from '@tanstack/query-core';
 * const prices = createPriceClient({ baseUrl: 'http://127.0.0.1:27001', apiKey: 'test-key' });
 * const HOUR = 3_600_000;
 * const end = Math.floor(Date.now() / HOUR) * HOUR; // the last six full hours
 * const candles = await new QueryClient().fetchQuery(historyQueryOptions(prices, { pair: 'btc_usdt', start: end - 6 * HOUR, end: end - 1, resolution: 3600 }));
 * ```
 */
export function historyQueryOptions(client: PriceClient, { pair, start, end, resolution }: Omit<HistoryParameters, 'signal'>): PriceQueryOptions<Candle[], PriceQueryKey<'getHistory'>> {
  // The key's data tag exists in types only.
  return {
    queryKey: key(client, 'getHistory', { pair, start: millis(start), end: millis(end), resolution }),
    queryFn: ({ signal }: { signal: AbortSignal }) => client.history({ pair, start, end, resolution, signal }),
    retry: false,
  } as never;
}

/**
 * TanStack Query options of `prices.latest(parameters)`: the latest price data, of one pair or every pair.
 *
 * @example
 * ```ts
 * import { QueryClient } from '@tanstack/query-core';
 * const prices = createPriceClient({ baseUrl: 'http://127.0.0.1:27001', apiKey: 'test-key' });
 * const latest = await new QueryClient().fetchQuery(latestQueryOptions(prices, { pair: 'btc_usdt' }));
 * ```
 */
export function latestQueryOptions(client: PriceClient, { pair }: Omit<LatestParameters, 'signal'> = {}): PriceQueryOptions<LatestResponse, PriceQueryKey<'getLatest'>> {
  return { queryKey: key(client, 'getLatest', { pair }), queryFn: ({ signal }: { signal: AbortSignal }) => client.latest({ pair, signal }), retry: false } as never;
}

/**
 * TanStack Query options for the price service of `client`: {@link historyQueryOptions} and
 * {@link latestQueryOptions} bound to it, same keys.
 *
 * @example
 * ```ts
 * import { QueryClient } from '@tanstack/query-core';
 * const queryClient = new QueryClient();
 * const queries = createPriceQueries(createPriceClient({ baseUrl: 'http://127.0.0.1:27001', apiKey: 'test-key' }));
 * const HOUR = 3_600_000;
 * const end = Math.floor(Date.now() / HOUR) * HOUR; // the last six full hours
 * const candles = await queryClient.fetchQuery(queries.history({ pair: 'btc_usdt', start: end - 6 * HOUR, end: end - 1, resolution: 3600 }));
 * ```
 */
export function createPriceQueries(client: PriceClient): PriceQueries {
  return { history: (parameters) => historyQueryOptions(client, parameters), latest: (parameters) => latestQueryOptions(client, parameters) };
}

/** A valid `Date` as its Unix milliseconds; anything else unchanged (the client reports it when the query runs). */
const millis = (value: unknown): unknown => (value instanceof Date && !Number.isNaN(value.getTime()) ? value.getTime() : value);

/** Key of a live candle query: scope, base URLs, `'watchCandles'`, and the pair and resolution. */
export type LiveCandleQueryKey = readonly [typeof PRICE_QUERY_SCOPE, readonly string[], 'watchCandles', Readonly<Record<string, unknown>>];

/** What a live query's function needs of TanStack's context: the signal, its key and its client (TanStack Query 5 gives all three). */
export type LiveQueryContext = {
  readonly signal: AbortSignal;
  readonly queryKey: readonly unknown[];
  readonly client: { setQueryData(queryKey: readonly unknown[], data: CandleUpdate): unknown };
};

/** Options of a live candle query (see {@link liveCandleQueryOptions}). */
export type LiveCandleQueryOptions = QueryErrorOptions<PriceQueryError> & {
  queryKey: DataTag<LiveCandleQueryKey, CandleUpdate, PriceQueryError>;
  queryFn: (context: LiveQueryContext) => Promise<CandleUpdate>;
  staleTime: number;
  refetchOnWindowFocus: false;
  refetchOnReconnect: false;
};

/**
 * TanStack Query options of a **live last candle**: the query's data is the latest update of
 * `prices.watchCandles({ pair, resolution })` (`{ candle, closed }`), written into the cache as each
 * one arrives, as `streamedQuery` of `@tanstack/query-core` does (without loading it: this subpath
 * imports nothing of TanStack at run time). The data is `pending` until the first tick, then `success`
 * with `fetchStatus` `'fetching'` while the stream runs. The stream reconnects by itself, so TanStack
 * does not refetch it (`staleTime: Infinity`, no refetch on focus or reconnect, `retry: false`); when the
 * last observer leaves, TanStack aborts the query's signal and the socket closes.
 *
 * @example
 * ```ts
 * import { QueryObserver } from '@tanstack/query-core';
 * const live = new QueryObserver(queryClient, liveCandleQueryOptions(prices, { pair: 'btc_usdt', resolution: 60 }));
 * const stop = live.subscribe(({ data }) => data && console.log(data.candle.close, data.closed ? 'final' : 'forming'));
 * ```
 */
export function liveCandleQueryOptions(client: PriceClient, { pair, resolution }: Pick<WatchCandlesParameters, 'pair' | 'resolution'>): LiveCandleQueryOptions {
  return {
    queryKey: [PRICE_QUERY_SCOPE, client.baseUrls, 'watchCandles', { pair, resolution }],
    queryFn: async ({ signal, queryKey, client: queryClient }: LiveQueryContext) => {
      let last: CandleUpdate | undefined;
      for await (last of client.watchCandles({ pair, resolution, signal })) queryClient.setQueryData(queryKey, last);
      // The stream ends only by the signal, which rejects it: there is always a last update here.
      return last as CandleUpdate;
    },
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: false,
  } as never;
}
