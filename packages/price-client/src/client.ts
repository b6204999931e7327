import type { Candle, LatestResponse } from '@x/price-types';
import { PRICE_HISTORY_API_PATHS as API_PATHS, PRICE_HISTORY_BASE_URL as DEFAULT_BASE_URL, priceHistoryOperations as operations } from '@x/common';
import { ResponseShapeError, type ClientError, checkHeaders, createTransport, type CallOptions, type TransportOptions } from '@x/client-core';
import { bad, scopeOf } from '@x/client-core/internal';
import { checkPair, historyQuery, type HistoryParameters, type HistoryQuery, type TimeInput } from './arguments.js';

// Declared with their checks (arguments.ts), which the watchCandles chunk imports without this module.
export type { HistoryParameters, TimeInput } from './arguments.js';
import { redactError, safeError } from './secret.js';

/** Options of {@link createPriceClient}. */
export type PriceClientOptions = Omit<TransportOptions, 'baseUrl' | 'hedgeAfterMs' | 'rateLimit' | 'onAttempt'> & {
  /**
   * Base URL of the price service, an `http:` or `https:` URL (one: the provider publishes one service
   * address, and the API key is scoped to it).
   */
  baseUrl?: string | undefined;
  /**
   * API key of the price service, required by `history` and `historyRange`. Sent only as the
   * `x-api-key` header, only to requests under `baseUrl` (redirects elsewhere go without it), and never
   * shown in errors. Do not put it in `headers`: that is refused.
   */
  apiKey?: string | undefined;
  /**
   * WebSocket URL of the price service's candle feed, read by `watchCandles`: a `ws:` or `wss:` URL
   * (default `DEFAULT_WEBSOCKET_URL`), checked when `watchCandles` first runs. The key travels in the `x-api-key` header of the upgrade,
   * never in the URL. A browser cannot set that header: there, point this at a proxy of yours that adds
   * the key upstream (README, "Live data").
   */
  webSocketUrl?: string | undefined;
};

/** Parameters of {@link PriceClient.historyRange}. */
export type HistoryRangeParameters = HistoryParameters & {
  /** Candles per request window (default {@link DEFAULT_WINDOW_CANDLES}). */
  windowCandles?: number | undefined;
  /** Windows fetched at once (default {@link DEFAULT_CONCURRENCY}). */
  concurrency?: number | undefined;
};

/**
 * One update of {@link PriceClient.watchCandles}. `closed: false` is the forming candle of the current
 * slot (each tick of the feed: its values change, its `timestamp` does not); `closed: true` is a candle
 * whose slot has ended, given once per slot, in slot order, and never followed by an update of an
 * earlier or the same slot.
 */
export type CandleUpdate = {
  /** The candle; `timestamp` is its slot's start (Unix ms), a multiple of the resolution. */
  readonly candle: Candle;
  /** Whether the slot has ended: this candle is final. */
  readonly closed: boolean;
};

/** What {@link WatchCandlesParameters.onEvent} is told. */
export type WatchCandlesEvent =
  /** The socket is open and subscribed. */
  | { readonly type: 'connected' }
  /** The socket closed or fell silent; a reconnect follows after `delayMs`. */
  | { readonly type: 'disconnected'; readonly error: ClientError; readonly delayMs: number }
  /**
   * A frame was passed over: not JSON, a feed event without what a candle needs, or a tick whose time is
   * no plausible Unix ms or s, or is more than a slot and a minute (clock skew) ahead of the local clock.
   */
  | { readonly type: 'skipped'; readonly error: ResponseShapeError };

/** Parameters of {@link PriceClient.watchCandles}. */
export type WatchCandlesParameters = {
  /** Trading pair, lowercase `<base>_<quote>`. */
  pair: string;
  /**
   * Seconds per candle, as for `history`: a whole number of minutes (60, 300, 900, 3600, …, at most
   * 86,400), since the feed counts in minutes.
   */
  resolution: number;
  /**
   * Candles from this time on (`timestamp >= since`): the closed ones from `/history` (the
   * `historyRange` path), then the feed, with no slot missing or repeated at the seam. Without it, the
   * stream starts at the feed's current slot.
   */
  since?: TimeInput | undefined;
  /** Stops the stream: the socket closes, requests in flight are aborted, the loop rejects with the reason. */
  signal?: AbortSignal | undefined;
  /**
   * A socket that sends no tick of the pair's forming slot (or a later one) for this long is closed and
   * opened again: a tick of a slot already closed, resent, does not count; an unchanged price does
   * (default 10,000 ms: the public programs that use the feed reconnect after 2 to 10 s of silence); 0
   * turns the watchdog off.
   */
  watchdogMs?: number | undefined;
  /** How reconnects are spaced: full jitter from `baseDelayMs` (250) doubling to `maxDelayMs` (10,000). */
  reconnect?: { baseDelayMs?: number | undefined; maxDelayMs?: number | undefined } | undefined;
  /** Told when the socket connects, disconnects, or passes a frame over. */
  onEvent?: ((event: WatchCandlesEvent) => void) | undefined;
};

