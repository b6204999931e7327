import { type ClientError, HttpError, InvalidArgumentError, NetworkError, ResponseTooLargeError, TimeoutError } from '../errors.js';
import { show } from '../params.js';
import { redactUrl } from '../redact.js';
import { milliseconds, parseRetryAfter } from '../retry.js';
import { takesHeaders, webSocketClass, type WebSocketConstructor, type WebSocketLike } from './runtime.js';

/** Options of {@link openSocket}. */
export type SocketOptions = {
  /** A `ws:` or `wss:` URL (check one given by a user with {@link socketUrl}). */
  url: string;
  /**
   * Headers of the upgrade (`Authorization`, `x-api-key`). Sent where the runtime's WebSocket takes them
   * (`ws`, Node's, Deno's, Bun's); a browser's WebSocket sends none: there a key goes through a proxy of
   * the app's, which adds it.
   */
  headers?: Record<string, string> | undefined;
  /** The largest frame taken, in bytes (default 4 MiB); a larger one closes the socket with `ResponseTooLargeError`. */
  maxFrameBytes?: number | undefined;
  /** How long the upgrade may take, in ms (default 10 000); then `TimeoutError`. */
  openTimeoutMs?: number | undefined;
  /** Aborts the opening (rejecting with its reason) or closes the open socket. */
  signal?: AbortSignal | undefined;
  /** The WebSocket class (default: in Node the `ws` package's where installed, else the global one). */
  WebSocket?: WebSocketConstructor | undefined;
  /** Called with each text frame, in order; what it throws closes the socket with that error. */
  onMessage(text: string): void;
};

/** An open socket. */
export type Socket = {
  /** Sends a text frame; nothing once closed. */
  send(text: string): void;
  /** Closes the socket (`closed` then resolves `undefined`). */
  close(): void;
  /**
   * Resolves once the socket is closed: `undefined` when {@link Socket.close} or the signal closed it, else
   * the `ClientError` that did (`NetworkError` for a drop, `ResponseTooLargeError` for a frame past the limit).
   */
  readonly closed: Promise<ClientError | undefined>;
  /** The upgrade's response headers, names lowercased, where the runtime shows them (`ws`); else `undefined`. */
  readonly headers: Readonly<Record<string, string>> | undefined;
};

const DEFAULT_MAX_FRAME_BYTES = 4 * 1024 * 1024;

/**
 * `value` as a WebSocket URL: a `ws:` or `wss:` URL, else `InvalidArgumentError` naming `name`.
 *
 * @example
 * ```ts
 * socketUrl('webSocketUrl', 'https://x'); // throws InvalidArgumentError: Invalid argument 'webSocketUrl': ...
 * ```
 */
export function socketUrl(name: string, value: unknown): string {
  let url: URL | undefined;
  try {
    url = new URL(value as string);
  } catch {
    // Not a URL: refused below.
  }
  if (typeof value !== 'string' || !/^wss?:$/.test(url?.protocol as string)) throw new InvalidArgumentError(name, `must be a ws: or wss: URL, got ${show(typeof value === 'string' ? redactUrl(value) : value)}`);
  return (url as URL).href;
}

/** The UTF-8 length of `text` past `max`, counted only when it may be (a character is 1 to 3 bytes per UTF-16 unit). */
const over = (text: string, max: number): boolean => text.length > max || (text.length * 3 > max && new TextEncoder().encode(text).length > max);

/** `ws`'s answer to an upgrade: Node's response, its header names lowercased. */
type UpgradeAnswer = { statusCode?: number; headers: Record<string, string>; resume?(): void };

/**
 * Opens a WebSocket and resolves once it is open, with each text frame handed to `onMessage`. Rejects
 * with `HttpError` when the upgrade was refused and the runtime shows its status (`ws`: a 429's
 * `retryAfterMs` from `Retry-After`, its `X-WebSocket-Reject-Reason` in the message; a browser shows no
 * status, so there it is a `NetworkError`), `TimeoutError` past `openTimeoutMs`, `NetworkError` when it
 * did not open or no WebSocket class exists (Node 20 without `ws` installed), or the signal's reason.
 *
 * @example
 * ```ts
 * const socket = await openSocket({ url: 'ws://localhost:27000/rpc/v4/ws', onMessage: (text) => console.log(text) });
 * socket.send('{"jsonrpc":"2.0","id":1,"method":"supra_subscribe","params":["newBlockHeaders"]}');
 * const why = await socket.closed; // undefined after socket.close(), else the ClientError that closed it
 * ```
 */
