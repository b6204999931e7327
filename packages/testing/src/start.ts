/**
 * The stubs on loopback HTTP (Node only: `node:http`). Kept apart from the routers and the in-memory
 * fetch so that the browser build imports nothing of Node.
 */
import type { StubEngine } from './engine.ts';
import { controls, type StubHandle } from './handles.ts';
import { nodeEngine, type NodeStubHandle, type NodeStubOptions } from './node/stub.ts';
import { priceEngine, type PriceStubHandle, type PriceStubOptions } from './price/stub.ts';
import type { ListenOptions } from './listen-options.ts';
import { listen, type Upgrade } from './server.ts';
import { streamUpgrade } from './node/ws-server.ts';
import type { NodeStream } from './node/ws-feed.ts';
import { createPriceFeed, checkFeedTickMs } from './price/ws-feed.ts';
import { feedUpgrade } from './price/ws-server.ts';

/** Serves `engine` on loopback and returns its handle with `extra` fields. */
async function serve<Op extends string, T extends object>(engine: StubEngine, options: ListenOptions, extra: T, upgrade?: Upgrade): Promise<StubHandle<Op> & T> {
  const server = await listen(engine, options, upgrade);
  return Object.assign(controls<Op>(engine, server.url), { port: server.port, close: server.close }, extra);
}

/**
 * Starts the node RPC stub on loopback (port 0, a free one, by default).
 *
 * @example
 * ```ts
 * const stub = await startNodeStub();
 * const node = createNodeClient({ baseUrl: stub.url });
 * await node.v2.getAccount(stub.accounts.alice);
 * await stub.close();
 * ```
 */
export async function startNodeStub(options: NodeStubOptions & ListenOptions = {}): Promise<NodeStubHandle> {
  const { engine, info, stream } = nodeEngine(options);
  return serve(engine, options, { ...info, stream: stream as NodeStream }, streamUpgrade(stream));
}

/**
 * Starts the price-history stub on loopback (port 0, a free one, by default).
 *
 * @example
 * ```ts
 * const stub = await startPriceStub({ apiKey: 'k' });
 * const prices = createPriceClient({ baseUrl: stub.url, apiKey: 'k' });
 * await prices.latest({ pair: 'btc_usdt' });
 * await stub.close();
 * ```
 */
export async function startPriceStub(options: PriceStubOptions & ListenOptions = {}): Promise<PriceStubHandle> {
  const { engine, info } = priceEngine(options);
  const feed = createPriceFeed({ ...info, tickMs: checkFeedTickMs(options.feedTickMs) });
  const upgrade = feedUpgrade(feed);
  const handle = await serve(engine, options, info, upgrade.upgrade);
  const close = handle.close;
  return Object.assign(handle, {
    feed: feed.controls,
    webSocketUrl: handle.url.replace(/^http/, 'ws'),
    close: () => {
      upgrade.close();
      return close();
    },
  });
}

