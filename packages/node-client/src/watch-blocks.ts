/**
 * `watchBlocks`: every block as it is committed, each height exactly once and in order, from the node's
 * WebSocket (`/rpc/v4/ws`) with REST (`getBlockByHeightV4`) filling whatever the stream did not bring: the
 * past from `fromHeight`, and the gap after every (re)connect. Loaded on first use by `node.watchBlocks`.
 */
import {
  ChainIdMismatchError,
  checkInteger,
  checkU64,
  ClientError,
  HttpError,
  InvalidArgumentError,
  milliseconds,
  reconnectDelay,
  ResponseParseError,
  ResponseShapeError,
  sleep,
  socketUrl,
  type AnyClientError,
  type ReconnectOptions,
  type WebSocketConstructor,
} from '@x/client-core';
import { isSocketError, MAX_RETRY_AFTER_MS, openFeed, reconnecting } from '@x/client-core/internal';
import type { BlockHeaderInfo, BlockV4 } from '@x/node-types';
import { getBlockByHeightV4, getLatestBlockV3 } from './generated/actions.js';
import type { Caller } from './types.js';

/**
 * What a watch tells as it goes: the stream opened; it (or a REST read, polling included) failed and the
 * watch goes on after `delayMs` on the next node (`url`: the stream of the node that failed); it polls
 * instead; a slow consumer's overflow.
 */
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
  /**
   * The chain the nodes must be of: each connection reads the latest block over REST from the node it
   * streams from before any pushed block is yielded, and another chain's answer (or upgrade's
   * `x-supra-chain-id`) ends the watch with `ChainIdMismatchError`.
   */
  chainId?: number | undefined;
  /** Blocks kept for a consumer that is behind (default 256): past it the socket closes, and REST catches up once it reads again. */
  maxBufferedBlocks?: number | undefined;
  /** REST reads in flight during a catch-up (default 16), delivered in order. */
  concurrency?: number | undefined;
  /** Told of the stream's opens, reconnects, polling and overflows. */
  onEvent?: ((event: WatchEvent) => void) | undefined;
  /** The WebSocket class (default: in Node the `ws` package's where installed, else the runtime's). */
  WebSocket?: WebSocketConstructor | undefined;
  /** The largest frame taken, in bytes (default 4 MiB). */
  maxFrameBytes?: number | undefined;
  /**
   * The reconnects' backoff (default: from 250 ms, doubling, at most 10 s). A node's `Retry-After` keeps
   * the watch off that node (at most 60 s), not off the others.
   */
  reconnect?: ReconnectOptions | undefined;
  /** No new block pushed for this long, in ms (a block already delivered, resent, does not count), and the connection is taken as dead: the watch reconnects (default 30 000). */
  idleTimeoutMs?: number | undefined;
  /**
   * Failures in a row (of the stream or of REST, no block taken between them) after which the watch ends
   * with the last one (default: no bound: a watch outlives any outage, telling each failure by `onEvent`).
   */
  maxFailures?: number | undefined;
};

/** How long polling lasts before the stream is tried again, in ms. */
const RETRY_STREAM_MS = 30_000;

/** `ws(s)://host/rpc/v4/ws` of a node's base URL, as a URL's `href`. */
const streamUrl = (base: string): string => new URL(`${base.replace(/^http/, 'ws').replace(/\/rpc\/v\d+$/, '')}/rpc/v4/ws`).href;

type Block = BlockV4 | BlockHeaderInfo;
const headerOf = (block: Block): BlockHeaderInfo => ('header' in block ? block.header : block);

/** One node of the watch: its stream, and its REST base where the client has it (not for a `webSocketUrl` of elsewhere). */
type Node = { readonly ws: string; readonly rest?: string | undefined };