/** Parameters of {@link PriceClient.latest}. */
export type LatestParameters = CallOptions & {
  /** Trading pair, lowercase `<base>_<quote>`. */
  pair?: string | undefined;
};

/** The price client. */
export type PriceClient = {
  /** Candles of one pair in `[start, end]`, sorted by timestamp. Needs the API key. */
  history(parameters: HistoryParameters): Promise<Candle[]>;
  /**
   * Every candle of a long range, in timestamp order and without duplicates, fetched window by window
   * with bounded concurrency. Breaking out of the loop or aborting `signal` cancels open requests.
   */
  historyRange(parameters: HistoryRangeParameters): AsyncGenerator<Candle, void, undefined>;
  /** The latest price data. */
  latest(parameters?: LatestParameters): Promise<LatestResponse>;
  /**
   * The candles of one pair as they form, over the price service's WebSocket (`ohlc_datafeed`): each
   * tick's forming candle (`closed: false`), then each slot's final candle once (`closed: true`), in slot
   * order. With `since`, the closed candles from then on come first from `/history`, with no slot
   * missing or repeated at the seam; a reconnect fills the slots it missed from `/history` too. The
   * socket reconnects with backoff, and after `watchdogMs` without a tick. Needs the API key (sent in the
   * upgrade's `x-api-key` header) and, on Node 20, the `ws` package. `break` or `signal` closes the socket.
   * Its code is loaded on first use.
   *
   * @example
   * ```ts
   * for await (const { candle, closed } of prices.watchCandles({ pair: 'btc_usdt', resolution: 60, since: Date.now() - 3_600_000 })) {
   *   console.log(new Date(candle.timestamp), candle.close, closed ? 'final' : 'forming');
   * }
   * ```
   */
  watchCandles(parameters: WatchCandlesParameters): AsyncGenerator<CandleUpdate, void, undefined>;
  /** The service's base URL as the client uses it (normalised, no trailing slash), e.g. for cache keys. */
  readonly baseUrls: readonly string[];
};

/**
 * Creates a client for the Supra price-history service.
 *
 * @example
 * ```ts
 * import { createPriceClient } from '@x/price-client';
 * const prices = createPriceClient({ apiKey: process.env.SUPRA_PRICE_API_KEY });
 * const candles = await prices.history({ pair: 'btc_usdt', start: Date.now() - 86_400_000, end: Date.now(), resolution: 3600 });
 * ```
 */
