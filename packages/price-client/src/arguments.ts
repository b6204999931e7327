/**
 * The checks of the price calls' arguments, under the names callers use, before any request: the pair
 * and the times of `history`, `historyRange` and `watchCandles`, with the value probably meant when it
 * looks like a usual mistake.
 */
import { show, type CallOptions } from '@x/client-core';
import { bad } from '@x/client-core/internal';
import { priceHistoryOperations as operations } from '@x/common';

/** A point in time: a `Date` or Unix milliseconds. */
export type TimeInput = Date | number;

/** Parameters of `PriceClient.history`. */
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

/** One history query, checked: Unix ms, seconds per candle. */
export type HistoryQuery = { pair: string; start: number; end: number; resolution: number };

// The spec's checks of the trading pair and the interval (their generated `check`), under the names callers use.
const [PAIR, , , RESOLUTION] = operations.getHistory.params;
/**
 * The pair, checked by the spec's pattern; a pair written the usual other ways (`BTC-USDT`, `BTC/USDT`,
 * `btc usdt`) is refused with the spelling meant.
 */
export function checkPair(value: unknown): string {
  try {
    return PAIR.check(value, 'pair', bad) as string;
  } catch (err) {
    const meant = typeof value === 'string' ? value.trim().toLowerCase().replace(/[-/ ]/g, '_') : value;
    try {
      PAIR.check(meant, 'pair', bad);
    } catch {
      // Not a pair written another way: the check's own error.
      throw err;
    }
    return bad('pair', `must be lowercase <base>_<quote>, got ${show(value)}: did you mean ${show(meant)}?`);
  }
}

/** Checks history parameters, under the names callers use, before any request. */
export function historyQuery(parameters: HistoryParameters, apiKey: string | undefined): HistoryQuery {
  if (typeof parameters !== 'object' || parameters === null) bad('parameters', 'must be an object');
  if (apiKey === undefined) bad('apiKey', 'is required for history');
  const pair = checkPair(parameters.pair);
  const start = toMillis('start', parameters.start);
  const end = toMillis('end', parameters.end);
  if (start > end) bad('start', `must not be after end (${start} > ${end})`);
  const resolution = RESOLUTION.check(parameters.resolution, 'resolution', bad) as number;
  // 15 s, 1 min, 1 h or 1 d in ms (15,000, 60,000, ...): as seconds, a rare resolution (over 4 h, not whole hours).
  if (resolution >= 15_000 && resolution % 1000 === 0) mistake('resolution', resolution, 'milli', '', resolution / 1000);
  return { pair, start, end, resolution };
}

/**
 * Unix milliseconds of a valid `Date` or a non-negative safe integer. A time before 1973-03-03 (below
 * 1e11 ms, 0 aside) is a time in seconds read as milliseconds (`Date.now() / 1000`, `new Date(seconds)`),
 * and one after the year 5138 (1e14 ms and up) a time in microseconds (a node's timestamps): both are
 * refused, with the time meant.
 */
export function toMillis(name: string, value: unknown): number {
  const ms = (value instanceof Date ? value.getTime() : value) as number;
  if (!Number.isSafeInteger(ms) || ms < 0) {
    // A date string is the usual one: shown quoted, with the Date it could be.
    const asDate = typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? ` (did you mean new Date(${show(value)})?)` : '';
    bad(name, `must be a Date or integer Unix ms >= 0, got ${value instanceof Date ? 'an Invalid Date' : show(value)}${asDate}`);
  }
  const meant = ms > 0 && ms < 1e11 ? ms * 1000 : ms >= 1e14 ? Math.floor(ms / 1000) : 0;
  if (meant) mistake(name, value instanceof Date ? value.toISOString() : ms, meant > ms ? '' : 'micro', 'milli', `${meant} (${new Date(meant).toISOString()})`);
  return ms;
}

/** A value given in the wrong unit: `3600000 looks like milliseconds, not seconds: did you mean 3600?` */
const mistake = (name: string, value: string | number, unit: string, expected: string, meant: string | number): never =>
  bad(name, `${value} looks like ${unit}seconds, not ${expected}seconds: did you mean ${meant}?`);
