import createClient, { type Client } from 'openapi-fetch';
import type { Candle, LatestResponse, paths } from './generated/price-history.js';
import { DEFAULT_BASE_URL, operations } from './generated/operations.js';
import { InvalidArgumentError } from './generated/runtime/errors.js';
import { checkParam, type ParamSpec } from './generated/runtime/params.js';
import { Transport, type CallOptions, type RawRequester, type TransportOptions } from './generated/runtime/transport.js';
import { splitRange } from './windows.js';

/** Options of {@link createPriceClient}. */
export type PriceClientOptions = TransportOptions & {
  /**
   * API key of the price service. Sent only as the `x-api-key` header, only to `baseUrl`, and never
   * shown in errors or to middleware.
   */
  apiKey?: string;
};

/** A point in time: a `Date` or Unix milliseconds. */
export type TimeInput = Date | number;

/** Parameters of {@link PriceClient.history}. */
export type HistoryParameters = CallOptions & {
  /** Trading pair, lowercase `<base>_<quote>`, e.g. `btc_usdt`. */
  pair: string;
  /** Start of the range (inclusive). */
  start: TimeInput;
  /** End of the range; not before `start`. */
  end: TimeInput;
  /** Seconds between candles, a positive integer (e.g. 60, 3600, 86400). */
  resolution: number;
};

/** Parameters of {@link PriceClient.historyRange}. */
export type HistoryRangeParameters = HistoryParameters & {
  /** Candles per request window (default {@link DEFAULT_WINDOW_CANDLES}). */
  windowCandles?: number;
  /** Windows fetched at once (default {@link DEFAULT_CONCURRENCY}). */
  concurrency?: number;
};

/** Candles per `historyRange` window unless configured: 1,000 intervals per request. */
export const DEFAULT_WINDOW_CANDLES = 1000;
/** Windows `historyRange` fetches at once unless configured. */
export const DEFAULT_CONCURRENCY = 4;

/** Parameters of {@link PriceClient.latest}. */
export type LatestParameters = CallOptions & {
  /** Trading pair, lowercase `<base>_<quote>`. */
  pair?: string;
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
  /** The underlying openapi-fetch client (the API key is added below its middleware). */
  readonly raw: Client<paths>;
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
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const apiKey = options.apiKey;
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey.length === 0)) {
    throw new InvalidArgumentError('apiKey', 'must be a non-empty string');
  }
  const userFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const keyedFetch = apiKey === undefined ? userFetch : withApiKey(userFetch, baseUrl, apiKey);
  const raw = createClient<paths>({ baseUrl, fetch: keyedFetch, headers: options.headers });
  // The price service documents 500 as a server error; reads are idempotent, so it is retried too.
  const transport = new Transport(raw as unknown as RawRequester, keyedFetch, { ...options, baseUrl }, [429, 500, 502, 503, 504]);

  const fetchHistory = async (q: HistoryQuery, signal: AbortSignal | undefined): Promise<Candle[]> => {
    const body = (await transport.call(
      'getHistory',
      operations.getHistory,
      { trading_pair: q.pair, startDate: q.start, endDate: q.end, interval: q.resolution },
      { signal },
    )) as { data: Candle[] };
    return [...body.data].sort((a, b) => a.timestamp - b.timestamp);
  };

  return {
    async history(parameters) {
      const q = historyQuery(parameters, apiKey);
      return fetchHistory(q, parameters.signal);
    },
    async *historyRange(parameters) {
      const q = historyQuery(parameters, apiKey);
      const windowCandles = count('windowCandles', parameters.windowCandles ?? DEFAULT_WINDOW_CANDLES, 1, 1_000_000);
      const concurrency = count('concurrency', parameters.concurrency ?? DEFAULT_CONCURRENCY, 1, 64);
      const windows = splitRange(q.start, q.end, q.resolution * 1000 * windowCandles);
      const controller = new AbortController();
      const outer = parameters.signal;
      const onAbort = (): void => controller.abort(outer?.reason);
      outer?.addEventListener('abort', onAbort, { once: true });
      const pending: Promise<Candle[]>[] = [];
      let next = 0;
      const launch = (): void => {
        const w = windows[next++]!;
        const request = fetchHistory({ ...q, start: w.start, end: w.end }, controller.signal);
        request.catch(() => undefined); // awaited below in order; never an unhandled rejection meanwhile
        pending.push(request);
      };
      try {
        outer?.throwIfAborted();
        while (pending.length < concurrency && next < windows.length) launch();
        let last = -Infinity;
        while (pending.length > 0) {
          const candles = await pending.shift()!;
          if (next < windows.length) launch();
          for (const candle of candles) {
            // Windows do not overlap, but a service may answer edge candles twice: keep each timestamp once.
            if (candle.timestamp <= last || candle.timestamp < q.start || candle.timestamp > q.end) continue;
            last = candle.timestamp;
            yield candle;
          }
        }
      } finally {
        outer?.removeEventListener('abort', onAbort);
        controller.abort();
      }
    },
    async latest(parameters = {}) {
      const pair = parameters.pair === undefined ? undefined : checkParam(PAIR, parameters.pair);
      return (await transport.call('getLatest', operations.getLatest, { trading_pair: pair }, parameters)) as LatestResponse;
    },
    raw,
  };
}

type HistoryQuery = { pair: string; start: number; end: number; resolution: number };

/** The trading-pair constraint of the spec, under the name callers use. */
const PAIR: ParamSpec = { ...operations.getHistory.params.find((p) => p.name === 'trading_pair')!, name: 'pair' };
const RESOLUTION: ParamSpec = { ...operations.getHistory.params.find((p) => p.name === 'interval')!, name: 'resolution' };

/** Checks history parameters, under the names callers use, before any request. */
function historyQuery(parameters: HistoryParameters, apiKey: string | undefined): HistoryQuery {
  if (typeof parameters !== 'object' || parameters === null) throw new InvalidArgumentError('parameters', 'must be an object');
  if (apiKey === undefined) throw new InvalidArgumentError('apiKey', 'is required for history; pass it to createPriceClient');
  const pair = checkParam(PAIR, parameters.pair) as string;
  const start = toMillis('start', parameters.start);
  const end = toMillis('end', parameters.end);
  if (start > end) throw new InvalidArgumentError('start', `must not be after end (${start} > ${end})`);
  const resolution = checkParam(RESOLUTION, parameters.resolution) as number;
  return { pair, start, end, resolution };
}

function count(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(name, `must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/**
 * Adds the key below openapi-fetch's middleware, so hooks never see it, and only to requests for
 * the configured service.
 */
function withApiKey(
  fetchImpl: (request: Request) => Promise<Response>,
  baseUrl: string,
  apiKey: string,
): (request: Request) => Promise<Response> {
  const prefix = `${baseUrl}/`;
  return (request) => {
    if (!request.url.startsWith(prefix)) return fetchImpl(request);
    const headers = new Headers(request.headers);
    headers.set('x-api-key', apiKey);
    return fetchImpl(new Request(request, { headers }));
  };
}

function toMillis(name: string, value: unknown): number {
  if (value instanceof Date) {
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw new InvalidArgumentError(name, 'is an invalid Date');
    return ms;
  }
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new InvalidArgumentError(name, `must be a Date or non-negative integer Unix milliseconds, got ${String(value)}`);
}
