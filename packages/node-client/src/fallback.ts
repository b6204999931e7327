import { baseUrls, fallback as route, type Fallback, type FallbackOptions as RouteOptions, type Transport, type TransportOptions } from '@x/client-core';
import { NODE_RPC_API_PATHS, NODE_RPC_BASE_URL } from '@x/common';
import { http, type NodeOptions } from './transports.js';

/** Options of {@link fallback} over base URLs: several nodes in order of preference, a rate limit, hedging, an attempt hook. */
export type FallbackOptions = TransportOptions & NodeOptions;

/**
 * A transport over several nodes, in order of preference: a node that fails (network error, timeout,
 * 408, 429, 5xx, a body that is not JSON, too large or refused by the validator, an answer of another
 * origin, chain or request, a 410) moves the call on and rests; a walk's pages come from one node while
 * it answers. Also the home of a client-side rate limit, hedging (`hedgeAfterMs`) and the `onAttempt`
 * hook, with one node or several. Give it one-node transports (`http(...)`, each with options of its
 * own), or the base URLs and the options they share.
 *
 * @example
 * ```ts
 * import { fallback, http, NODE_URLS, walkTransactionsV3 } from '@x/node-client';
 * const nodes = fallback([http({ baseUrl: NODE_URLS.mainnet }), http({ baseUrl: 'https://rpc-wallet-mainnet.supra.com' })], { rateLimit: { requestsPerSecond: 10 } });
 * for await (const tx of walkTransactionsV3(nodes, '0x1', { concurrency: 4 })) console.log(tx.hash);
 * ```
 */
export function fallback(transports: readonly Transport[], options?: RouteOptions): Fallback;
export function fallback(options?: FallbackOptions): Fallback;
export function fallback(first: readonly Transport[] | FallbackOptions = {}, options: RouteOptions = {}): Fallback {
  if (Array.isArray(first)) return route(first, options);
  const { rateLimit, hedgeAfterMs, onAttempt, baseUrl, ...each } = first as FallbackOptions;
  // Checked as a list first: none, or one node twice, is the list's error.
  return route(baseUrls(baseUrl ?? NODE_RPC_BASE_URL, NODE_RPC_API_PATHS).map((url) => http({ ...each, baseUrl: url })), { rateLimit, hedgeAfterMs, onAttempt });
}
