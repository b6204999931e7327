/**
 * The price service's candle feed (`ohlc_datafeed`), transport-free: what a connection subscribes to,
 * and what the feed sends it, on the stub's clock. The loopback server (`ws-server.ts`) and MSW's
 * WebSocket API (`ws-msw.ts`) carry it. The wire follows what public sources show of the service
 * (LIVE-SHAPES S6): `{ action: 'subscribe', channels: [{ name: 'ohlc_datafeed', resolution: <minutes>,
 * tradingPairs | dataPairs: [pair, …] }] }` in, `{ event: 'ohlc_datafeed', payload: [tick, …] }` out.
 */
import { StubArgumentError } from '../errors.ts';
import { PRICE_PAIRS, formatUtc, priceAt, type Candle, type PairSpec } from './model.ts';

/** The channel name of the candle feed. */
export const PRICE_FEED_CHANNEL = 'ohlc_datafeed';
/** Ticks per second of a feed left to its own clock (x-stub's): one tick a second, as public clients expect. */
export const DEFAULT_FEED_TICK_MS = 1000;
/** Longest client frame the feed reads; longer ones are answered with an error event. */
const MAX_CLIENT_FRAME = 64 * 1024;

/** A fault the feed plays on demand: see {@link PriceFeedControls.fault}. */
export type PriceFeedFault = 'drop' | 'garbage' | 'silence';

/** One subscription of one connection: a pair at a resolution in minutes (the feed's unit). */
export interface PriceFeedSubscription {
  readonly pair: string;
  readonly resolution: number;
}

/** One tick of the feed, as the fake sends it: the forming candle of the slot that holds `time`. */
export interface PriceFeedTick {
  tradingPair: string;
  /** Minutes, as subscribed. */
  resolution: number;
  /** The tick's moment, Unix ms. */
  time: number;
  /** The same moment as `YYYY-MM-DD HH:MM:SS` (UTC), as `/latest` writes it. */
  timestamp: string;
  open: number;
  high: number;
  low: number;
  close: number;
  currentPrice: number;
  volume: number;
}

/** What a transport gives the feed of one connection. */
export interface FeedConnection {
  send(text: string): void;
  /** Ends the connection abruptly, without a close handshake (the `drop` fault). */
  terminate(): void;
}

/** The feed's controls, on the stub's handle as `feed`. */
export interface PriceFeedControls {
  /**
   * Sends one tick now, at the stub's clock, to every subscribed connection that is not silenced: one
   * frame per subscribed channel. Returns how many frames were sent. A feed left to its own clock
   * (`feedTickMs`, default one a second) calls this on a timer.
   */
  tick(): number;
  /** Open connections. */
  readonly connections: number;
  /** Connections accepted since the stub started (or since `reset()`), closed ones included. */
  readonly connectionsOpened: number;
  /** The subscriptions of the open connections, in the order they came. */
  readonly subscriptions: readonly PriceFeedSubscription[];
  /** The URLs of the accepted upgrades, path and query, oldest first (at most 100). */
  readonly upgrades: readonly string[];
  /**
   * Plays a fault on the open connections: `drop` ends each abruptly (no close frame), `garbage` sends
   * each one frame that is not JSON, `silence` sends them no more ticks while they stay open
   * (connections made afterwards tick as usual).
   */
  fault(kind: PriceFeedFault): void;
  /** Forgets the counters and the upgrade log (open connections stay). */
  reset(): void;
}

/** The feed over a stub's data: seed, clock, key and pairs. */
export interface PriceFeed {
  readonly controls: PriceFeedControls;
  /** Whether an upgrade may go ahead: `undefined`, or the status and text to refuse it with. */
  authorize(apiKey: string | undefined): { status: number; message: string } | undefined;
  /** Accepts a connection (made at `url`); the returned callbacks take its frames and its end. */
  accept(connection: FeedConnection, url: string): { message(text: string): void; closed(): void };
  /** Stops the clock's timer and ends every connection. */
  close(): void;
}

interface Peer {
  readonly connection: FeedConnection;
  readonly subscriptions: PriceFeedSubscription[];
  silenced: boolean;
}

const round = (x: number, d: number): number => Number(x.toFixed(d));

/**
 * The forming candle of `[slot, slot + step)` at `now`: open at the slot's start, close at `now`, high and
 * low over the samples of the complete candle (`candleAt`) reached by `now`, volume pro rata. At the
 * slot's end it reads as the history's candle of that slot but for `close`, which history takes at the
 * next slot's start.
 */
function formingCandle(seed: number, pair: string, slot: number, step: number, now: number): Candle {
  const spec = PRICE_PAIRS[pair] as PairSpec;
  const d = spec.decimals;
  const open = round(priceAt(seed, pair, slot), d);
  const close = round(priceAt(seed, pair, now), d);
  let high = Math.max(open, close);
  let low = Math.min(open, close);
  for (let s = 1; s <= 6; s++) {
    const at = slot + Math.floor((step * s) / 7);
    if (at > now) break;
    const p = round(priceAt(seed, pair, at), d);
    high = Math.max(high, p);
    low = Math.min(low, p);
  }
  const volume = round(spec.volumePerMinute * ((now - slot) / 60_000), 4);
  return { timestamp: slot, open, high, low, close, volume };
}

