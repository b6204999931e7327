/**
 * `watchBlocks`: every block as it is committed, each height exactly once and in order, from the node's
 * WebSocket (`/rpc/v4/ws`) with REST (`getBlockByHeightV4`) filling whatever the stream did not bring: the
 * past from `fromHeight`, and the gap after every (re)connect. Loaded on first use by `node.watchBlocks`.
 */
import {
  ChainIdMismatchError,
  checkU64,
  type ClientError,
  HttpError,
  InvalidArgumentError,
  milliseconds,
  openSocket,
  reconnectDelay,
  ResponseParseError,
  ResponseShapeError,
  sleep,
  socketUrl,
  type ReconnectOptions,
  type Socket,
  type WebSocketConstructor,
} from '@x/client-core';
import type { BlockHeaderInfo, BlockV4 } from '@x/node-types';
import { getBlockByHeightV4, getLatestBlockV3 } from './generated/actions.js';
import type { Caller } from './types.js';

/** What a watch tells as it goes: the stream opened, it failed and will reconnect, it polls instead, a slow consumer's overflow. */
export type WatchEvent =
  | { readonly type: 'open'; readonly url: string }
  | { readonly type: 'reconnect'; readonly url: string; readonly error: ClientError; readonly delayMs: number }
  | { readonly type: 'polling'; readonly error: ClientError }
  | { readonly type: 'overflow'; readonly bufferedBlocks: number };

/** Options of {@link watchBlocks}. */
export type WatchBlocksOptions = {
  /** The first height to deliver: the past is read by REST, then the stream goes on from it (default: the next block made). */
  fromHeight?: number | bigint | string | undefined;
  /** Blocks with their transactions (default false). */
  includeTransactions?: boolean | undefined;
  /** Ends the watch: the socket closes and every request in flight is aborted. */
  signal?: AbortSignal | undefined;
  /** How often to poll REST where the WebSocket is disabled (503) or cannot open, in ms (default 1 000). */
  pollIntervalMs?: number | undefined;
  /** The WebSocket URL (default: each of the client's nodes' `ws(s)://<host>/rpc/v4/ws`, in order). */
  webSocketUrl?: string | undefined;
  /** Headers of the upgrade (`Authorization: Bearer <token>` where the node asks for one); browsers send none. */
  headers?: Record<string, string> | undefined;
  /** The chain the nodes must be of: a stream whose upgrade names another (`x-supra-chain-id`) is refused. */
  chainId?: number | undefined;
  /** Blocks kept for a consumer that is behind (default 256): past it the socket closes, and REST catches up once it reads again. */
  maxBufferedBlocks?: number | undefined;
  /** REST reads in flight during a catch-up (default 16), delivered in order. */
  concurrency?: number | undefined;
  /** Told of the stream's opens, reconnects, polling and overflows. */
  onEvent?: ((event: WatchEvent) => void) | undefined;
  /** The WebSocket class (default: the runtime's, else the `ws` package's). */
  WebSocket?: WebSocketConstructor | undefined;
  /** The largest frame taken, in bytes (default 4 MiB). */
  maxFrameBytes?: number | undefined;
  /** The reconnects' backoff (default: from 250 ms, doubling, at most 10 s; a `Retry-After` in full). */
  reconnect?: ReconnectOptions | undefined;
};

/** How long polling lasts before the stream is tried again, in ms. */
const RETRY_STREAM_MS = 30_000;

/** `ws(s)://host/rpc/v4/ws` of a node's base URL. */
const streamUrl = (base: string): string => `${base.replace(/^http/, 'ws').replace(/\/rpc\/v\d+$/, '')}/rpc/v4/ws`;

type Block = BlockV4 | BlockHeaderInfo;
const headerOf = (block: Block): BlockHeaderInfo => ('header' in block ? block.header : block);

/**
 * Every block from `fromHeight` (or the next one made) as the node commits it: an async iterable that
 * never ends by itself (`break`, or abort `signal`). Each height comes exactly once and in order: the
 * node's WebSocket pushes new blocks, and REST reads what it did not (the past, the gap of a reconnect,
 * what a slow consumer's overflow dropped), several at a time. A stream that fails reconnects with
 * backoff (a 429 waits its `Retry-After`), moving on to the client's next node; one that is disabled
 * (503) or cannot open is polled instead (`onEvent` says `polling`). `headersOnly` yields headers.
 *
 * @example
 * ```ts
 * for await (const block of watchBlocks(node.transport, { fromHeight: 100 })) {
 *   console.log(block.header.height);
 * }
 * ```
 */