export function createPriceClient(options: PriceClientOptions = {}): PriceClient {
  const { headers } = options;
  checkHeaders({ 'x-api-key': options.apiKey }, 'apiKey');
  // A header value loses the spaces at its ends: the key is what is sent, and what errors are redacted of.
  const apiKey = typeof options.apiKey === 'string' ? options.apiKey.trim() : options.apiKey;
  if (apiKey !== undefined && (typeof apiKey !== 'string' || !apiKey)) bad('apiKey', 'must be a non-empty string');
  // Headers given here go with every request to the origin; the key goes only under the base URL.
  if (checkHeaders(headers)?.some(([name]) => name === 'x-api-key')) bad('headers', 'must not hold x-api-key; pass it as apiKey');
  const fetchWith = (request: Request): Promise<Response> => (options.fetch ?? globalThis.fetch)(request);
  // The price service documents 500 as a server error; reads are idempotent, so it is retried too.
  const transport = createTransport(
    { ...options, baseUrl: options.baseUrl ?? DEFAULT_BASE_URL, fetch: apiKey === undefined ? options.fetch : withApiKey },
    { retryStatuses: [429, 500, 502, 503, 504], apiPaths: API_PATHS },
  );
  const inScope = scopeOf(transport.url);
  /**
   * Adds the key to the requests the transport sends, and only to those under the base URL, by the path
   * a server may read (`scopeOf`: `/base/..%2fother` is not under `/base/`, whatever a server makes of it).
   *
   * Only requests whose redirects the client itself follows (`redirect: 'manual'`, as the transport
   * sends every request) carry it: the transport follows a redirect within the origin through here
   * again, where the hop is keyed only when it is under the base URL too, and follows none to another
   * origin. A request that would follow on its own (a browser's probe of a hidden redirect) goes without
   * it. A failure is rethrown as a copy holding only text, in case the fetch implementation attached the
   * keyed request to its error.
   */
  async function withApiKey(request: Request): Promise<Response> {
    if (request.redirect !== 'manual' || !inScope(request.url)) return fetchWith(request);
    const keyed = new Request(request);
    keyed.headers.set('x-api-key', apiKey!);
    try {
      return await fetchWith(keyed);
    } catch (err) {
      throw safeError(err, apiKey!);
    } finally {
      // Read after fetch, so that the keyed copy lives while fetch follows the caller's signal through it
      // (a collected copy loses the signal: nodejs/undici#4068).
      void keyed.signal;
    }
  }
  // Every error of a request leaves redacted, so a key a server echoed in a body is redacted too.
  const call = (id: keyof typeof operations, args: Record<string, unknown>, callOptions: CallOptions): Promise<unknown> =>
    transport.call(id, operations[id], args, callOptions).catch((err: unknown) => Promise.reject(redactError(err, apiKey)));
  const fetchHistory = async (q: HistoryQuery, signal: AbortSignal | undefined): Promise<Candle[]> =>
    // The body's own array, parsed for this call: sorted in place.
    candlesOf(await call('getHistory', { trading_pair: q.pair, startDate: q.start, endDate: q.end, interval: q.resolution }, { signal })).sort((a, b) => a.timestamp - b.timestamp);

  const client: PriceClient = {
    async history(parameters) {
      return fetchHistory(historyQuery(parameters, apiKey), parameters.signal).catch((err: (Error & { body?: { error?: unknown } | null }) | null) => {
        // More candles than one request may hold: say which method splits the range, in the message and the stack.
        if (err?.body?.error === 'range_too_large') {
          const hinted = `${err.message}; historyRange splits a long range into windows`;
          err.stack = err.stack?.replace(err.message, hinted);
          err.message = hinted;
        }
        throw err;
      });
    },
    async *historyRange(parameters) {
      const q = historyQuery(parameters, apiKey);
      // A chunk of its own (the windows in flight): a client that never walks a range loads none of it.
      const { historyRange } = await import('./history-range.js');
      yield* historyRange(q, parameters, fetchHistory);
    },
    async latest(parameters = {}) {
      return call('getLatest', { trading_pair: parameters.pair === undefined ? undefined : checkPair(parameters.pair) }, parameters) as Promise<LatestResponse>;
    },
    async *watchCandles(parameters) {
      // A chunk of its own, which checks webSocketUrl too: an app that never watches loads none of it.
      const { watchCandles } = await import('./watch-candles.js');
      yield* watchCandles({ ...options, apiKey, historyRange: client.historyRange }, parameters);
    },
    baseUrls: transport.baseUrls,
  };
  return client;
}

/**
 * The candles of a history body. JSON that lacks them (an error object with status 200, say) is a
 * `ResponseShapeError` naming the JSON pointer of what is wrong, as the node client's for a malformed
 * page, not a `TypeError` from the sort below; a body that is not JSON stays a `ResponseParseError`.
 * (`latest` returns its body as it came, without touching it; the opt-in `validator` checks bodies in
 * full.)
 */
function candlesOf(body: unknown): Candle[] {
  const data = (body as { data?: unknown } | null)?.data;
  let path = '/data';
  let expected = 'an array of candles';
  if (Array.isArray(data)) {
    const i = data.findIndex((c) => !Number.isSafeInteger((c as Candle | null)?.timestamp));
    if (i < 0) return data as Candle[];
    path += `/${i}/timestamp`;
    expected = 'an integer';
  }
  throw new ResponseShapeError({ operationId: 'getHistory', path, expected });
}
