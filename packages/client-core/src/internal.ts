/**
 * `@x/client-core/internal`: what this repository's clients share beyond the public runtime (the
 * attempt of a one-node transport for another sender, bounded reading, redirect hops, paging, flights,
 * scopes, the live feeds' reconnecting stream). Internal: no semver promise, every name tagged
 * `@internal` in its API report; a client author outside this repository uses `@x/client-core`.
 *
 * @example
 * ```ts
 * import { transportWith, readAnswer } from '@x/client-core/internal';
 * ```
 * @packageDocumentation
 * @internal
 */
export { readAnswer, transportWith } from './transport.js';
export { deadline, DEFAULT_TIMEOUT_MS } from './deadline.js';
export type { Answer, AttemptContext, AttemptMaker, HttpErrorInit } from './transport.js';
export { redirectHop, sendWithinOrigin } from './redirects.js';
export type { Send, SendOptions } from './redirects.js';
export { BodyTooLarge, BoundedText, readText } from './read-text.js';
export { Flights } from './flights.js';
export type { Flight } from './flights.js';
export { digest, Recent } from './repeats.js';
export { advances, itemKey, MAX_CURSOR_LENGTH, nextPointer, pointerText, pointerValue, readPage, startParam } from './paging.js';
export type { PageRead, PageStart } from './paging.js';
export { scopeOf, underBase } from './scope.js';
export { checkEcho } from './echo.js';
export { bad, bytesToHex, isWellFormed, paramValue } from './params.js';
export { MAX_RETRY_AFTER_MS } from './socket/backoff.js';
export { isSocketError, openFeed, reconnecting } from './socket/stream.js';
export type { Feed, FeedOptions, Reconnect } from './socket/stream.js';
