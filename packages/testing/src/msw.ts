/**
 * `@x/testing/msw`: the node and price stubs as MSW 2 request handlers. Each is one `http.all` handler
 * for the stub's origin that hands the intercepted `Request` to the in-memory stub (`createNodeStubFetch`,
 * `createPriceStubFetch`), so MSW answers from the same engine as the loopback and in-memory stubs: the
 * same bodies, statuses, headers and faults for the same seed. The array of handlers carries the stub's
 * controls (`url`, `requests`, `reset()`, `failNext()`, and the stub's `accounts`, `seed`, ...).
 *
 * Only this entry imports `msw` (an optional peer dependency of `@x/testing`): `@x/testing` itself
 * never loads it.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { nodeHandlers } from '@x/testing/msw';
 *
 * const node = nodeHandlers({ seed: 7 });
 * const server = setupServer(...node);
 * server.listen({ onUnhandledRequest: 'error' });
 * node.failNext('getAccountV2', 503);
 * ```
 * @packageDocumentation
 * @module @x/testing/msw
 */
import { http, type HttpHandler, type WebSocketHandler } from 'msw';
import { StubArgumentError } from './errors.ts';
import type { FetchFunction } from './fetch.ts';
import { fetchOf, type NodeOperationId, type PriceOperationId, type StubControls } from './handles.ts';
import { blockFeedOf, NODE_STUB_URL, nodeEngine, type NodeStubFetch, type NodeStubInfo, type NodeStubOptions } from './node/stub.ts';
import type { NodeStream } from './node/ws-feed.ts';
import { nodeStreamHandler } from './node/ws-msw.ts';
import { createPriceStubFetch, PRICE_STUB_URL, type PriceStubInfo, type PriceStubOptions } from './price/stub.ts';
export { priceFeedHandlers, PRICE_FEED_STUB_URL } from './price/ws-msw.ts';
export type { PriceFeedHandlers, PriceFeedHandlersOptions } from './price/ws-msw.ts';

/** Where the handlers answer. */
export interface HandlersOptions {
  /**
   * The origin the handlers intercept, e.g. `https://rpc.example.com` or your app's node URL. Only its
   * origin counts (every path under it is answered by the stub). Default: the in-memory stub's,
   * `http://127.0.0.1:27000` (`NODE_STUB_URL`) for the node, `http://127.0.0.1:27001` (`PRICE_STUB_URL`)
   * for the price service.
   */
  baseUrl?: string;
}

/** Options of `nodeHandlers`: the node stub's (`seed`, `shapes`, `accounts`, `chainId`, `oldestBlock`, `requestLogSize`) and `baseUrl`. */
export interface NodeHandlersOptions extends NodeStubOptions, HandlersOptions {}

/** Options of `priceHandlers`: the price stub's (`seed`, `apiKey`, `now`, `maxCandles`, `requestLogSize`) and `baseUrl`. */
export interface PriceHandlersOptions extends PriceStubOptions, HandlersOptions {}

/**
 * MSW request handlers that also hold a stub's controls: spread it into `setupServer(...)`,
 * `setupWorker(...)` or `server.use(...)`, and call `failNext`, `reset`, read `requests` on it.
 */
export type StubHandlers<Op extends string = string> = readonly HttpHandler[] & StubControls<Op>;

/**
 * What `nodeHandlers()` returns: the handlers, the controls and the node stub's `seed`, `accounts`,
 * `shapes`, `chainId`, `oldestBlock`; and its block stream: `streamHandlers` (spread them too, to serve
 * `ws(s)://<origin>/rpc/v4/ws`) and `stream`, its controls (`produce`, `drop`, `refuseNext`, ...).
 */
export type NodeHandlers = StubHandlers<NodeOperationId> & NodeStubInfo & { readonly stream: NodeStream; readonly streamHandlers: readonly WebSocketHandler[] };

/** What `priceHandlers()` returns: the handlers, the controls and the price stub's `seed`, `apiKey`, `pairs`, `now()`. */
export type PriceHandlers = StubHandlers<PriceOperationId> & PriceStubInfo;

/** The origin of `baseUrl` (default `fallback`); a `StubArgumentError` naming `baseUrl` when it is not an http(s) URL. */
function originOf(baseUrl: string | undefined, fallback: string): string {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl ?? fallback);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new StubArgumentError('baseUrl', `must be an absolute http(s) URL, got '${String(baseUrl)}'`);
  }
  return url.origin;
}

/**
 * One handler for every method and path under `stub.url`, answered by the in-memory stub. Redirect
 * faults go back to the caller as they are (the caller's fetch follows them, as over a network); a
 * `reset` fault becomes MSW's network error (`Response.error()`).
 */