export function watchBlocks(client: Caller, options?: WatchBlocksOptions & { headersOnly?: false | undefined }): AsyncIterable<BlockV4>;
export function watchBlocks(client: Caller, options: WatchBlocksOptions & { headersOnly: true }): AsyncIterable<BlockHeaderInfo>;
export function watchBlocks(client: Caller, options: WatchBlocksOptions & { headersOnly?: boolean | undefined } = {}): AsyncIterable<Block> {
  const from = options.fromHeight === undefined ? undefined : checkU64('fromHeight', options.fromHeight);
  if (from !== undefined && BigInt(from) > BigInt(Number.MAX_SAFE_INTEGER)) throw new InvalidArgumentError('fromHeight', `must be at most ${Number.MAX_SAFE_INTEGER}, got ${from}`);
  const pollIntervalMs = milliseconds('pollIntervalMs', options.pollIntervalMs ?? 1_000, 1);
  const maxBuffered = Math.max(1, options.maxBufferedBlocks ?? 256);
  const concurrency = Math.max(1, options.concurrency ?? 16);
  const urls = options.webSocketUrl === undefined ? client.baseUrls.map(streamUrl) : [socketUrl('webSocketUrl', options.webSocketUrl)];
  const headersOnly = options.headersOnly === true;
  const withTransactions = options.includeTransactions === true;
  const tell = (event: WatchEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // A hook's failure is its own.
    }
  };
  return {
    async *[Symbol.asyncIterator]() {
      const stop = new AbortController();
      const signal = options.signal === undefined ? stop.signal : AbortSignal.any([stop.signal, options.signal]);
      signal.throwIfAborted();
      let next = from === undefined ? undefined : Number(from);
      let lastHash: string | undefined;
      /** REST's block at `height`, as the watch yields it. */
      const read = async (height: number): Promise<Block> => {
        // A signal of its own per read: the reads in flight would otherwise each listen on one signal.
        const block = await getBlockByHeightV4(client, height, { with_finalized_transactions: withTransactions, signal: AbortSignal.any([signal]) });
        return headersOnly ? block.header : block;
      };
      /** The blocks from `next` to `to` from REST, `concurrency` in flight, in order. */
      async function* fill(to: number): AsyncGenerator<Block> {
        const start = next as number;
        const inFlight: Promise<Block>[] = [];
        for (let h = start, queued = start; h <= to; h++) {
          while (queued <= to && queued - h < concurrency) inFlight.push(read(queued++));
          // Each read is awaited in order; the ones behind it are caught meanwhile, so none rejects unheard.
          for (const p of inFlight) p.catch(() => undefined);
          yield await (inFlight.shift() as Promise<Block>);
        }
      }
      /** Delivers `block` if it is `next` (a repeat is dropped); a block that does not chain onto the last is refused. */
      const take = (block: Block): boolean => {
        const header = headerOf(block);
        if (next !== undefined && header.height < next) return false;
        if (lastHash !== undefined && next === header.height && header.parent !== lastHash) {
          // Not the chain the watch has followed (a fork, or a node that lies): this node's stream is left.
          throw new StreamFailure({ operationId: 'supra_subscription', path: '/header/parent', expected: `the parent ${lastHash} (the block before it), got ${header.parent}` });
        }
        next = header.height + 1;
        lastHash = header.hash;
        return true;
      };
      const latest = async (): Promise<number> => (await getLatestBlockV3(client, { signal })).header.height;

      let node = 0;
      let failures = 0;
      let pollUntil = 0;
      try {
        for (;;) {
          if (Date.now() < pollUntil) {
            // Polling: REST up to the latest, then a rest.
            const top = await latest();
            next ??= top;
            for await (const block of fill(top)) if (take(block)) yield block;
            await sleep(pollIntervalMs, signal);
            continue;
          }
          const url = urls[node % urls.length] as string;
          const queue: Block[] = [];
          let wake: (() => void) | undefined;
          let failed: ClientError | undefined;
          let overflowed = false;
          const fail = (error: ClientError): void => {
            failed ??= error;
            wake?.();
          };
          let socket: Socket | undefined;
          try {
            socket = await openSocket({
              url,
              headers: options.headers,
              signal,
              WebSocket: options.WebSocket,
              maxFrameBytes: options.maxFrameBytes,
              onMessage: (text) => {
                const block = frame(text, url);
                if (block === undefined) return;
                if (queue.length >= maxBuffered) {
                  overflowed = true;
                  tell({ type: 'overflow', bufferedBlocks: queue.length });
                  socket?.close();
                  return;
                }
                queue.push(headersOnly ? headerOf(block) : block);
                wake?.();
              },
            });
            const sent = socket.headers?.['x-supra-chain-id'];
            if (options.chainId !== undefined && sent !== undefined && Number(sent) !== options.chainId) {
              throw new ChainIdMismatchError({ expected: options.chainId, received: sent, method: 'GET', url });
            }
            void socket.closed.then((error) => fail(error ?? (overflowed ? (undefined as never) : closedError(url))));
            socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'supra_subscribe', params: headersOnly ? ['newBlockHeaders'] : ['newBlocks', { includeTransactions: withTransactions, includeProof: false }] }));
            tell({ type: 'open', url });
            // The past (or a reconnect's gap) from REST, while the stream's blocks wait in the queue.
            if (next !== undefined) {
              const top = await latest();
              for await (const block of fill(top)) if (take(block)) yield block;
            }
            failures = 0;
            for (;;) {
              const block = queue.shift();
              if (block === undefined) {
                if (failed !== undefined || overflowed) break;
                await new Promise<void>((resolve) => (wake = resolve));
                wake = undefined;
                signal.throwIfAborted();
                continue;
              }
              const height = headerOf(block).height;
              if (next !== undefined && height > next) for await (const gap of fill(height - 1)) if (take(gap)) yield gap;
              if (take(block)) yield block;
            }
            if (overflowed && failed === undefined) continue;
            throw failed as ClientError;
          } catch (error) {
            socket?.close();
            signal.throwIfAborted();
            if (!isStreamError(error)) throw error;
            failures++;
            node++;
            if ((error instanceof HttpError && error.status === 503) || failures > urls.length * 2) {
              // Disabled or not opening on any node: REST polling for a while, then the stream again.
              tell({ type: 'polling', error });
              pollUntil = Date.now() + RETRY_STREAM_MS;
              failures = 0;
              continue;
            }
            const delayMs = reconnectDelay(failures, error, options.reconnect);
            tell({ type: 'reconnect', url, error, delayMs });
            await sleep(delayMs, signal);
          }
        }
      } finally {
        stop.abort();
      }
    },
  };
}

