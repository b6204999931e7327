/** The convenience client's types: its options and the client itself. */
import type { TransportOptions } from '@x/client-core';
import type { NodeV1Api, NodeV2Api, NodeVersionApis } from './generated/actions.js';
import type { Caller } from './types.js';
import type { NodeOptions } from './transports.js';
import type { FinalTransaction, WaitOptions } from './wait.js';
import type { WatchBlocksOptions } from './watch-blocks.js';
import type { WatchEventsOptions, WatchedEvent } from './watch-events.js';
import type { BlockHeaderInfo, BlockV4 } from '@x/node-types';

export type { NodeV1Api, NodeV2Api };
export type { Caller, CursorPage, ItemOf, ListCursor, ListOptions, ResponseBody, U64Input, WalkOrder } from './types.js';

/** Options of {@link createNodeClient}: one base URL or several, and what the transports take. */
// An interface, not an alias: a type error then names `NodeClientOptions`, not client-core's `TransportOptions`.
export interface NodeClientOptions extends TransportOptions, NodeOptions {
  /**
   * The transport of every call, instead of `baseUrl` and the transport options: `http({ ... })` for one
   * node, `fallback([http(a), http(b)], { ... })` for several, or any `Caller`.
   */
  transport?: Caller | undefined;
}

/** The node client: each version's operations and walks, bound to one transport. */
export type NodeClient = NodeVersionApis & {
  /** The transport the client's calls go through: pass it to any action (`getAccountV2(node.transport, '0x1')`). */
  readonly transport: Caller;
  /** The node base URLs as the client uses them (normalised, no trailing slash), in order of preference, e.g. for cache keys. */
  readonly baseUrls: readonly string[];
  /**
   * Polls the transaction `hash` (v3) until it is final and answers it, or rejects with
   * `TransactionWaitTimeoutError` past `timeoutMs` (see {@link waitForTransaction}).
   */
  waitForTransaction(hash: string, options?: WaitOptions): Promise<FinalTransaction>;
  /**
   * Every block as the node commits it, each height once and in order (see {@link watchBlocks}); the
   * client's `headers` and `chainId` apply. Its code is loaded on first use.
   */
  watchBlocks(options?: WatchBlocksOptions & { headersOnly?: false | undefined }): AsyncIterable<BlockV4>;
  watchBlocks(options: WatchBlocksOptions & { headersOnly: true }): AsyncIterable<BlockHeaderInfo>;
  /** Every event of the Move type `eventType` as its block is committed, each once and in order (see {@link watchEvents}); loaded on first use. */
  watchEvents(eventType: string, options?: WatchEventsOptions): AsyncIterable<WatchedEvent>;
};
