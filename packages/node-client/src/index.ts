/**
 * Typed client for a Supra node's RPC service: its account operations (v3; v1 and v2 deprecated) and the
 * reads beyond accounts (transactions by hash, blocks, events, view functions, tables, gas price, chain id).
 *
 * @example
 * ```ts
 * import { createNodeClient, HttpError } from '@x/node-client';
 * const node = createNodeClient();
 * const account = await node.v2.getAccount('0x1');
 * ```
 * @packageDocumentation
 * @module @x/node-client
 */
export { createNodeClient } from './client.js';
export { http } from './transports.js';
export type { HttpOptions, NodeOptions } from './transports.js';
export { fallback, type FallbackOptions } from './fallback.js';
export * from './generated/actions.js';
export * from './generated/walks.js';
export type { Caller, CursorPage, ItemOf } from './api.js';
export type { ListingSpec } from './walk.js';
export { NETWORKS, NODE_URLS } from './presets.js';
export type { NodeClient, NodeClientOptions, NodeV1Api, NodeV2Api, ListOptions, ListCursor, ResponseBody, U64Input, WalkOrder } from './api.js';
export { nodeErrorMessage } from './error-message.js';
export { supraRetryIn } from './retry-in.js';
export type { IterateOptions, Walk, WalkPage } from './walk.js';
export { pageInfo, type PageInfo } from './page-info.js';
export type { RangeWalkOptions } from './walk-range.js';
export { waitForTransaction, type FinalTransaction, type WaitOptions } from './wait.js';
export { watchBlocks, type WatchBlocksOptions, type WatchEvent } from './watch-blocks.js';
export { watchEvents, type WatchEventsOptions, type WatchedEvent } from './watch-events.js';
export type { ViewFunctionName, ViewFunctions, ViewRequestOf, ViewResultOf } from './view-functions.js';
export type { AccountResourceData, CoinInfoData, CoinStoreData, EventHandleData, MoveResourceOf, ResourceData } from './resources.js';
export {
  ChainIdMismatchError,
  HistoryPrunedError,
  TransactionWaitTimeoutError,
  ClientError,
  InvalidArgumentError,
  HttpError,
  NetworkError,
  TimeoutError,
  ResponseParseError,
  ResponseValidationError,
  ResponseShapeError,
  ResponseTooLargeError,
  NodesFailedError,
  explain,
  isNotFound,
  isUnauthorized,
} from '@x/client-core';
export type { AnyClientError, ErrorCode, NodeAttempt, ValidationIssue } from '@x/client-core';
export type { CallOptions, ResponseValidator } from '@x/client-core';
export type { AttemptInfo, RateLimitOptions, RetryOptions } from '@x/client-core';
export { NODE_RPC_BASE_URL as DEFAULT_BASE_URL } from '@x/common';
export type { NodeRpcOperationId as OperationId } from '@x/common';
export type * from '@x/node-types';
