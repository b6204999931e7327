/**
 * The runtime both Supra clients share: the transport (timeouts, retries, body reading), the error
 * classes, redaction and parameter checks. `@x/node-client` and `@x/price-client` depend on it and
 * re-export what their users need; install it directly only to write your own client on top of it.
 *
 * @example
 * ```ts
 * import { ClientError, HttpError } from '@x/client-core';
 * try { await node.v2.getAccount('0x1'); } catch (err) {
 *   if (err instanceof HttpError && err.status === 404) console.log('no such account');
 * }
 * ```
 * @packageDocumentation
 * @module @x/client-core
 */
export * from './errors.js';
export { baseUrls, fallsThrough, supraRetryIn } from './nodes.js';
export * from './paging.js';
export * from './params.js';
export type { RateLimitOptions } from './rate-limit.js';
export * from './redact.js';
export * from './retry.js';
export { NODE_AFFINITY, nodeRouting } from './routing.js';
export type { NodeAffinity, Router, RoutingFactory, RoutingInit } from './routing.js';
export * from './transport.js';
export * from './u64.js';
