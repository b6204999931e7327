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
// Named, not `export *`: what the clients and their users need, and nothing of the internals (the
// router's marks, the retry clock's helpers). `pnpm api-report` holds this surface to api/index.api.md.
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
export { advances, itemKey, MAX_CURSOR_LENGTH, nextPointer, pointerText, pointerValue, readPage, startParam } from './paging.js';
export { digest, Recent } from './repeats.js';
export { Flights } from './flights.js';
export type { Flight } from './flights.js';
export type { PageRead, PageStart, PagingRule } from './paging.js';
export { bytesToHex, checkInteger, checkParam, isWellFormed, show } from './params.js';
export type { FormatChecks, ParamSpec } from './params.js';
export { bigintAsText, requestBody, type BodyField } from './body.js';
export type { RateLimitOptions } from './rate-limit.js';
export { BodyTooLarge, BoundedText, readText } from './read-text.js';
export { REDACTED, redactText, redactUrl } from './redact.js';
export { redirectHop, sendWithinOrigin } from './redirects.js';
export type { Send, SendOptions } from './redirects.js';
export { scopeOf, underBase } from './scope.js';
export type { HeaderSource } from './redact.js';
export { milliseconds, resolveRetry, sleep, withRetry } from './retry.js';
export type { RetryOptions, RetryPolicy } from './retry.js';
export { fallback } from './routing.js';
export type { Fallback, FallbackOptions } from './routing.js';
export { checkHeaders, createTransport, DEFAULT_MAX_RESPONSE_BYTES, readAnswer, transportWith } from './transport.js';
export { checkEcho } from './echo.js';
export { explain } from './explain.js';
export type { Answer, AttemptContext, AttemptMaker, HttpErrorInit, OneNodeOptions, Prepared, Service, Transport } from './transport.js';
export type { AttemptInfo, CallOptions, NodeAffinity, OperationSpec, QueryErrorOptions, ResponseValidator, TransportOptions } from './options.js';
export { checkU64, readU64, U64_FORMATS } from './u64.js';
export { openSocket, reconnectDelay, socketUrl } from './socket/index.js';
export type { ReconnectOptions, Socket, SocketEvent, SocketOptions, WebSocketConstructor, WebSocketLike } from './socket/index.js';
