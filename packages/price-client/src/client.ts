import createClient, { type Client } from 'openapi-fetch';
import type { Candle, LatestResponse, paths } from './generated/price-history.js';
import { DEFAULT_BASE_URL, operations } from './generated/operations.js';
import { InvalidArgumentError } from './generated/runtime/errors.js';
import { Transport, type CallOptions, type RawRequester, type TransportOptions } from './generated/runtime/transport.js';

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

/** Parameters of {@link PriceClient.latest}. */
export type LatestParameters = CallOptions & {
  /** Trading pair, lowercase `<base>_<quote>`. */
  pair?: string;
};

/** The price client. */
export type PriceClient = {
  /** Candles of one pair in `[start, end]`, sorted by timestamp. Needs the API key. */
  history(parameters: HistoryParameters): Promise<Candle[]>;
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
  const transport = new Transport(raw as unknown as RawRequester, keyedFetch, { ...options, baseUrl });

  return {
    async history(parameters) {
      if (apiKey === undefined) throw new InvalidArgumentError('apiKey', 'is required for history(); pass it to createPriceClient');
      const p = parameters as Partial<HistoryParameters> | undefined;
      if (typeof p !== 'object' || p === null) throw new InvalidArgumentError('parameters', 'must be an object');
      const startDate = toMillis('start', p.start);
      const endDate = toMillis('end', p.end);
      if (startDate > endDate) throw new InvalidArgumentError('start', `must not be after end (${startDate} > ${endDate})`);
      const body = (await transport.call(
        'getHistory',
        operations.getHistory,
        { trading_pair: p.pair, startDate, endDate, interval: p.resolution },
        p,
      )) as { data: Candle[] };
      return [...body.data].sort((a, b) => a.timestamp - b.timestamp);
    },
    async latest(parameters = {}) {
      return (await transport.call('getLatest', operations.getLatest, { trading_pair: parameters.pair }, parameters)) as LatestResponse;
    },
    raw,
  };
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