/**
 * Every block from `fromHeight` (or the next one made) as the node commits it: an async iterable that
 * never ends by itself (`break`, or abort `signal`). Each height comes exactly once and in order: the
 * node's WebSocket pushes new blocks, and REST reads what it did not (the past, the gap of a reconnect,
 * what a slow consumer's overflow dropped), several at a time, from the node that streams. A stream or a
 * REST read that fails reconnects with backoff, moving on to the client's next node (a 429 keeps the
 * watch off that node for its `Retry-After`); a stream that is disabled (503) or cannot open is polled
 * instead (`onEvent` says `polling`). Only the caller's abort, a node of another `chainId`, bad input
 * or `maxFailures` ends it. `headersOnly` yields headers.
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
  // A u64 (any spelling of one), within what a height of this watch is: a safe integer.
  const from = options.fromHeight === undefined ? undefined : checkInteger('fromHeight', Number(checkU64('fromHeight', options.fromHeight)), 0, Number.MAX_SAFE_INTEGER);
  const pollIntervalMs = milliseconds('pollIntervalMs', options.pollIntervalMs ?? 1_000, 1);
  const idleTimeoutMs = milliseconds('idleTimeoutMs', options.idleTimeoutMs ?? 30_000, 1);
  // Infinity is the default written out (`n ?? Infinity`): no bound.
  const maxFailures = options.maxFailures === undefined || options.maxFailures === Infinity ? Infinity : checkInteger('maxFailures', options.maxFailures, 1, Number.MAX_SAFE_INTEGER);
  const maxBuffered = Math.max(1, options.maxBufferedBlocks ?? 256);
  const concurrency = Math.max(1, options.concurrency ?? 16);
  const { baseUrls } = client;
  const all: Node[] = baseUrls.map((rest) => ({ ws: streamUrl(rest), rest }));
  // A `webSocketUrl` of one of the client's nodes reads its REST there; of elsewhere, through the client.
  const own = options.webSocketUrl === undefined ? undefined : socketUrl('webSocketUrl', options.webSocketUrl);
  const nodes = own === undefined ? all : [all.find((n) => n.ws === own) ?? { ws: own }];
  const headersOnly = options.headersOnly === true;
  const withTransactions = options.includeTransactions === true;
  const tell = (event: WatchEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // A hook's failure is its own.
    }
  };
  /** `client` with its calls sent to `rest` first (`only`: to it alone), where the client has that node (one node's transport ignores it). */
  const through = (rest: string | undefined, only: boolean): Caller =>
    rest === undefined
      ? client
      : { baseUrls, call: (id, spec, args, callOptions) => client.call(id, spec, args, callOptions, { node: rest, skip: only ? new Set(baseUrls.filter((u) => u !== rest)) : undefined }) };
  return {
    [Symbol.asyncIterator]: () =>
      reconnecting<Block>(options.signal, (signal) => {
        let next = from;
        let lastHash: string | undefined;
        // A 404 of a height the watch knows exists (below a latest or a pushed block): a node behind, for now.
        const behind = new WeakSet<object>();
        /** REST's block at `height`, as the watch yields it. */
        const read = (rest: Caller, height: number): Promise<Block> =>
          // A signal of its own per read: the reads in flight would otherwise each listen on one signal (Node
          // warns past 10). AbortSignal.any is missing before Safari 17.4: there the shared signal does.
          getBlockByHeightV4(rest, height, { with_finalized_transactions: withTransactions, signal: AbortSignal.any ? AbortSignal.any([signal]) : signal }).then(
            (block) => (headersOnly ? block.header : block),
            (error: unknown) => {
              if (error instanceof HttpError && error.status === 404) behind.add(error);
              throw error;
            },
          );
        /**
         * The blocks from `next` to `to` from REST, `concurrency` in flight, in order, as `take` delivers
         * them: none while `next` is unknown (`undefined <= to` is false) or past `to`.
         */
        async function* fill(rest: Caller, to: number): AsyncGenerator<Block> {
          const inFlight: Promise<Block>[] = [];
          for (let h = next as number, queued = h; h <= to; h++) {
            while (queued <= to && queued - h < concurrency) inFlight.push(read(rest, queued++));
            // Each read is awaited in order; the ones behind it are caught meanwhile, so none rejects unheard.
            for (const p of inFlight) p.catch(() => undefined);
            const block = await (inFlight.shift() as Promise<Block>);
            if (take(block)) yield block;
          }
        }
        /** A height below `next`: a repeat, which `take` drops. */
        const old = (height: number): boolean => next !== undefined && height < next;
        /** Delivers `block` if it is `next` (a repeat is dropped); a block that does not chain onto the last is refused. */
        const take = (block: Block): boolean => {
          const { height, parent, hash } = headerOf(block);
          if (old(height)) return false;
          if (lastHash !== undefined && next === height && parent !== lastHash) {
            // Not the chain the watch has followed (a fork, or a node that lies): this node's stream is left.
            throw new ResponseShapeError({ operationId: 'supra_subscription', path: '/header/parent', expected: `${lastHash}, got ${parent}` });
          }
          next = height + 1;
          lastHash = hash;
          return true;
        };

        /**
         * One connection to a node's stream (the chain checked, the gap read over REST on that node, then
         * its pushed blocks), or, `polling`, one poll: REST up to the latest, then a rest.
         */
        async function* connection({ ws: url, rest }: Node, polling: boolean, ok: () => void): AsyncGenerator<Block> {
          /** The highest height this socket pushed that `take` will deliver. */
          let newest = -1;
          const feed = polling
            ? undefined
            : await openFeed<Block>({
                // The socket's own options (headers, WebSocket, maxFrameBytes) as the caller gave them.
                ...options,
                url,
                signal,
                maxQueued: maxBuffered,
                onOverflow: (bufferedBlocks) => tell({ type: 'overflow', bufferedBlocks }),
                // The watchdog: a connection that pushes nothing for idleTimeoutMs (half-open, a stalled node) is left.
                idleMs: idleTimeoutMs,
                // Only a new block counts: a stream stuck resending one already delivered (or pushed) is stalled.
                news: (block) => {
                  const { height } = headerOf(block);
                  if (height <= newest || old(height)) return false;
                  newest = height;
                  return true;
                },
                read: (text) => frame(text, url, headersOnly),
              });
          try {
            if (feed) {
              const sent = feed.headers?.['x-supra-chain-id'];
              if (options.chainId !== undefined && sent !== undefined && Number(sent) !== options.chainId) {
                throw new ChainIdMismatchError({ expected: options.chainId, received: sent, method: 'GET', url });
              }
              feed.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'supra_subscribe', params: headersOnly ? ['newBlockHeaders'] : ['newBlocks', { includeTransactions: withTransactions, includeProof: false }] }));
              tell({ type: 'open', url });
            }
            // The node's latest over REST (a stream's from that node alone, before any pushed block: the
            // transport checks its chain, which a 101 does not name) bounds the past, or a reconnect's gap,
            // read while the stream's blocks wait in the feed.
            const top = (await getLatestBlockV3(through(rest, !polling), { signal })).header.height;
            const reads = through(rest, false);
            if (polling) next ??= top;
            yield* fill(reads, top);
            if (!feed) {
              ok();
              return await sleep(pollIntervalMs, signal);
            }
            // After an overflow the feed ends once read: the next connection's REST reads what it dropped.
            for await (const block of feed) {
              yield* fill(reads, headerOf(block).height - 1);
              if (take(block)) {
                // The stream works once it has brought a block, not when it opened: a node that accepts then fails backs off, then is polled.
                ok();
                yield block;
              }
            }
          } finally {
            feed?.close();
          }
        }

        let node = 0;
        let pollUntil = 0;
        /** When each node's `Retry-After` lets the watch back on it (by index; absent: any time). */
        const until: (number | undefined)[] = [];
        return {
          connect: (ok) => connection(nodes[node] as Node, Date.now() < pollUntil, ok),
          retry: (error, failures) => {
            const all = error as AnyClientError | undefined;
            // Another chain (the node's own answer, or one node's of several that failed) ends the watch, as do
            // pruned history (`fromHeight` below what the nodes keep), another 4xx, bad input, a bug and maxFailures.
            const mismatch = all?.code === 'NODES_FAILED' ? (all.attempts.find((a) => a.error.code === 'CHAIN_ID_MISMATCH')?.error ?? error) : error;
            const recoverable =
              isSocketError(error) || behind.has(error as object) || (error instanceof HttpError ? error.status === 408 || error.status === 429 || error.status >= 500 : error instanceof ClientError && !(error instanceof InvalidArgumentError));
            if (mismatch instanceof ChainIdMismatchError || !recoverable || failures >= maxFailures) throw mismatch;
            const e = error as ClientError;
            const failed = node;
            const now = Date.now();
            if (e instanceof HttpError && e.retryAfterMs !== undefined) until[failed] = now + Math.min(e.retryAfterMs, MAX_RETRY_AFTER_MS);
            if (now >= pollUntil && ((isSocketError(e) && (e as HttpError).status === 503) || failures > nodes.length * 2)) {
              // Disabled or not opening on any node: REST polling for a while, then the stream again.
              tell({ type: 'polling', error: e });
              pollUntil = now + RETRY_STREAM_MS;
              node = (failed + 1) % nodes.length;
              return 0;
            }
            // The next node in order whose Retry-After has passed, else the first to wake (then wait the
            // server's time, no jitter on top).
            let wake = Infinity;
            for (let k = 1; k <= nodes.length; k++) {
              const i = (failed + k) % nodes.length;
              const at = Math.max(now, until[i] ?? 0);
              if (at < wake) [node, wake] = [i, at];
            }
            const delayMs = until[node] === undefined ? reconnectDelay(failures, undefined, options.reconnect) : wake - now;
            until[node] = undefined;
            tell({ type: 'reconnect', url: (nodes[failed] as Node).ws, error: e, delayMs });
            return delayMs;
          },
        };
      }),
  };
}

