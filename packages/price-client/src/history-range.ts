/**
 * `prices.historyRange`'s walk: the windows of a long range, fetched with bounded concurrency and read
 * in order. Loaded by a dynamic import on its first call: a client that only asks `history` or `latest`
 * carries none of it.
 */
import type { Candle } from '@x/price-types';
import { checkInteger } from '@x/client-core';
import { Flights, type Flight } from '@x/client-core/internal';
import type { HistoryQuery } from './arguments.js';
import type { HistoryRangeParameters } from './client.js';
import { DEFAULT_CONCURRENCY, DEFAULT_WINDOW_CANDLES } from './range-defaults.js';
import { rangeWindows, type Window } from './windows.js';

/**
 * Every candle of `q` in timestamp order, each timestamp once, fetched window by window by `fetchWindow`
 * (one request each, with its own abort signal).
 *
 * @example
 * ```ts
 * for await (const candle of historyRange(q, parameters, fetchHistory)) console.log(candle.close);
 * ```
 */
export async function* historyRange(
  q: HistoryQuery,
  parameters: HistoryRangeParameters,
  fetchWindow: (q: HistoryQuery, signal: AbortSignal) => Promise<Candle[]>,
): AsyncGenerator<Candle, void, undefined> {
  const windowCandles = checkInteger('windowCandles', parameters.windowCandles ?? DEFAULT_WINDOW_CANDLES, 1, 1_000_000);
  const concurrency = checkInteger('concurrency', parameters.concurrency ?? DEFAULT_CONCURRENCY, 1, 64);
  // Capped at the range's length so that a huge resolution cannot overflow the window arithmetic.
  const windowMs = Math.min(q.resolution * 1000 * windowCandles, q.end - q.start + 1);
  const windows = rangeWindows(q.start, q.end, windowMs);
  // One engine with the node client's walks: each window its own abort, read in order, none left
  // in flight by a `break`, an error or the caller's abort.
  const flights = new Flights<Candle[]>(parameters.signal);
  // Each flight with its window: its answer is kept to it.
  const pending: [Window, Flight<Candle[]>][] = [];
  let next = 0;
  const launch = (): void => {
    const w = windows.at(next++);
    pending.push([w, flights.launch((signal) => fetchWindow({ ...q, start: w.start, end: w.end }, signal))]);
  };
  try {
    parameters.signal?.throwIfAborted();
    while (pending.length < concurrency && next < windows.count) launch();
    let last = -Infinity;
    while (pending.length > 0) {
      const [w, flight] = pending.shift()!;
      const candles = await flights.result(flight);
      if (next < windows.count) launch();
      for (const candle of candles) {
        // Only the window's own candles (both ends inclusive), each timestamp once: a candle past it (a
        // service adding its newest) would count as `last` and drop the next windows' as repeats.
        if (candle.timestamp <= last || candle.timestamp < w.start || candle.timestamp > w.end) continue;
        last = candle.timestamp;
        yield candle;
      }
    }
  } finally {
    flights.close();
  }
}