/** Reads a subscribe message: the subscriptions, or the error text to answer it with. */
function readSubscribe(text: string): { subscriptions: PriceFeedSubscription[] } | { error: string } {
  if (text.length > MAX_CLIENT_FRAME) return { error: `frame longer than ${MAX_CLIENT_FRAME} characters` };
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { error: 'frame is not JSON' };
  }
  const { action, channels } = (message ?? {}) as { action?: unknown; channels?: unknown };
  if (action !== 'subscribe') return { error: `unknown action ${JSON.stringify(action)}` };
  if (!Array.isArray(channels) || channels.length === 0) return { error: 'channels must be a non-empty array' };
  const subscriptions: PriceFeedSubscription[] = [];
  for (const channel of channels as unknown[]) {
    const { name, resolution, tradingPairs, dataPairs } = (channel ?? {}) as Record<string, unknown>;
    if (name !== PRICE_FEED_CHANNEL) return { error: `unknown channel ${JSON.stringify(name)}` };
    if (!Number.isSafeInteger(resolution) || (resolution as number) < 1) return { error: 'resolution must be a positive integer (minutes)' };
    // The docs' page writes `dataPairs`, working clients `tradingPairs`: the fake takes either.
    const pairs = tradingPairs ?? dataPairs;
    if (!Array.isArray(pairs) || pairs.length === 0) return { error: 'tradingPairs must be a non-empty array of pairs' };
    for (const pair of pairs as unknown[]) {
      if (typeof pair !== 'string' || PRICE_PAIRS[pair] === undefined) return { error: `unknown trading pair ${JSON.stringify(pair)}` };
      subscriptions.push({ pair, resolution: resolution as number });
    }
  }
  return { subscriptions };
}

/**
 * The candle feed of a price stub: `seed` and `now` are the stub's, `apiKey` the key an upgrade must
 * carry (when the transport can read it), `tickMs` the feed's own clock (0: only `controls.tick()`).
 */
export function createPriceFeed(options: { seed: number; now: () => number; apiKey: string; tickMs: number }): PriceFeed {
  const { seed, now, apiKey, tickMs } = options;
  const peers = new Set<Peer>();
  const upgrades: string[] = [];
  let opened = 0;
  let timer: ReturnType<typeof setInterval> | undefined;

  const tickOf = (s: PriceFeedSubscription, at: number): PriceFeedTick => {
    const step = s.resolution * 60_000;
    const slot = Math.floor(at / step) * step;
    const c = formingCandle(seed, s.pair, slot, step, at);
    return { tradingPair: s.pair, resolution: s.resolution, time: at, timestamp: formatUtc(at), open: c.open, high: c.high, low: c.low, close: c.close, currentPrice: c.close, volume: c.volume };
  };

  const tick = (): number => {
    const at = now();
    let frames = 0;
    for (const peer of peers) {
      if (peer.silenced) continue;
      // One frame per resolution, with a tick for each pair of it (as the service batches a channel).
      const byResolution = new Map<number, PriceFeedTick[]>();
      for (const s of peer.subscriptions) {
        const list = byResolution.get(s.resolution) ?? [];
        list.push(tickOf(s, at));
        byResolution.set(s.resolution, list);
      }
      for (const payload of byResolution.values()) {
        peer.connection.send(JSON.stringify({ event: PRICE_FEED_CHANNEL, payload }));
        frames++;
      }
    }
    return frames;
  };

  // The feed's own clock runs while someone listens, and never keeps a process alive.
  const clock = (): void => {
    if (tickMs > 0 && timer === undefined && peers.size > 0) {
      timer = setInterval(tick, tickMs);
      (timer as { unref?: () => void }).unref?.();
    } else if (timer !== undefined && peers.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  const controls: PriceFeedControls = {
    tick,
    get connections() {
      return peers.size;
    },
    get connectionsOpened() {
      return opened;
    },
    get subscriptions() {
      return [...peers].flatMap((p) => p.subscriptions);
    },
    get upgrades() {
      return [...upgrades];
    },
    fault(kind) {
      for (const peer of [...peers]) {
        if (kind === 'drop') {
          peers.delete(peer);
          peer.connection.terminate();
        } else if (kind === 'garbage') peer.connection.send('\u0000{not json');
        else peer.silenced = true;
      }
      clock();
    },
    reset() {
      opened = 0;
      upgrades.length = 0;
    },
  };

  return {
    controls,
    authorize(key) {
      if (key === undefined || key === '') return { status: 401, message: 'API key is missing' };
      return key === apiKey ? undefined : { status: 403, message: 'the x-api-key header does not hold a valid key' };
    },
    accept(connection, url) {
      const peer: Peer = { connection, subscriptions: [], silenced: false };
      peers.add(peer);
      opened++;
      upgrades.push(url);
      if (upgrades.length > 100) upgrades.shift();
      clock();
      return {
        message(text) {
          const read = readSubscribe(text);
          if ('error' in read) connection.send(JSON.stringify({ event: 'error', message: read.error }));
          else peer.subscriptions.push(...read.subscriptions);
        },
        closed() {
          peers.delete(peer);
          clock();
        },
      };
    },
    close() {
      for (const peer of peers) peer.connection.terminate();
      peers.clear();
      clock();
    },
  };
}

/** `feedTickMs`, checked: a non-negative integer (default {@link DEFAULT_FEED_TICK_MS}). */
export function checkFeedTickMs(value: unknown): number {
  if (value === undefined) return DEFAULT_FEED_TICK_MS;
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw new StubArgumentError('feedTickMs', `must be a non-negative integer, got ${String(value)}`);
  return value as number;
}
