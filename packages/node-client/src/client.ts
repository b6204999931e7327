import { baseUrls, InvalidArgumentError } from '@x/client-core';
import { NODE_RPC_API_PATHS, NODE_RPC_BASE_URL } from '@x/common';
import { http } from './transports.js';
import { versionActions } from './generated/actions.js';
import type { Caller, NodeClient, NodeClientOptions } from './api.js';
import type { WatchBlocksOptions } from './watch-blocks.js';

/** The actions of a table bound to one transport: `bind(t, v2).getAccount(a)` is `getAccountV2(t, a)`. */
function bind<T extends Record<string, (client: Caller, ...args: never[]) => unknown>>(transport: Caller, table: T): Record<keyof T, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, action] of Object.entries(table)) {
    // Three fixed arguments, not a rest parameter: a rest array per call is a cost on every call.
    out[name] = (a?: never, b?: never, c?: never) => action(transport, a!, b!, c!);
  }
  return out as Record<keyof T, unknown>;
}

/** An async iterable whose source is loaded when it is first iterated. */
function lazyIterable<T>(load: () => Promise<AsyncIterable<T>>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      let inner: Promise<AsyncIterator<T>> | undefined;
      const it = (): Promise<AsyncIterator<T>> => (inner ??= load().then((i) => i[Symbol.asyncIterator]()));
      return {
        next: () => it().then((i) => i.next()),
        return: async () => (inner === undefined ? { done: true, value: undefined } : (await inner).return?.() ?? { done: true, value: undefined }),
      };
    },
  };
}

/**
 * Several nodes, a rate limit, hedging or an attempt hook given as options: the router, loaded on the
 * first call (`fallback` of its own module), so that a one-node client's bundle holds none of it. Its
 * options are checked then, and a bad one is that call's rejection; the base URLs now.
 */
function severalNodes(options: NodeClientOptions): Caller {
  const urls = baseUrls(options.baseUrl ?? NODE_RPC_BASE_URL, NODE_RPC_API_PATHS);
  let router: Promise<Caller> | undefined;
  return {
    baseUrls: Object.freeze(urls),
    call: (...args) => (router ??= import('./fallback.js').then((m) => m.fallback(options))).then((r) => r.call(...args)),
  };
}

/**
 * Creates a client for the account operations of a Supra node: `node.v3.getAccount(address)` and the
 * other operations and walks of each version, bound to one transport. A convenience over the actions
 * (`getAccountV3(transport, address)`) and transports (`http`, `fallback`), which an app that wants the
 * smallest bundle imports directly.
 *
 * @example
 * ```ts
 * import { createNodeClient, fallback, http, NODE_URLS } from '@x/node-client';
 * const node = createNodeClient({ baseUrl: 'http://localhost:27000' });
 * const account = await node.v3.getAccount('0x1');
 * // Several nodes, in order of preference: a node down, slow or rate-limiting moves the call on.
 * const resilient = createNodeClient({ transport: fallback([http({ baseUrl: NODE_URLS.mainnet }), http({ baseUrl: 'https://rpc-wallet-mainnet.supra.com' })]) });
 * ```
 */
export function createNodeClient(options: NodeClientOptions = {}): NodeClient {
  const { transport: given } = options;
  if (given !== undefined && (typeof given !== 'object' || given === null || typeof given.call !== 'function')) throw new InvalidArgumentError('transport', 'must be a transport: http(...), fallback(...) or a Caller');
  const routed = Array.isArray(options.baseUrl) || options.rateLimit !== undefined || options.hedgeAfterMs !== undefined || options.onAttempt !== undefined;
  const transport = given ?? (routed ? severalNodes(options) : http(options as Parameters<typeof http>[0]));
  // The wait, the stream code and (in the version tables) the walks are loaded on first use, so that a
  // client that never waits, watches or walks does not carry them.
  const client: Record<string, unknown> = { transport, baseUrls: transport.baseUrls, waitForTransaction: (hash: string, o?: never) => import('./wait.js').then((m) => m.waitForTransaction(transport, hash, o)) };
  client.watchBlocks = (o?: WatchBlocksOptions) => lazyIterable(() => import('./watch-blocks.js').then((m) => m.watchBlocks(transport, { headers: options.headers, chainId: options.chainId, ...o } as never)));
  client.watchEvents = (type: string, o?: object) => lazyIterable(() => import('./watch-events.js').then((m) => m.watchEvents(transport, type, { headers: options.headers, chainId: options.chainId, ...o })));
  // Every version the spec has (`v1`, `v2`, ...), its actions and walks bound by name.
  for (const [version, table] of Object.entries(versionActions)) client[version] = bind(transport, table);
  return client as NodeClient;
}