type Json = { [key: string]: Json } | undefined;

/**
 * A notification's block (its header, `headersOnly`), none for the subscription's answer; a frame that is
 * neither (not JSON, an error answer, a block without a u64 height, string `hash` and `parent`) closes the stream.
 */
function frame(text: string, url: string, headersOnly: boolean): Block[] {
  let message: Json;
  try {
    message = JSON.parse(text) as Json;
  } catch (cause) {
    throw new ResponseParseError({ status: 101, method: 'GET', url, bodySnippet: text.slice(0, 200), cause });
  }
  const bad = (path: string, expected: string): ResponseShapeError => new ResponseShapeError({ operationId: `supra_subscription (${url})`, path, expected });
  // The node refused the subscription (or said something else went wrong): its words.
  if (message?.error != null) throw new ResponseShapeError({ operationId: `supra_subscribe (${url})`, path: '/error', expected: `no error, got ${JSON.stringify(message.error).slice(0, 300)}` });
  if (message?.params === undefined) {
    if (typeof message?.result === 'string') return [];
    throw bad('/result', 'a subscription id');
  }
  const result = message.params?.result;
  if (typeof result !== 'object' || !result) throw bad('/params/result', 'a block');
  const nested = 'header' in result;
  const header = nested ? result.header : result;
  const at = `/params/result${nested ? '/header' : ''}`;
  if (!Number.isSafeInteger(header?.height) || (header?.height as unknown as number) < 0) throw bad(`${at}/height`, 'a u64');
  for (const key of ['hash', 'parent']) if (typeof header?.[key] !== 'string') throw bad(`${at}/${key}`, 'a string');
  if (nested && result.transactions != null && !Array.isArray(result.transactions)) throw bad('/params/result/transactions', 'an array');
  return [(headersOnly ? header : result) as unknown as Block];
}
