/**
 * `prices.watchCandles`: the candles of one pair as they form, over the price service's WebSocket
 * (`ohlc_datafeed`), stitched to `/history` so that every slot comes once, in order. Loaded by a dynamic
 * import on first use: `createPriceClient` carries none of it.
 */
import type { Candle } from '@x/price-types';
import { type ClientError, HttpError, InvalidArgumentError, NetworkError, checkInteger, reconnectDelay, show, sleep, socketUrl } from '@x/client-core';
import { isSocketError, openFeed, reconnecting } from '@x/client-core/internal';
import type { CandleUpdate, HistoryRangeParameters, WatchCandlesEvent, WatchCandlesParameters } from './client.js';
import { DEFAULT_WEBSOCKET_URL, candleOf, readFrame, subscribeMessage, type Tick } from './candle-feed.js';
import { checkPair, toMillis } from './arguments.js';
import { redactError } from './secret.js';

/** What the client gives the stream: its feed URL and key (its options), its history. */
export type WatchContext = {
  /** The client's `webSocketUrl` option, as given. */
  readonly webSocketUrl?: unknown;
  /** The client's `apiKey` option, checked. */
  readonly apiKey?: string | undefined;
  readonly historyRange: (parameters: HistoryRangeParameters) => AsyncIterable<Candle>;
};

/** How many times slots missing at the end of a history answer are asked again (history lagging the feed). */
const HISTORY_LAG_ASKS = 3;

/** Resolutions the feed takes: whole minutes, up to a day. */
const MAX_MINUTES = 1440;

/**
 * How far the local clock may lag the service's: a tick more than a slot plus this ahead of it is
 * passed over (`skipped`), since it would be taken for the forming slot and make every real tick late.
 */
const MAX_CLOCK_SKEW_MS = 60_000;

/**
 * Ticks (one per slot) held for a consumer that does not read: past this, the socket is closed and the
 * slots are read from `/history` when it reads again, so a stream nobody reads holds a bounded queue.
 */
const MAX_QUEUED = 256;

/** The largest frame the stream takes: a frame of ticks is small; anything near this is not one. */
const MAX_FRAME_BYTES = 1024 * 1024;

/** Checks the parameters under the names callers use, before any connection. */
function check(ctx: WatchContext, parameters: WatchCandlesParameters) {
  const url = socketUrl('webSocketUrl', ctx.webSocketUrl ?? DEFAULT_WEBSOCKET_URL);
  if (ctx.apiKey !== undefined && keyIn(url, ctx.apiKey)) throw new InvalidArgumentError('webSocketUrl', 'must not hold the API key: it goes in the x-api-key header');
  if (typeof parameters !== 'object' || parameters === null) throw new InvalidArgumentError('parameters', 'must be an object');
  if (ctx.apiKey === undefined) throw new InvalidArgumentError('apiKey', 'is required for watchCandles; pass it to createPriceClient (in a page, a placeholder your proxy replaces)');
  const pair = checkPair(parameters.pair);
  const resolution = parameters.resolution;
  if (typeof resolution === 'number' && resolution >= 60_000 && resolution % 60_000 === 0 && resolution / 1000 <= MAX_MINUTES * 60) {
    throw new InvalidArgumentError('resolution', `${resolution} looks like milliseconds, not seconds: did you mean ${resolution / 1000}?`);
  }
  if (typeof resolution !== 'number' || !Number.isSafeInteger(resolution) || resolution < 60 || resolution % 60 !== 0 || resolution / 60 > MAX_MINUTES) {
    throw new InvalidArgumentError('resolution', `must be seconds in whole minutes from 60 to ${MAX_MINUTES * 60} (the feed counts in minutes), got ${show(resolution)}`);
  }
  const since = parameters.since === undefined ? undefined : toMillis('since', parameters.since);
  const watchdogMs = checkInteger('watchdogMs', parameters.watchdogMs ?? 10_000, 0, 2 ** 31 - 1);
  const { baseDelayMs, maxDelayMs } = parameters.reconnect ?? {};
  if (baseDelayMs !== undefined) checkInteger('reconnect.baseDelayMs', baseDelayMs, 0, 2 ** 31 - 1);
  if (maxDelayMs !== undefined) checkInteger('reconnect.maxDelayMs', maxDelayMs, 0, 2 ** 31 - 1);
  return { url, pair, resolution, since, watchdogMs };
}

/**
 * Whether the key is a part of `url`: a query parameter's name or value, the user or password, a path
 * segment, or the fragment (whole, or a name or value of it).
 */
function keyIn(url: string, apiKey: string): boolean {
  const { searchParams, username, password, pathname, hash } = new URL(url);
  const fragment = hash.slice(1);
  return [...searchParams.keys(), ...searchParams.values(), ...pathname.split('/'), username, password, fragment, ...fragment.split(/[&=]/)].some((part) => {
    try {
      return decodeURIComponent(part) === apiKey;
    } catch {
      return false;
    }
  });
}

/** A refused upgrade worth no retry: a 4xx but 408 and 429 (a wrong key, a path that is no feed). */
const fatal = (error: ClientError): boolean => error instanceof HttpError && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;

/**
 * The candles of a pair as they form; see {@link PriceClient.watchCandles}.
 *
 * @example
 * ```ts
 * for await (const { candle, closed } of watchCandles(context, { pair: 'btc_usdt', resolution: 60 })) console.log(candle.close, closed);
 * ```
 */
