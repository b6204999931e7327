/**
 * The price-history stub: `GET /history` (API key required) and `GET /latest`, with deterministic prices,
 * one month of retention before "now" (the wall clock unless a clock is injected), the clock on every
 * answer (`x-stub-clock`), and the fault protocol of the node stub.
 */
import { matchRoute } from '@x/common';
import { StubEngine } from '../engine.ts';
import type { StubFetchOptions } from '../fetch.ts';
import { fetchOf, type PriceOperationId, type StubFetch, type StubHandle } from '../handles.ts';
import { errorResponse, handlerOf, jsonResponse, methodNotAllowed, queryParam, unhandled, type StubRequest, type StubResponse } from '../router.ts';
import { priceHistorySamples } from '../generated/samples.ts';
import { seedToU32 } from '../random.ts';
// Every answer carries the clock it was computed at (`x-stub-clock`, faults and errors included): a `/history`
// answered `[]` says there whether the range lay outside the stub's 30 days.
import { clockHeader } from '../clock.ts';
import { PRICE_PAIRS, candleAt, instrumentAt, type Candle } from './model.ts';
import type { PriceFeedControls } from './ws-feed.ts';

/** The price stub's data, on either transport. */
export interface PriceStubOptions {
  /** Seed of the price walks (number or string). Default 1. */
  seed?: number | string;
  /** The key `/history` requires in `x-api-key`. Default `DEFAULT_PRICE_API_KEY`. */
  apiKey?: string;
  /**
   * The stub's clock in Unix ms, read at each request. Default: the wall clock (`Date.now()`), as `x-stub`'s.
   * For deterministic tests, fix it: `now: () => DEFAULT_PRICE_NOW` (what `x-stub --fixed-clock` does).
   */
  now?: () => number;
  /** Most candles one `/history` answer may hold; more is a 400. Default `DEFAULT_MAX_CANDLES`. */
  maxCandles?: number;
  /** How many requests `requests` keeps, the newest: default 1,000 (`DEFAULT_REQUEST_LOG_SIZE`); 0 keeps none. */
  requestLogSize?: number;
  /**
   * The candle feed's own clock: a tick every `feedTickMs` to each subscribed WebSocket (default 1,000,
   * `DEFAULT_FEED_TICK_MS`); 0 sends ticks only when `feed.tick()` is called (deterministic tests).
   */
  feedTickMs?: number;
}

/** What a price stub has on either transport, beyond the common controls. */
export interface PriceStubInfo {
  readonly seed: number;
  readonly apiKey: string;
  /** The pairs the stub serves. */
  readonly pairs: readonly string[];
  /** The stub's clock (Unix ms). */
  now(): number;
}

export const DEFAULT_PRICE_API_KEY = 'test-key';
/**
 * 2024-11-20T00:00:00Z: the fixed clock to opt into for deterministic tests (`now: () => DEFAULT_PRICE_NOW`,
 * `x-stub --fixed-clock`). Not the default: the stubs' default clock is the wall clock.
 */
export const DEFAULT_PRICE_NOW = Date.UTC(2024, 10, 20, 0, 0, 0);
/** Retention of `/history`: 30 days before now ("up to 1 month" in the document). */
export const PRICE_RETENTION_MS = 30 * 86_400_000;
export const DEFAULT_MAX_CANDLES = 10_000;
/** Page size of `/latest` (all pairs fit on one page). */
export const LATEST_PAGE_SIZE = 20;

const PAIR_PATTERN = /^[a-z0-9]+_[a-z0-9]+$/;


function priceError(status: number, code: string, message: string): StubResponse {
  return errorResponse(status, code, message, { status: 'error' });
}

function readPair(query: URLSearchParams, required: boolean): { pair?: string; error?: StubResponse } {
  const raw = queryParam(query, 'trading_pair');
  if (raw === undefined) return required ? { error: priceError(400, 'missing_parameter', 'trading_pair is required') } : {};
  if (typeof raw !== 'string') return { error: priceError(400, 'invalid_parameter', 'trading_pair given more than once') };
  if (!PAIR_PATTERN.test(raw)) {
    return { error: priceError(400, 'invalid_parameter', `trading_pair must be lowercase <base>_<quote>, got '${raw}'`) };
  }
  if (PRICE_PAIRS[raw] === undefined) return { error: priceError(404, 'pair_not_found', `unknown trading pair '${raw}'`) };
  return { pair: raw };
}

function readInteger(query: URLSearchParams, name: string, positive: boolean): { value?: number; error?: StubResponse } {
  const raw = queryParam(query, name);
  if (raw === undefined) return { error: priceError(400, 'missing_parameter', `${name} is required`) };
  if (typeof raw !== 'string') return { error: priceError(400, 'invalid_parameter', `${name} given more than once`) };
  if (!/^[0-9]{1,15}$/.test(raw) || (positive && Number(raw) === 0)) {
    return {
      error: priceError(400, 'invalid_parameter', `${name} must be a ${positive ? 'positive' : 'non-negative'} integer, got '${raw}'`),
    };
  }
  return { value: Number(raw) };
}

