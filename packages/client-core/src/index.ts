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
// Named, not `export *`: what a client author needs. What this repository's clients share beyond it
// (paging, flights, bounded reading, redirect hops, the attempt of another sender) is
// `@x/client-core/internal` (./internal.ts). `pnpm api-report` holds both to api/*.api.md.
export {
  ChainIdMismatchError,
  TransactionWaitTimeoutError,
  ClientError,
  HistoryPrunedError,
  HttpError,
  InvalidArgumentError,
  isNotFound,
  isUnauthorized,
  NetworkError,
  NodesFailedError,
  ResponseParseError,
  ResponseShapeError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
} from './errors.js';
export type { AnyClientError, ErrorCode, NodeAttempt, ValidationIssue } from './errors.js';
export { baseUrls, parseBaseUrl } from './base-url.js';
export { checkInteger, show } from './params.js';
export type { ParamSpec } from './params.js';
export { bigintAsText, requestBody, type BodyField } from './body.js';
export type { RateLimitOptions } from './rate-limit.js';
export { REDACTED, redactText, redactUrl } from './redact.js';
export type { HeaderSource } from './redact.js';
export { milliseconds, resolveRetry, sleep, withRetry } from './retry.js';
export type { RetryOptions, RetryPolicy } from './retry.js';
export { fallback } from './routing.js';
export type { Fallback, FallbackOptions } from './routing.js';
export { checkHeaders, DEFAULT_MAX_RESPONSE_BYTES } from './transport.js';
export { createTransport } from './http/fetch.js';
export { explain } from './explain.js';
export type { OneNodeOptions, Prepared, Service, Transport } from './transport.js';
export type { AttemptInfo, CallOptions, NodeAffinity, OperationSpec, QueryErrorOptions, ResponseValidator, TransportOptions } from './options.js';
export { checkU64, readU64 } from './u64.js';
export { openSocket, reconnectDelay, socketUrl } from './socket/index.js';
export type { ReconnectOptions, Socket, SocketEvent, SocketOptions, WebSocketConstructor, WebSocketLike } from './socket/index.js';
