/**
 * Typed client for the Supra price-history service: historical candles and latest prices.
 *
 * @example
 * ```ts
 * import { createPriceClient } from '@x/price-client';
 * const prices = createPriceClient({ apiKey });
 * const { instruments } = await prices.latest({ pair: 'btc_usdt' });
 * ```
 * @packageDocumentation
 * @module @x/price-client
 */
export { createPriceClient } from './client.js';
export { DEFAULT_WINDOW_CANDLES, DEFAULT_CONCURRENCY } from './range-defaults.js';
export { DEFAULT_WEBSOCKET_URL } from './candle-feed.js';
export type { CandleUpdate, WatchCandlesEvent, WatchCandlesParameters } from './client.js';
export type { PriceClient, PriceClientOptions, HistoryParameters, HistoryRangeParameters, LatestParameters, TimeInput } from './client.js';
export { readInstrument } from './instrument.js';
export type { InstrumentValues } from './instrument.js';
export { splitRange } from './windows.js';
export type { Window } from './windows.js';
export {
  ClientError,
  InvalidArgumentError,
  HttpError,
  NetworkError,
  TimeoutError,
  ResponseParseError,
  ResponseValidationError,
  ResponseShapeError,
  ResponseTooLargeError,
  explain,
  isNotFound,
  isUnauthorized,
} from '@x/client-core';
export type { AnyClientError, ErrorCode, ValidationIssue } from '@x/client-core';
export type { CallOptions, ResponseValidator } from '@x/client-core';
export type { RetryOptions } from '@x/client-core';
export { PRICE_HISTORY_BASE_URL as DEFAULT_BASE_URL } from '@x/common';
export type { Candle, HistoryResponse, Instrument, LatestResponse, TradingPair, paths, operations as PriceOperations } from '@x/price-types';
