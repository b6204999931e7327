/**
 * A small WebSocket layer both clients' live feeds share (the node's `watchBlocks`, the price service's
 * candles): no framing of its own. What it does:
 *
 * - **Which WebSocket**: in Node the `ws` package where it is installed (an optional peer dependency: it
 *   shows a refused upgrade's status, which Node 22's global WebSocket hides; Node 20 has none), loaded
 *   by a dynamic import no bundler follows; else the runtime's global one (browsers, Deno, Bun, Node 22+
 *   without `ws`); or the class passed as `WebSocket`.
 * - **{@link openSocket}**: resolves once open; text frames go to `onMessage` in order; `closed` resolves
 *   with the `ClientError` that closed it (`NetworkError` for a drop, `ResponseTooLargeError` past
 *   `maxFrameBytes`; `ws` refuses such a frame before buffering it, a global WebSocket after), or
 *   `undefined` when the caller closed it. Opening rejects with `TimeoutError` past `openTimeoutMs`, the
 *   signal's reason, or `HttpError` for a refused upgrade where the status is visible (`ws`): a 429's
 *   `retryAfterMs` is its `Retry-After`. A browser shows no status at all (the spec gives a failed
 *   upgrade only an `error` and a `close` with code 1006), so there a refusal is a `NetworkError`.
 * - **Headers** (`Authorization`, `x-api-key`) travel on the upgrade where the class takes them (`ws`,
 *   Node's, Deno's, Bun's). A browser's WebSocket cannot send headers: route the socket through a proxy
 *   of the app's origin that adds them, and never put a key in the URL.
 * - **{@link reconnectDelay}**: a reconnect's wait, a server's `Retry-After` honoured up to a minute.
 * - **{@link socketUrl}**: checks a user's `ws:`/`wss:` URL, `InvalidArgumentError` naming the option.
 * - **`openFeed`, `reconnecting`** (`stream.ts`, exported by `@x/client-core/internal`): a socket's frames
 *   as a bounded async iterator with an idle watchdog, and the reconnect loop with backoff both clients'
 *   streams compose.
 *
 * @example
 * ```ts
 * const socket = await openSocket({ url: 'ws://localhost:27000/rpc/v4/ws', headers: { authorization: 'Bearer t' }, onMessage: console.log });
 * socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'supra_subscribe', params: ['newBlockHeaders'] }));
 * ```
 * @module
 */
export { openSocket, socketUrl } from './open.js';
export type { Socket, SocketOptions } from './open.js';
export { reconnectDelay } from './backoff.js';
export type { ReconnectOptions } from './backoff.js';
export type { SocketEvent, WebSocketConstructor, WebSocketLike } from './runtime.js';
