/**
 * The in-page stubs' streams, served by MSW's WebSocket API: the node stub's `/rpc/v4/ws` (its own chain
 * and clock: a pushed block is the block its `fetch` answers) and the price stub's candle feed
 * (`ohlc_datafeed`, the same seed and clock as its `/history`). `setupWorker` patches the page's
 * `WebSocket`, so the clients open their sockets as they would against real services. Only pages that use a
 * stub load this chunk (and `msw` with it).
 */
import type { NodeStubFetch, PriceFeedControls, PriceStubFetch } from '@x/testing';
import { nodeStreamHandlers, priceFeedHandlers } from '@x/testing/msw';
import { setupWorker } from 'msw/browser';

/** Starts serving the stubs' streams; answers the price feed's controls (`tick()`, `fault()`), if any. */
export async function startStubStreams(node: NodeStubFetch | undefined, price: PriceStubFetch | undefined, priceFeedUrl: string): Promise<PriceFeedControls | undefined> {
  const feed = price ? priceFeedHandlers({ seed: price.seed, now: () => price.now(), webSocketUrl: priceFeedUrl }) : undefined;
  // One msw at run time; the type checker of this workspace reads @x/testing's sources with that package's
  // own settings (NodeNext: msw's CommonJS declarations) and msw/browser with this app's (its ESM ones).
  const handlers = [...(node ? nodeStreamHandlers(node) : []), ...(feed ?? [])] as unknown as Parameters<typeof setupWorker>;
  const worker = setupWorker(...handlers);
  // MSW's Service Worker (/mockServiceWorker.js, see vite.config.ts) sees the page's own files too: they pass through
  // (`bypass`), and `quiet` keeps a console line per frame out of the page's console.
  await worker.start({ quiet: true, onUnhandledRequest: 'bypass' });
  return feed?.feed;
}