/** A failure of the stream itself (recovered by a reconnect), not of a REST read. */
const isStreamError = (error: unknown): error is ClientError =>
  error instanceof StreamFailure || (error as { method?: unknown }).method === 'GET' && typeof (error as { url?: unknown }).url === 'string' && /^wss?:|supra_subscription/.test((error as { url: string }).url);

/** A stream that closed without saying why. */
class StreamFailure extends ResponseShapeError {}
const closedError = (url: string): ClientError => new StreamFailure({ operationId: `supra_subscription (${url})`, path: '', expected: 'the stream to stay open' });

/** A notification's block, `undefined` for the subscription's answer; a frame that is neither closes the stream. */
function frame(text: string, url: string): Block | undefined {
  let message: { result?: unknown; error?: unknown; params?: { result?: unknown } };
  try {
    message = JSON.parse(text) as typeof message;
  } catch (cause) {
    throw new ResponseParseError({ status: 101, method: 'GET', url, bodySnippet: text.slice(0, 200), cause });
  }
  if (typeof message?.result === 'string') return undefined;
  const block = message?.params?.result as Block | undefined;
  const height = block === undefined || block === null ? undefined : (headerOf(block) as { height?: unknown } | undefined)?.height;
  if (typeof height !== 'number' || !Number.isSafeInteger(height) || height < 0) {
    throw new StreamFailure({ operationId: `supra_subscription (${url})`, path: '/params/result', expected: 'a block with a u64 height' });
  }
  return block;
}
