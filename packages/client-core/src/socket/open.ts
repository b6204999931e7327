import { type ClientError, HttpError, InvalidArgumentError, NetworkError, ResponseTooLargeError, TimeoutError } from '../errors.js';
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
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'ws:' && url.protocol !== 'wss:')) {
    throw new InvalidArgumentError(name, `must be a ws: or wss: URL, got ${typeof value === 'string' ? JSON.stringify(redactUrl(value)).slice(0, 80) : typeof value}`);
  }
  return url.href;
}

/** The UTF-8 length of `text` past `max`, counted only when it may be (a character is 1 to 3 bytes per UTF-16 unit). */
const over = (text: string, max: number): boolean => text.length > max || (text.length * 3 > max && new TextEncoder().encode(text).length > max);

type UpgradeAnswer = { statusCode?: number; headers?: Record<string, string | string[] | undefined>; resume?(): void };

/** Node's raw headers (a repeated one as a list) as one lowercased record. */
function flatHeaders(raw: UpgradeAnswer['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw ?? {})) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

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
  const { url, signal, onMessage } = options;
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const openTimeoutMs = milliseconds('openTimeoutMs', options.openTimeoutMs ?? 10_000);
  const shown = redactUrl(url);
  signal?.throwIfAborted();
  const Class = options.WebSocket ?? (await webSocketClass());
  signal?.throwIfAborted();
  if (Class === undefined) {
    throw new NetworkError({ method: 'GET', url: shown, cause: new Error('this runtime has no WebSocket: install the ws package (npm i ws) or pass a WebSocket class') });
  }
  const headers = options.headers && Object.keys(options.headers).length > 0 ? options.headers : undefined;
  // Headers travel in the second argument where the class takes them; a browser's would read it as protocols.
  const init = options.WebSocket !== undefined || takesHeaders() ? { headers: headers ?? {}, maxPayload: maxFrameBytes, handshakeTimeout: openTimeoutMs } : undefined;
  const ws: WebSocketLike = init ? new Class(url, init) : new Class(url);
  (ws as { binaryType?: string }).binaryType = 'arraybuffer';

  let upgradeHeaders: Record<string, string> | undefined;
  let opened = false;
  let settle!: (error: ClientError | undefined) => void;
  const closed = new Promise<ClientError | undefined>((resolve) => (settle = resolve));
  let onOpen!: () => void;
  let onFail!: (error: unknown) => void;
  const open = new Promise<void>((resolve, reject) => {
    onOpen = resolve;
    onFail = reject;
  });

  let done = false;
  /** Ends the socket once: its handlers silenced (`ws` throws an 'error' no one listens to), the connection dropped. */
  const finish = (error: unknown): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    const quiet = (): void => {};
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = quiet;
    try {
      if (ws.terminate) ws.terminate();
      else ws.close(error instanceof ResponseTooLargeError ? 1009 : 1000);
    } catch {
      // Closing a socket that is closing already: nothing left to close.
    }
    if (opened) settle(error as ClientError | undefined);
    else onFail(error);
  };
  const onAbort = (): void => finish(opened ? undefined : signal!.reason);
  const timer = setTimeout(() => finish(new TimeoutError({ method: 'GET', url: shown, timeoutMs: openTimeoutMs })), openTimeoutMs);
  signal?.addEventListener('abort', onAbort, { once: true });
  const tooLarge = (): ResponseTooLargeError => new ResponseTooLargeError({ status: 101, method: 'GET', url: shown, limitBytes: maxFrameBytes });

  ws.on?.('upgrade', ((answer: UpgradeAnswer) => (upgradeHeaders = flatHeaders(answer.headers))) as never);
  ws.on?.('unexpected-response', ((_request: unknown, answer: UpgradeAnswer) => {
    const got = flatHeaders(answer.headers);
    answer.resume?.();
    const status = answer.statusCode ?? 0;
    const reason = got['x-websocket-reject-reason'];
    finish(new HttpError({ status, body: undefined, method: 'GET', url: shown, headers: got, retryAfterMs: parseRetryAfter(got['retry-after'] ?? null, Date.now()), message: reason }));
  }) as never);
  ws.onopen = () => {
    opened = true;
    clearTimeout(timer);
    onOpen();
  };
  ws.onmessage = (event) => {
    const { data } = event;
    const text = typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer);
    if (over(text, maxFrameBytes)) return finish(tooLarge());
    try {
      onMessage(text);
    } catch (error) {
      finish(error);
    }
  };
  ws.onerror = (event) => {
    // `ws` names a frame past maxPayload; its close (1009) follows.
    if ((event.error as { code?: unknown } | undefined)?.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') finish(tooLarge());
  };
  ws.onclose = (event) => {
    if (event.code === 1009) return finish(tooLarge());
    const why = opened ? `closed by the server (code ${event.code ?? 'none'}${event.reason ? `: ${event.reason}` : ''})` : 'the WebSocket did not open (a browser shows no reason: a refused upgrade, 429 or 503 included)';
    finish(new NetworkError({ method: 'GET', url: shown, cause: new Error(why) }));
  };
  if (signal?.aborted) onAbort();
  await open;
  return {
    send: (text) => {
      if (!done) ws.send(text);
    },
    close: () => finish(undefined),
    closed,
    headers: upgradeHeaders,
  };
}
