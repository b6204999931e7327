/**
 * The clients the app talks through, from the page's URL:
 *
 * - `?node=<url>`: a real node (it must allow this page's origin: CORS); without it, the in-memory node
 *   stub of `@x/testing`, passed to the client as its `fetch`, answers in the page.
 * - `?price=<url>`: a real price service, or (better) your own proxy in front of it that adds the API key;
 *   without it, the in-memory price stub.
 * - `?timeout=<ms>`: the clients' `timeoutMs` per attempt (default 10,000).
 * - `?validate=live|documented`: the node client checks every body with `@x/validators` in that reading.
 * - `?shapes=live`: the node stub answers in the shapes real nodes send (default: the documented ones).
 * - `?oldest-block=<height>`: the node stub keeps no history below that block, as a pruning node: what
 *   lies below answers 410 (`HistoryPrunedError`). For the pruned states of the transaction and block pages.
 * - `?price-feed=<ws url>`: the candle feed's WebSocket (a proxy of yours that adds the key: a page's
 *   WebSocket sends no header); without it, a real price service's chart has no live candle.
 *
 * With the stubs, their streams (the node's `/rpc/v4/ws`, the price feed) are served in the page by MSW's
 * WebSocket API (`stub-streams.ts`, a chunk of its own with `msw`), started before the page renders so that
 * the clients' first socket already meets it.
 *
 * `@x/testing` is imported only when a stub is used, and `@x/validators` only with `?validate=`, so a
 * page pointed at real services without validation loads neither.
 */
import { createNodeClient, type NodeClient } from '@x/node-client';
import { createNodeQueries, type NodeQueries } from '@x/node-client/query';
import { createPriceClient, type PriceClient } from '@x/price-client';
import { createPriceQueries, type PriceQueries } from '@x/price-client/query';
import type { NodeStubFetch, PriceFeedControls, PriceStubFetch } from '@x/testing';

/** Where a source of data is: a stub in the page, or a URL. */
export type Source = { kind: 'stub' } | { kind: 'remote'; url: string };

export interface Services {
  readonly node: NodeQueries;
  readonly prices: PriceQueries;
  /** The clients themselves, for the live parts (`node.watchBlocks`, `liveCandleQueryOptions`). */
  readonly nodeClient: NodeClient;
  readonly priceClient: PriceClient;
  /** Whether the price service's candle feed can be reached: the stub's, or `?price-feed=`. */
  readonly liveCandles: boolean;
  readonly nodeSource: Source;
  readonly priceSource: Source;
  /** Accounts offered as shortcuts: the stub's, or the framework account of a real node. */
  readonly shortcuts: Readonly<Record<string, string>>;
  readonly pairs: readonly string[];
  /** `?validate=` and `?shapes=`, shown in the page's header when set. */
  readonly options: readonly string[];
  /** The price service's clock (the stub's follows the wall clock by default). */
  now(): number;
}

declare global {
  interface Window {
    /** The in-memory stubs, when the page uses them: their `requests`, `failNext()`, `reset()`. */
    explorer?: { nodeStub?: NodeStubFetch; priceStub?: PriceStubFetch; priceFeed?: PriceFeedControls | undefined };
  }
}

const PAIRS = ['btc_usdt', 'eth_usdt', 'supra_usdt', 'eth_btc'];
/**
 * The price client needs an `apiKey` for `/history`. A real key must not ship in a page: point `?price=`
 * at a proxy of your own that replaces this placeholder with the key, server side.
 */
const PROXY_PLACEHOLDER_KEY = 'added-by-your-proxy';
/** The in-page price feed's WebSocket URL: the price client opens it, MSW answers it (`stub-streams.ts`). */
const STUB_FEED_URL = 'ws://127.0.0.1:27001/feed';

function remote(params: URLSearchParams, name: string): Source {
  const url = params.get(name);
  return url ? { kind: 'remote', url } : { kind: 'stub' };
}

/** `?oldest-block=`, a block height; anything else is 0 (nothing pruned) rather than a page that fails to start. */
function oldestBlockOf(params: URLSearchParams): number {
  const height = Number(params.get('oldest-block') ?? 0);
  return Number.isSafeInteger(height) && height > 0 ? height : 0;
}

export async function connect(params: URLSearchParams): Promise<Services> {
  const nodeSource = remote(params, 'node');
  const priceSource = remote(params, 'price');
  const timeout = Number(params.get('timeout'));
  const timeoutMs = Number.isSafeInteger(timeout) && timeout > 0 ? timeout : 10_000;
  const stubbed = nodeSource.kind === 'stub' || priceSource.kind === 'stub';
  // Both chunks at once: the stubs, and the MSW code that serves their streams.
  const [testing, streams] = stubbed ? await Promise.all([import('@x/testing'), import('./stub-streams.ts')]) : [];
  const profile = params.get('validate');
  const validator =
    profile === 'live' || profile === 'documented' ? (await import('@x/validators')).createResponseValidator({ profile }) : undefined;
  const shapes = params.get('shapes') === 'live' ? 'live' : 'documented';
  const oldestBlock = oldestBlockOf(params);

  let nodeStub: NodeStubFetch | undefined;
  let priceStub: PriceStubFetch | undefined;
  const node =
    nodeSource.kind === 'remote'
      ? createNodeClient({ baseUrl: nodeSource.url, timeoutMs, validator })
      : createNodeClient({ baseUrl: (nodeStub = testing!.createNodeStubFetch({ shapes, oldestBlock })).url, fetch: nodeStub, timeoutMs, validator });
  const priceFeed = params.get('price-feed') ?? undefined;
  const prices =
    priceSource.kind === 'remote'
      ? createPriceClient({ baseUrl: priceSource.url, apiKey: PROXY_PLACEHOLDER_KEY, timeoutMs, webSocketUrl: priceFeed })
      : createPriceClient({ baseUrl: (priceStub = testing!.createPriceStubFetch()).url, fetch: priceStub, apiKey: priceStub.apiKey, timeoutMs, webSocketUrl: STUB_FEED_URL });
  if (testing) window.explorer = { nodeStub, priceStub, priceFeed: await streams!.startStubStreams(nodeStub, priceStub, STUB_FEED_URL) };

  return {
    node: createNodeQueries(node),
    prices: createPriceQueries(prices),
    nodeClient: node,
    priceClient: prices,
    liveCandles: priceStub !== undefined || priceFeed !== undefined,
    nodeSource,
    priceSource,
    shortcuts: nodeStub ? testing!.STUB_ACCOUNTS : { framework: '0x1' },
    pairs: priceStub ? priceStub.pairs : PAIRS,
    now: priceStub ? () => priceStub.now() : () => Date.now(),
    options: [
      validator ? `responses validated (${profile} reading)` : '',
      nodeStub && shapes === 'live' ? 'live shapes' : '',
      nodeStub && oldestBlock > 0 ? `history pruned below block ${oldestBlock}` : '',
    ].filter(Boolean),
  };
}