function handlersOf<T extends FetchFunction & StubControls>(stub: T): readonly HttpHandler[] & Omit<T, keyof FetchFunction> {
  // A RegExp without groups, not `${stub.url}/*`: MSW percent-decodes the groups of a path it matches and
  // throws URIError on malformed encoding (`/%zz`), which it answers with a 500 of its own. The stub
  // answers such a path itself, as over loopback.
  const handler = http.all(new RegExp(`^${stub.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`), async ({ request }) => {
    try {
      return await stub(new Request(request, { redirect: 'manual' }));
    } catch (err) {
      // A `reset` fault: the in-memory fetch rejects with a TypeError only for that here (the origin is the
      // handler's, and redirects are answered, not followed). An abort (during a `slow` fault): the caller's
      // fetch has already rejected with the signal's reason, and this answer goes nowhere.
      if (err instanceof TypeError || request.signal.aborted) return Response.error();
      throw err;
    }
  });
  // The controls and the stub's facts, without the fetch function itself; as descriptors, so that
  // `requests` stays the getter that trims the log to its bound.
  const fields = Object.fromEntries(Object.entries(Object.getOwnPropertyDescriptors(stub)).filter(([, d]) => d.enumerable === true));
  return Object.defineProperties([handler], fields) as unknown as readonly HttpHandler[] & Omit<T, keyof FetchFunction>;
}

/**
 * The node RPC stub as MSW 2 handlers: every account operation of v1, v2 and v3 and the reads beyond
 * accounts (blocks, transactions, events, views, tables; POST bodies included), with the paging, faults,
 * clock and shapes of `createNodeStubFetch`, answered for `baseUrl`'s origin.
 *
 * @example
 * ```ts
 * const node = nodeHandlers({ seed: 7, baseUrl: 'http://localhost:27000' });
 * const server = setupServer(...node);
 * server.listen({ onUnhandledRequest: 'error' });
 * const client = createNodeClient({ baseUrl: node.url });
 * await client.v2.getAccount(node.accounts.alice);
 * node.requests; // [{ method: 'GET', url: '/rpc/v2/accounts/0x…', operationId: 'getAccountV2', … }]
 * // The block stream too (where the runtime has a WebSocket MSW intercepts): client.watchBlocks() works.
 * server.use(...node.streamHandlers);
 * node.stream.produce(2);
 * ```
 */
export function nodeHandlers(options: NodeHandlersOptions = {}): NodeHandlers {
  const { baseUrl, ...stub } = options;
  const url = originOf(baseUrl, NODE_STUB_URL);
  // createNodeStubFetch's engine, kept: its block feed serves the stream on the same clock as REST.
  const { engine, info, stream } = nodeEngine(stub);
  const handlers = handlersOf(fetchOf<NodeOperationId, NodeStubInfo>(engine, NODE_STUB_URL, { ...stub, url }, info));
  return Object.defineProperties(handlers, { stream: { value: stream as NodeStream, enumerable: true }, streamHandlers: { value: [nodeStreamHandler(stream, url)], enumerable: true } }) as unknown as NodeHandlers;
}

/**
 * The block stream of an in-memory node stub (`createNodeStubFetch()`) as an MSW 2 WebSocket handler:
 * `ws(s)://<stub.url's origin>/rpc/v4/ws`, fed by that stub's own chain and clock, so a pushed block is
 * the block its `fetch` answers for that height. For a page that answers REST with the stub's `fetch`
 * (no Service Worker in the way) and needs `watchBlocks` too: MSW's `setupWorker` intercepts the page's
 * `WebSocket`. Drive it with `stub.stream` (`produce`, `drop`, `refuseNext`, ...).
 *
 * @example
 * ```ts
 * import { setupWorker } from 'msw/browser';
 * const stub = createNodeStubFetch();
 * await setupWorker(...nodeStreamHandlers(stub)).start({ quiet: true, onUnhandledRequest: 'bypass' });
 * const node = createNodeClient({ baseUrl: stub.url, fetch: stub });
 * for await (const header of node.watchBlocks({ headersOnly: true })) console.log(header.height);
 * ```
 */
export function nodeStreamHandlers(stub: NodeStubFetch): readonly WebSocketHandler[] {
  const feed = typeof stub === 'function' ? blockFeedOf(stub) : undefined;
  if (feed === undefined) throw new StubArgumentError('stub', 'must be a stub made by createNodeStubFetch()');
  return [nodeStreamHandler(feed, new URL(stub.url).origin)];
}

/**
 * The price-history stub as MSW 2 handlers: `/history` (with its API key) and `/latest`, with the prices,
 * clock and faults of `createPriceStubFetch`, answered for `baseUrl`'s origin.
 *
 * @example
 * ```ts
 * const prices = priceHandlers({ baseUrl: 'https://prices.example.com', apiKey: 'k' });
 * const server = setupServer(...prices);
 * server.listen({ onUnhandledRequest: 'error' });
 * await createPriceClient({ baseUrl: prices.url, apiKey: 'k' }).latest({ pair: 'btc_usdt' });
 * ```
 */
export function priceHandlers(options: PriceHandlersOptions = {}): PriceHandlers {
  const { baseUrl, ...stub } = options;
  return handlersOf(createPriceStubFetch({ ...stub, url: originOf(baseUrl, PRICE_STUB_URL) }));
}
