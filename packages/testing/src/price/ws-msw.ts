/**
 * The candle feed as an MSW 2 WebSocket handler (`ws.link`): in a page (`setupWorker`) or wherever the
 * runtime has a global `WebSocket` that MSW can intercept (`setupServer` in Node 22 and later). Same ticks
 * and faults as the loopback feed of `startPriceStub`. A page cannot set an upgrade's headers, so this
 * handler asks for no key (put the key on your own proxy's upstream connection).
 */
import { ws, type WebSocketHandler } from 'msw';
import { StubArgumentError } from '../errors.ts';
import { seedToU32 } from '../random.ts';
import { DEFAULT_PRICE_API_KEY } from './stub.ts';
import { checkFeedTickMs, createPriceFeed, type PriceFeedControls } from './ws-feed.ts';

/** The in-memory feed's default URL: the in-memory price stub's origin as a WebSocket URL. */
export const PRICE_FEED_STUB_URL = 'ws://127.0.0.1:27001';

/** Options of `priceFeedHandlers`. */
export interface PriceFeedHandlersOptions {
  /** Seed of the price walks, as the price stub's. Default 1. */
  seed?: number | string;
  /** The feed's clock, Unix ms, read at each tick. Default: the wall clock. */
  now?: () => number;
  /** A tick every `feedTickMs` (default 1,000); 0: only `feed.tick()`. */
  feedTickMs?: number;
  /** The WebSocket URL intercepted (`ws:` or `wss:`). Default `ws://127.0.0.1:27001` (`PRICE_FEED_STUB_URL`). */
  webSocketUrl?: string;
}

/** What `priceFeedHandlers()` returns: the handler (spread it into `setupWorker`/`setupServer`), the feed's controls and URL. */
export type PriceFeedHandlers = readonly WebSocketHandler[] & { readonly feed: PriceFeedControls; readonly webSocketUrl: string };

/**
 * The price service's candle feed (`ohlc_datafeed`) as MSW handlers, for `createPriceClient({ webSocketUrl })`
 * in a page or a test.
 *
 * @example
 * ```ts
 * const feed = priceFeedHandlers({ seed: 7, webSocketUrl: 'wss://prices.example.com/feed' });
 * const worker = setupWorker(...priceHandlers({ seed: 7 }), ...feed);
 * await worker.start();
 * feed.feed.fault('silence'); // the client's watchdog reconnects
 * ```
 */
export function priceFeedHandlers(options: PriceFeedHandlersOptions = {}): PriceFeedHandlers {
  const url = options.webSocketUrl ?? PRICE_FEED_STUB_URL;
  if (!/^wss?:\/\/[^/?#]/i.test(url)) throw new StubArgumentError('webSocketUrl', `must be a ws: or wss: URL, got '${url}'`);
  const now = options.now ?? (() => Date.now());
  const feed = createPriceFeed({ seed: seedToU32(options.seed ?? 1), now, apiKey: DEFAULT_PRICE_API_KEY, tickMs: checkFeedTickMs(options.feedTickMs) });
  const handler = ws.link(url).addEventListener('connection', ({ client }) => {
    // 1006: an abnormal closure, as a dropped connection reads (MSW lets a handler send it).
    const { pathname, search } = new URL(client.url);
    const peer = feed.accept({ send: (text) => client.send(text), terminate: () => client.close(1006) }, pathname + search);
    client.addEventListener('message', (event) => peer.message(typeof event.data === 'string' ? event.data : ''));
    client.addEventListener('close', () => peer.closed());
  });
  return Object.assign([handler], { feed: feed.controls, webSocketUrl: url });
}
