/**
 * The wire of the price service's candle feed (`ohlc_datafeed`), as far as public sources show it
 * (LIVE-SHAPES S6): the subscribe message we send, and the reading of what comes back, bounded and
 * validated. Nothing here opens a socket.
 */
import type { Candle } from '@x/price-types';
import { ResponseShapeError } from '@x/client-core';

/**
 * The candle feed's WebSocket URL: the address the provider's WebSocket API page gives, and the one
 * public programs open with the `x-api-key` header.
 */
export const DEFAULT_WEBSOCKET_URL = 'wss://prod-kline-ws.supra.com';

/** The channel of the candle feed. */
const CHANNEL = 'ohlc_datafeed';

/**
 * The keys the pair list is sent under. The provider's page writes `dataPairs`, the public programs that
 * use the feed write `tradingPairs`: the message carries both, with the same list, so a service that
 * reads either finds it (servers of JSON ignore a key they do not know). One place for that decision.
 */
const PAIR_LIST_KEYS = ['dataPairs', 'tradingPairs'] as const;

/** The subscribe message for one pair at `minutes` (the feed's unit). */
export function subscribeMessage(pair: string, minutes: number): string {
  const channel: Record<string, unknown> = { name: CHANNEL, resolution: minutes };
  for (const key of PAIR_LIST_KEYS) channel[key] = [pair];
  return JSON.stringify({ action: 'subscribe', channels: [channel] });
}

/** One tick of the feed: the forming candle's values at `time` (Unix ms). */
export type Tick = { readonly time: number; readonly open: number; readonly high: number; readonly low: number; readonly close: number; readonly volume: number | undefined };

/** What one frame holds: the ticks of our pair, or why the frame was passed over. */
export type FrameReading = { readonly ticks: readonly Tick[] } | { readonly skipped: ResponseShapeError };

/** Another event (an error, an acknowledgement): no ticks, not a malformed frame. */
const NONE: FrameReading = { ticks: [] };

/** A decimal price as a number or as text (as `/latest` writes them). */
const DECIMAL = /^-?\d+(\.\d+)?$/;
const number = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && DECIMAL.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/**
 * The tick times taken, Unix ms: 2001-09-09 (1e12) to 2286-11-20 (1e13). Outside it a number is no time
 * in ms or s (microseconds, nanoseconds, a counter) and is passed over rather than guessed at.
 */
const MIN_TIME = 1e12;
const MAX_TIME = 1e13;

/**
 * A tick's time in Unix ms, if plausible. Which field the service sends is not certain: `time`, else
 * `timestamp`; each as ms, as seconds (below 1e10), or as date text (`YYYY-MM-DD HH:MM:SS`, read as UTC,
 * or ISO 8601). A number outside {@link MIN_TIME}..{@link MAX_TIME} (after seconds are read as ms) is no time.
 */
function timeOf(tick: Record<string, unknown>): number | undefined {
  const plausible = (ms: number): number | undefined => (ms >= MIN_TIME && ms < MAX_TIME ? ms : undefined);
  for (const value of [tick.time, tick.timestamp]) {
    const n = number(value);
    if (n !== undefined && Number.isSafeInteger(n) && n > 0) return plausible(n < 1e10 ? n * 1000 : n);
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/.test(value)) {
      const iso = value.replace(' ', 'T');
      const ms = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(iso) ? iso : `${iso}Z`);
      if (Number.isFinite(ms)) return plausible(ms);
    }
  }
  return undefined;
}

/**
 * The ticks of `pair` (at `minutes`, where a tick names its resolution) in one frame. A frame that is
 * not JSON, or a feed event whose payload or tick lacks what a candle needs (a plausible time, a close),
 * or whose tick is later than `latest` (Unix ms: a tick from the future would be taken for the current
 * slot and make every real one look late), is `skipped` with a `ResponseShapeError` naming the JSON
 * pointer of what is wrong; the caller passes it over (and its watchdog, which only ticks reset,
 * reconnects a socket that sends nothing else).
 */
export function readFrame(text: string, pair: string, minutes: number, latest: number): FrameReading {
  const skip = (path: string, expected: string): FrameReading => ({ skipped: new ResponseShapeError({ operationId: CHANNEL, path, expected }) });
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return skip('', 'a JSON frame');
  }
  if (typeof message !== 'object' || message === null || (message as { event?: unknown }).event !== CHANNEL) return NONE;
  const payload = (message as { payload?: unknown }).payload;
  if (!Array.isArray(payload)) return skip('/payload', 'an array of ticks');
  const ticks: Tick[] = [];
  for (const [i, item] of payload.entries()) {
    if (typeof item !== 'object' || item === null) return skip(`/payload/${i}`, 'a tick object');
    const tick = item as Record<string, unknown>;
    if (tick.tradingPair !== pair || (tick.resolution !== undefined && number(tick.resolution) !== minutes)) continue;
    const time = timeOf(tick);
    if (time === undefined) return skip(`/payload/${i}/time`, 'Unix milliseconds or seconds, or a date-time, from 2001 to 2286');
    if (time > latest) return skip(`/payload/${i}/time`, `a time no later than ${new Date(latest).toISOString()} (the local clock, plus a slot and some clock skew)`);
    const close = number(tick.close) ?? number(tick.currentPrice);
    if (close === undefined) return skip(`/payload/${i}/close`, 'a decimal price');
    // Where open, high or low is missing, the tick's price stands in for it (a tick of a price, not a candle).
    const open = number(tick.open) ?? close;
    ticks.push({ time, open, high: Math.max(number(tick.high) ?? close, open, close), low: Math.min(number(tick.low) ?? close, open, close), close, volume: number(tick.volume) });
  }
  return { ticks };
}

/** The candle of slot `slot` as `tick` has it. */
export const candleOf = (slot: number, tick: Tick): Candle => ({ timestamp: slot, open: tick.open, high: tick.high, low: tick.low, close: tick.close, volume: tick.volume ?? 0 });