export async function* watchCandles(ctx: WatchContext, parameters: WatchCandlesParameters): AsyncGenerator<CandleUpdate, void, undefined> {
  const { url, pair, resolution, since, watchdogMs } = check(ctx, parameters);
  const apiKey = ctx.apiKey!;
  const step = resolution * 1000;
  const minutes = resolution / 60;
  const onEvent = (event: WatchCandlesEvent): void => {
    try {
      parameters.onEvent?.(event);
    } catch {
      // A hook's failure is its own.
    }
  };
  /** The start of the slot `tick` is of. */
  const slotOf = (tick: Tick): number => Math.floor(tick.time / step) * step;
  const dropped = (why: string): ClientError => new NetworkError({ method: 'GET', url, cause: new Error(why) });
  try {
    yield* reconnecting<CandleUpdate>(parameters.signal, (signal) => {
      let conn = 0;
      /** The forming candle, and the connection its last tick came on. */
      let open: { candle: Candle; conn: number } | undefined;
      /** The first slot not yet given closed (from `since`, aligned up to a slot). */
      let next = since === undefined ? undefined : Math.ceil(since / step) * step;

      /**
       * The closed candles of `[from, before)` from `/history` (the `historyRange` path), with `stale` (the
       * forming candle of a slot whose end was missed) where history lacks its slot; `next` follows each.
       * History may lag the feed by a moment (a slot just closed): slots missing at the end are asked
       * again, up to `HISTORY_LAG_ASKS` times, waiting as reconnects do.
       */
      async function* fromHistory(from: number, before: number, stale: Candle | undefined): AsyncGenerator<CandleUpdate> {
        let pending = stale;
        let start = from;
        const give = (candle: Candle): CandleUpdate => {
          next = candle.timestamp + step;
          return { candle, closed: true };
        };
        for (let ask = 0; start < before && ask <= HISTORY_LAG_ASKS; ask++) {
          if (ask > 0) await sleep(reconnectDelay(ask, undefined, parameters.reconnect), signal);
          for await (const candle of ctx.historyRange({ pair, start, end: before - 1, resolution, signal })) {
            if (candle.timestamp < start || candle.timestamp >= before) continue;
            if (pending !== undefined && candle.timestamp > pending.timestamp) yield give(pending);
            pending = undefined;
            yield give(candle);
            start = candle.timestamp + step;
          }
        }
        if (pending !== undefined) yield give(pending);
      }

      /** A slot given closed already (or before `since`), or older than the forming one: a late tick, which `advance` drops. */
      const late = (slot: number): boolean => (next !== undefined && slot < next) || (open !== undefined && slot < open.candle.timestamp);

      /** What one tick of connection `id` gives: the closed candles before its slot, then its slot's forming candle. */
      async function* advance(tick: Tick, slot: number, id: number): AsyncGenerator<CandleUpdate> {
        if (late(slot)) return;
        if (open !== undefined && slot > open.candle.timestamp) {
          const last = open;
          open = undefined;
          // The rollover seen on the socket that gave the slot's last tick: that tick is its final state.
          // After a reconnect ticks were missed: history holds the slot's final values.
          if (last.conn === id) {
            next = last.candle.timestamp + step;
            yield { candle: last.candle, closed: true };
          } else yield* fromHistory(last.candle.timestamp, slot, last.candle);
        }
        if (next !== undefined && next < slot) yield* fromHistory(next, slot, undefined);
        next = slot;
        open = { candle: candleOf(slot, tick), conn: id };
        yield { candle: open.candle, closed: false };
      }

      return {
        async *connect(ok) {
          const id = ++conn;
          /** The latest slot this socket ticked that `advance` acts on. */
          let newest = -Infinity;
          // The key in the x-api-key header of the upgrade, never in the URL; a browser sends no headers:
          // there webSocketUrl is a proxy of the app's that adds it (see the README).
          const feed = await openFeed<Tick>({
            url,
            headers: { 'x-api-key': apiKey },
            maxFrameBytes: MAX_FRAME_BYTES,
            signal,
            maxQueued: MAX_QUEUED,
            // A tick of the slot the last held one has supersedes it: a slow consumer skips updates of the
            // forming candle, never a slot.
            replaces: (last, tick) => slotOf(last) === slotOf(tick),
            // Only ticks of the pair feed the watchdog: a socket that sends anything else is silent to it.
            idleMs: watchdogMs,
            // A tick of the forming slot (or a later one) counts, an unchanged price included; a tick of a slot
            // already past (a stream stuck resending it) is dropped by `advance`, and does not.
            news: (tick) => {
              const slot = slotOf(tick);
              if (slot < newest || late(slot)) return false;
              newest = slot;
              return true;
            },
            idleError: () => dropped(`no tick of ${pair} for ${watchdogMs} ms (watchdogMs)`),
            read: (text) => {
              const read = readFrame(text, pair, minutes, Date.now() + step + MAX_CLOCK_SKEW_MS);
              if ('ticks' in read) return read.ticks;
              onEvent({ type: 'skipped', error: read.skipped });
              return [];
            },
          });
          try {
            feed.send(subscribeMessage(pair, minutes));
            onEvent({ type: 'connected' });
            for await (const tick of feed) {
              ok();
              yield* advance(tick, slotOf(tick), id);
            }
          } finally {
            feed.close();
          }
          // The feed ended after an overflow: the next socket at once, the missed slots from /history.
          onEvent({ type: 'disconnected', error: dropped(`${MAX_QUEUED} slots queued unread: the missed slots come from /history`), delayMs: 0 });
        },
        retry: (error, failures) => {
          // A refusal worth no retry, or a failure of /history (no slot is skipped silently), ends the stream.
          if (!isSocketError(error) || fatal(error)) throw error;
          const delayMs = reconnectDelay(failures, error, parameters.reconnect);
          // A close reason or an answer's headers could echo the key.
          onEvent({ type: 'disconnected', error: redactError(error, apiKey), delayMs });
          return delayMs;
        },
      };
    });
  } catch (err) {
    throw redactError(err, apiKey);
  }
}