function createPriceRouter(options: {
  seed: number;
  apiKey: string;
  now: () => number;
  maxCandles: number;
}): (req: StubRequest) => StubResponse {
  const { seed, apiKey, now, maxCandles } = options;
  /**
   * The answers of the price operations, by operation id: the data model, written by hand. Routing comes
   * from the route table; an operation of the table missing here is answered 501, naming it.
   */
  const handlers: { readonly [Id in PriceOperationId]?: (req: StubRequest) => StubResponse } = {
    getHistory: (req) => {
      const key = req.headers['x-api-key'];
      if (key === undefined || key === '') return priceError(401, 'missing_api_key', 'the x-api-key header is required');
      if (key !== apiKey) return priceError(403, 'invalid_api_key', 'the x-api-key header does not hold a valid key');
      const pair = readPair(req.query, true);
      if (pair.error !== undefined) return pair.error;
      const start = readInteger(req.query, 'startDate', false);
      if (start.error !== undefined) return start.error;
      const end = readInteger(req.query, 'endDate', false);
      if (end.error !== undefined) return end.error;
      const interval = readInteger(req.query, 'interval', true);
      if (interval.error !== undefined) return interval.error;
      const startDate = start.value as number;
      const endDate = end.value as number;
      if (startDate > endDate) return priceError(400, 'invalid_range', 'startDate must not be after endDate');
      const step = (interval.value as number) * 1000;
      const nowMs = now();
      // Candles start at multiples of the interval, inside [startDate, endDate], inside retention, complete.
      const lo = Math.max(startDate, nowMs - PRICE_RETENTION_MS);
      const hi = Math.min(endDate, nowMs - step);
      const first = Math.ceil(lo / step) * step;
      const n = hi < first ? 0 : Math.floor((hi - first) / step) + 1;
      if (n > maxCandles) {
        return priceError(400, 'range_too_large', `the range holds ${n} candles; at most ${maxCandles} per request`);
      }
      const data: Candle[] = [];
      for (let i = 0; i < n; i++) data.push(candleAt(seed, pair.pair as string, first + i * step, step));
      // The clock the candles were cut at (a range after it, or older than its 30 days, is `data: []`).
      return jsonResponse(200, { status: 'success', data }, clockHeader(nowMs));
    },
    getLatest: (req) => {
      const pair = readPair(req.query, false);
      if (pair.error !== undefined) return pair.error;
      const pairs = pair.pair === undefined ? Object.keys(PRICE_PAIRS) : [pair.pair];
      const nowMs = now();
      return jsonResponse(200, {
        currentPage: 1,
        totalPages: 1,
        totalRecords: pairs.length,
        pageSize: LATEST_PAGE_SIZE,
        instruments: pairs.map((p) => instrumentAt(seed, p, nowMs)),
      }, clockHeader(nowMs));
    },
  };

  return (req) => {
    if (req.method !== 'GET') return methodNotAllowed();
    // The route table's matcher, as the engine's and the node stub's.
    const match = matchRoute(req.path, { service: 'price-history' });
    if (match === undefined) return priceError(404, 'not_found', `no such path: ${req.path}`);
    const handler = handlerOf(handlers, match.route.operationId);
    return handler === undefined ? unhandled(match.route.operationId, priceHistorySamples, { status: 'error' }) : handler(req);
  };
}

/** The price stub on loopback: `startPriceStub()`. */
export interface PriceStubHandle extends StubHandle<PriceOperationId>, PriceStubInfo {
  /** The candle feed (`ohlc_datafeed`) on the same port, `ws://` + the host of `url`: its controls. */
  readonly feed: PriceFeedControls;
  /** The feed's WebSocket URL, e.g. `ws://127.0.0.1:41234` (the client's `webSocketUrl`). */
  readonly webSocketUrl: string;
}

/** The price stub in memory: `createPriceStubFetch()`, a `fetch` to pass to `createPriceClient`. */
export type PriceStubFetch = StubFetch<PriceOperationId> & PriceStubInfo;

/** The price stub's default origin in memory (the port `x-stub` gives it). */
export const PRICE_STUB_URL = 'http://127.0.0.1:27001';

export function priceEngine(options: PriceStubOptions): { engine: StubEngine; info: PriceStubInfo } {
  const seed = seedToU32(options.seed ?? 1);
  const apiKey = options.apiKey ?? DEFAULT_PRICE_API_KEY;
  // The wall clock, looked up at each call (so that fake timers which replace `Date` apply to it).
  const now = options.now ?? (() => Date.now());
  const maxCandles = options.maxCandles ?? DEFAULT_MAX_CANDLES;
  const route = createPriceRouter({ seed, apiKey, now, maxCandles });
  const engine = new StubEngine('price-history', route, options.requestLogSize, () => clockHeader(now()));
  return { engine, info: { seed, apiKey, pairs: Object.keys(PRICE_PAIRS), now } };
}

/**
 * The price-history stub as an in-memory `fetch`: no socket, the same answers and faults as
 * `startPriceStub`, in Node and in browsers.
 *
 * @example
 * ```ts
 * const stub = createPriceStubFetch();                                  // the wall clock
 * const prices = createPriceClient({ baseUrl: stub.url, apiKey: stub.apiKey, fetch: stub });
 * await prices.latest({ pair: 'btc_usdt' });
 * const fixed = createPriceStubFetch({ now: () => DEFAULT_PRICE_NOW }); // deterministic: 2024-11-20T00:00:00Z
 * ```
 */
export function createPriceStubFetch(options: PriceStubOptions & StubFetchOptions = {}): PriceStubFetch {
  const { engine, info } = priceEngine(options);
  return fetchOf(engine, PRICE_STUB_URL, options, info);
}
