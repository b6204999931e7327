/**
 * The machinery both clients' live feeds share (the node's `watchBlocks`, the price service's
 * `watchCandles`): one socket's frames as a bounded async iterator with an idle watchdog
 * ({@link openFeed}), and the loop that connects again with backoff until the caller stops it
 * ({@link reconnecting}). What a feed means (its subscribe message, how it fills a gap, its checks)
 * stays in its client.
 */
import { ClientError, TimeoutError } from '../errors.js';
import { redactUrl } from '../redact.js';
import { sleep } from '../retry.js';
import { openSocket, type Socket, type SocketOptions } from './open.js';

/**
 * Options of {@link openFeed}: those of `openSocket` but `onMessage`, and how frames become items.
 * @internal
 */
export type FeedOptions<T> = Omit<SocketOptions, 'onMessage'> & {
  /** The items of one text frame, in order (none for a frame that carries none); what it throws closes the feed with it. */
  read(text: string): readonly T[];
  /**
   * Items held for a consumer that is behind. One more closes the socket (`onOverflow` is told): the feed
   * then ends, without an error, once the held ones are read, and the caller catches up its own way.
   */
  maxQueued: number;
  /** Told when the queue overflowed, with how many items it holds. */
  onOverflow?: ((queued: number) => void) | undefined;
  /** Whether `item` supersedes `last`, the newest item held (a newer state of it): it then takes its place. */
  replaces?: ((last: T, item: T) => boolean) | undefined;
  /** No news for this long, in ms, and the socket is taken as dead: the feed closes with `idleError` (default: no watchdog). */
  idleMs?: number | undefined;
  /**
   * Whether `item` is news (its consumer will be given it, not drop it as a repeat or a late one): only news
   * re-arms the watchdog, so a stream stuck resending an old item is taken as dead. Called once per item, in
   * order, as frames come (default: every item is news).
   */
  news?: ((item: T) => boolean) | undefined;
  /** The error of a feed left idle (default: a `TimeoutError` of the URL); one of the URL, so that `isSocketError` knows it. */
  idleError?: (() => ClientError) | undefined;
};

/**
 * An open feed: iterate it once for its items, in order. The iteration ends by throwing why the socket
 * closed (a drop, a frame `read` refused, the watchdog), or the signal's reason; it returns after an
 * overflow. `break` closes the socket.
 * @internal
 */
export type Feed<T> = AsyncIterable<T> & Pick<Socket, 'send' | 'close' | 'headers'>;

/**
 * Whether `error` is a WebSocket's (a refused or failed upgrade, a drop, a frame past the limit, a
 * feed's watchdog): a `ClientError` of a `ws:` or `wss:` URL, which a REST request's (`http:`) never is.
 *
 * @example
 * ```ts
 * retry: (error, failures) => { if (!isSocketError(error)) throw error; return reconnectDelay(failures, error); }
 * ```
 * @internal
 */
export const isSocketError = (error: unknown): error is ClientError => error instanceof ClientError && /^wss?:/.test((error as { url?: string }).url as string);

/**
 * Opens a socket (as `openSocket` does, rejecting as it does) whose frames, read into items, wait in a
 * bounded queue for the one consumer that iterates the feed. The watchdog starts at the open.
 *
 * @example
 * ```ts
 * const feed = await openFeed({ url, signal, maxQueued: 256, idleMs: 30_000, read: (text) => [JSON.parse(text)] });
 * feed.send('{"action":"subscribe"}');
 * for await (const item of feed) console.log(item);
 * ```
 * @internal
 */
export async function openFeed<T>(options: FeedOptions<T>): Promise<Feed<T>> {
  const { maxQueued, idleMs, signal, replaces } = options;
  const queue: T[] = [];
  /** Why the socket closed, once it has (`null`: by the signal, or an overflow). */
  let ended: ClientError | null | undefined;
  let wake = (): void => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: ClientError | undefined;
  const arm = (): void => {
    clearTimeout(timer);
    if (idleMs) {
      timer = setTimeout(() => {
        idle = options.idleError?.() ?? new TimeoutError({ method: 'GET', url: redactUrl(options.url), timeoutMs: idleMs });
        socket.close();
      }, idleMs);
    }
  };
  const socket: Socket = await openSocket({
    ...options,
    onMessage: (text) => {
      const items = options.read(text);
      let news = false;
      for (const item of items) {
        news = (options.news?.(item) ?? true) || news;
        const at = queue.length - 1;
        if (at >= 0 && replaces?.(queue[at] as T, item)) queue[at] = item;
        else if (queue.push(item) > maxQueued) {
          queue.pop();
          options.onOverflow?.(at + 1);
          return socket.close();
        }
      }
      if (news) arm();
      if (items[0] !== undefined) wake();
    },
  });
  arm();
  void socket.closed.then((error) => {
    clearTimeout(timer);
    ended = idle ?? error ?? null;
    wake();
  });
  return {
    ...socket,
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          if (queue[0] !== undefined) yield queue.shift() as T;
          else if (ended !== undefined) {
            if (ended) throw ended;
            // Closed by the signal, or by an overflow (the caller catches up).
            signal?.throwIfAborted();
            return;
          } else await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        socket.close();
      }
    },
  };
}

/**
 * One stream's way of connecting, for {@link reconnecting}.
 * @internal
 */
export type Reconnect<T> = {
  /**
   * One connection (or another way to the same items, as polling REST): what it yields is yielded. It
   * ends by throwing why, or returns to be connected again at once. `ok()` says it works (an item it
   * brought was taken): the failures in a row count from 0 again.
   */
  connect(ok: () => void): AsyncIterable<T>;
  /** The wait, in ms, before connecting again after `error`, the `failures`-th in a row; throw (it, or another) to end. */
  retry(error: unknown, failures: number): number;
};

/**
 * Items of connection after connection, until `signal` aborts (the iteration rejects with its reason),
 * the consumer breaks, or `retry` throws. `start` is given the stream's own signal, aborted when the
 * iteration ends however it ends: the requests made with it (the sockets, the REST reads) stop with it.
 *
 * @example
 * ```ts
 * yield* reconnecting(options.signal, (signal) => ({
 *   connect: (ok) => feedOf(signal, ok),
 *   retry: (error, failures) => reconnectDelay(failures, error),
 * }));
 * ```
 * @internal
 */
export async function* reconnecting<T>(signal: AbortSignal | undefined, start: (signal: AbortSignal) => Reconnect<T>): AsyncGenerator<T, void, undefined> {
  // A controller of its own tied to the caller's signal by a listener: AbortSignal.any is not in Safari before 17.4.
  const stop = new AbortController();
  const onAbort = (): void => stop.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  let failures = 0;
  try {
    stop.signal.throwIfAborted();
    const { connect, retry } = start(stop.signal);
    for (;;) {
      try {
        yield* connect(() => (failures = 0));
      } catch (error) {
        stop.signal.throwIfAborted();
        await sleep(retry(error, ++failures), stop.signal);
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    stop.abort();
  }
}
