/**
 * The types every action, walk and query shares: what an action takes (a `Caller`), its parameters'
 * types and its answers. A module of its own, so that the generated code and the hand-written modules
 * around it import it and none of them another.
 */
import type { operations as Operations } from '@x/node-types';
import type { CallOptions, NodeAffinity, OperationSpec } from '@x/client-core';
import type { NodeRpcOperationId as OperationId } from '@x/common';

/**
 * What every action and walk takes as its first argument: a transport, from {@link http} (one node) or
 * {@link fallback} (several nodes, a rate limit, hedging), or a client's own `transport`.
 *
 * @example
 * ```ts
 * import { getAccountV2, http } from '@x/node-client';
 * const node: Caller = http({ baseUrl: 'http://localhost:27000' });
 * const account = await getAccountV2(node, '0x1');
 * ```
 */
export type Caller = {
  /**
   * Checks `args` against the operation's parameters, sends it and answers the parsed body; a walk's
   * pages pass one `affinity` so that they come from one node while it answers.
   */
  call(operationId: string, op: OperationSpec, args: Record<string, unknown>, options?: CallOptions, affinity?: NodeAffinity): Promise<unknown>;
  /** The node base URLs as the transport uses them (normalised, no trailing slash), in order of preference. */
  readonly baseUrls: readonly string[];
};

/** The success body of an operation, as the spec types it. */
export type ResponseBody<Id extends OperationId> = Operations[Id]['responses'][200]['content']['application/json'];

/**
 * The items of a page: the array at `Pointer` (JSON Pointer segments, as the paging rule gives them) in
 * `Body`, through unions and past a `null` body.
 */
export type ItemOf<Body, Pointer extends readonly string[]> = Pointer extends readonly [infer Head extends string, ...infer Rest extends readonly string[]]
  ? ItemOf<Body extends { readonly [K in Head]: infer Value } ? Value : never, Rest>
  : Body extends readonly (infer Item)[]
    ? Item
    : never;

/** Paging options of the list operations. */
export type ListOptions<Start> = CallOptions & {
  /** Maximum number of items (default 20 on the server; at most 100 on transaction listings). */
  count?: number | undefined;
  /** Where the page starts; see each operation. */
  start?: Start | undefined;
};

/**
 * One page of a listing whose next cursor is a response header (v3's `x-supra-cursor`): the items, and
 * the cursor to pass as the next page's `start` (or `cursor`), `undefined` on the last page (the header
 * absent or empty). A bare array, as the node sends it, would lose the header.
 */
export type CursorPage<Item> = {
  readonly items: Item[];
  readonly cursor: string | undefined;
  /** The lowest block height the answering node keeps (`x-supra-oldest-block`); `undefined` when it did not say. */
  readonly oldestBlock?: bigint | undefined;
  /** The answering node's chain (`x-supra-chain-id`); `undefined` when it did not say. */
  readonly chainId?: number | undefined;
};

/** A u64 value: a safe integer, a bigint or a decimal string. */
export type U64Input = number | bigint | string;

/**
 * The `start` of a module or resource listing: the previous page's cursor. On v1 that cursor is an
 * array of u8, passed as it came (sent as lowercase hex) or already as hex text; on v2 a string.
 */
export type ListCursor<V extends 'V1' | 'V2'> = V extends 'V1' ? string | readonly number[] : string;

/** Where an ascending walk starts, or newest first (transactions only: their page starts are predictable). */
export type WalkOrder<Start> = { order?: 'asc' | undefined; start?: Start | undefined } | { order: 'desc'; start?: undefined };