export async function openSocket(options: SocketOptions): Promise<Socket> {
  const { url, signal, onMessage, maxFrameBytes = DEFAULT_MAX_FRAME_BYTES } = options;
  const openTimeoutMs = milliseconds('openTimeoutMs', options.openTimeoutMs ?? 10_000);
  const request = { method: 'GET', url: redactUrl(url) };
  const Class = options.WebSocket ?? (await webSocketClass());
  signal?.throwIfAborted();
  if (!Class) throw new NetworkError({ ...request, cause: new Error('this runtime has no WebSocket: install ws or pass WebSocket') });
  // Headers travel in the second argument where the class takes them; a browser's would read it as protocols.
  const ws: WebSocketLike = new Class(url, options.WebSocket || takesHeaders() ? { headers: options.headers ?? {}, maxPayload: maxFrameBytes, handshakeTimeout: openTimeoutMs } : undefined);
  (ws as { binaryType?: string }).binaryType = 'arraybuffer';

  let upgradeHeaders: Record<string, string> | undefined;
  let opened = false;
  let done = false;
  let settle!: (error: unknown) => void;
  /** Why it closed: before it opened, what opening rejects with. */
  const closed = new Promise<unknown>((resolve) => (settle = resolve));
  /** Ends the socket once: its handlers silenced (`ws` throws an 'error' no one listens to), the connection dropped. */
  const finish = (error: unknown): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = () => {};
    try {
      // A standard WebSocket's close takes no code but 1000 and 3000-4999 (1009 would throw, leaving it open).
      if (ws.terminate) ws.terminate();
      else ws.close();
    } catch {
      // Closing a socket that is closing already: nothing left to close.
    }
    settle(error);
  };
  const onAbort = (): void => finish(opened ? undefined : signal!.reason);
  const timer = setTimeout(() => finish(new TimeoutError({ ...request, timeoutMs: openTimeoutMs })), openTimeoutMs);
  signal?.addEventListener('abort', onAbort, { once: true });
  const tooLarge = (): ResponseTooLargeError => new ResponseTooLargeError({ ...request, status: 101, limitBytes: maxFrameBytes });

  ws.on?.('upgrade', ((answer: UpgradeAnswer) => (upgradeHeaders = answer.headers)) as never);
  ws.on?.('unexpected-response', ((_request: unknown, answer: UpgradeAnswer) => {
    const { headers } = answer;
    answer.resume?.();
    finish(new HttpError({ ...request, status: answer.statusCode ?? 0, body: undefined, headers, retryAfterMs: parseRetryAfter(headers['retry-after'] ?? null, Date.now()), message: headers['x-websocket-reject-reason'] }));
  }) as never);
  ws.onmessage = ({ data }) => {
    const text = typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer);
    if (over(text, maxFrameBytes)) return finish(tooLarge());
    try {
      onMessage(text);
    } catch (error) {
      finish(error);
    }
  };
  ws.onerror = (event) => {
    // `ws` names a frame past maxPayload here; its close does not.
    if ((event.error as { code?: unknown } | undefined)?.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') finish(tooLarge());
  };
  ws.onclose = ({ code, reason }) =>
    finish(new NetworkError({ ...request, cause: new Error(opened ? `closed (code ${code}${reason ? `: ${reason}` : ''})` : 'did not open') }));
  const why = await Promise.race([closed, new Promise((resolve) => (ws.onopen = () => resolve((opened = true))))]);
  if (!opened) throw why;
  clearTimeout(timer);
  return {
    send: (text) => {
      if (!done) ws.send(text);
    },
    close: () => finish(undefined),
    closed: closed as Promise<ClientError | undefined>,
    headers: upgradeHeaders,
  };
}
