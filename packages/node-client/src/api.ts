/**
 * The node client's public types: its options, each version's operations and walks, and the client.
 * A module of its own, so that the client and its iterators both import it and neither the other.
 */
import type { Client } from 'openapi-fetch';
import type { operations as Operations, paths } from '@x/node-types';
import type { CallOptions, TransportOptions } from '@x/client-core';
import type { OperationId } from './generated/operations.js';
import type { IterateOptions } from './walk.js';
import type { MoveResourceOf } from './resources.js';

/**
 * Options of {@link createNodeClient}.
 */
export type NodeClientOptions = TransportOptions;

/** The success body of an operation, as the spec types it. */
export type ResponseBody<Id extends OperationId> = Operations[Id]['responses'][200]['content']['application/json'];

/** Paging options of the list operations. */
export type ListOptions<Start> = CallOptions & {
  /** Maximum number of items (default 20 on the server; at most 100 on transaction listings). */
  count?: number;
  /** Where the page starts; see each operation. */
  start?: Start;
};

/** A u64 value: a safe integer, a bigint or a decimal string. */
export type U64Input = number | bigint | string;

/**
 * The `start` of a module or resource listing: the previous page's cursor. On v1 that cursor is an
 * array of u8, passed as it came (sent as lowercase hex) or already as hex text; on v2 a string.
 */
export type ListCursor<V extends 'V1' | 'V2'> = V extends 'V1' ? string | readonly number[] : string;

export type AccountApi<V extends 'V1' | 'V2'> = {
  /** The account's sequence number and authentication key. */
  getAccount(address: string, options?: CallOptions): Promise<ResponseBody<`getAccount${V}`>>;
  /** Finalized transactions sent by the account: ascending from `start` (a sequence number), else the most recent, descending. */
  listTransactions(address: string, options?: ListOptions<U64Input>): Promise<ResponseBody<`listTransactions${V}`>>;
  /** Finalized coin transactions sent and received: ascending from `start` (a cursor), else the most recent, descending. */
  listCoinTransactions(address: string, options?: ListOptions<U64Input>): Promise<ResponseBody<`listCoinTransactions${V}`>>;
  /** Modules published by the account; `start` is the cursor of the previous page. */
  listModules(address: string, options?: ListOptions<ListCursor<V>>): Promise<ResponseBody<`listModules${V}`>>;
  /** One module by name. */
  getModule(address: string, moduleName: string, options?: CallOptions): Promise<ResponseBody<`getModule${V}`>>;
  /** Resources of the account; `start` is the cursor of the previous page. */
  listResources(address: string, options?: ListOptions<ListCursor<V>>): Promise<ResponseBody<`listResources${V}`>>;
  /**
   * One resource by its Move type, e.g. `0x1::account::Account`. On v2 the well-known framework
   * resources (`0x1::coin::CoinStore<…>`, `0x1::coin::CoinInfo<…>`, `0x1::account::Account`, …) have
   * their `data` typed by the type string (`ResourceData`); any other is `Record<string, unknown>`.
   */
  getResource<T extends string>(address: string, resourceType: T, options?: CallOptions): Promise<V extends 'V2' ? MoveResourceOf<T> : ResponseBody<`getResource${V}`>>;
};

type Items<V extends 'V1' | 'V2', Id extends string> = ResponseBody<`${Id}${V}` & OperationId>;
type V1List = Exclude<ResponseBody<'listModulesV1'>, null>;
type Transaction<V extends 'V1' | 'V2'> = Items<V, 'listTransactions'>['record'][number];

/** Where an ascending walk starts, or newest first (transactions only: their page starts are predictable). */
export type WalkOrder<Start> = { order?: 'asc'; start?: Start } | { order: 'desc'; start?: never };

/** The iterators of a version: every item of a listing, page after page. */
export type AccountIterators<V extends 'V1' | 'V2'> = {
  /**
   * Transactions sent by the account, ascending by sequence number from `start` (default 0), or newest
   * first with `order: 'desc'` (down to sequence number 0). `concurrency` fetches pages ahead at their
   * predicted starts.
   */
  transactions(address: string, options?: IterateOptions & WalkOrder<U64Input>): AsyncGenerator<Transaction<V>, void, undefined>;
  /**
   * Coin transactions sent and received, ascending from the cursor `start` (default 0), following each
   * page's cursor. There is no documented way back past the newest page, so no `order: 'desc'`.
   */
  coinTransactions(address: string, options?: IterateOptions & { order?: 'asc'; start?: U64Input }): AsyncGenerator<Items<V, 'listCoinTransactions'>['record'][number], void, undefined>;
  /** Every module of the account. */
  modules(address: string, options?: IterateOptions & { start?: ListCursor<V> }): AsyncGenerator<V extends 'V1' ? Extract<V1List, { Modules: unknown }>['Modules']['modules'][number] : ResponseBody<'listModulesV2'>['modules'][number], void, undefined>;
  /** Every resource of the account. */
  resources(address: string, options?: IterateOptions & { start?: ListCursor<V> }): AsyncGenerator<V extends 'V1' ? Extract<V1List, { Resources: unknown }>['Resources']['resource'][number] : ResponseBody<'listResourcesV2'>['resources'][number], void, undefined>;
};

/**
 * Version 1 account operations.
 * @deprecated The v1 API is deprecated; use `node.v2`.
 */
export type NodeV1Api = {
  /** @deprecated Use `node.v2.getAccount`. Answers `null` where v1 does. */
  getAccount: AccountApi<'V1'>['getAccount'];
  /** @deprecated Use `node.v2.listTransactions`. */
  listTransactions: AccountApi<'V1'>['listTransactions'];
  /** @deprecated Use `node.v2.listCoinTransactions`. */
  listCoinTransactions: AccountApi<'V1'>['listCoinTransactions'];
  /** @deprecated Use `node.v2.listModules`. */
  listModules: AccountApi<'V1'>['listModules'];
  /** @deprecated Use `node.v2.getModule`. Answers `null` where v1 does. */
  getModule: AccountApi<'V1'>['getModule'];
  /** @deprecated Use `node.v2.listResources`. */
  listResources: AccountApi<'V1'>['listResources'];
  /** @deprecated Use `node.v2.getResource`. Answers `null` where v1 does. */
  getResource: AccountApi<'V1'>['getResource'];
  /** @deprecated Use `node.v2.transactions`. */
  transactions: AccountIterators<'V1'>['transactions'];
  /** @deprecated Use `node.v2.coinTransactions`. */
  coinTransactions: AccountIterators<'V1'>['coinTransactions'];
  /** @deprecated Use `node.v2.modules`. */
  modules: AccountIterators<'V1'>['modules'];
  /** @deprecated Use `node.v2.resources`. */
  resources: AccountIterators<'V1'>['resources'];
};

/** Version 2 account operations. */
export type NodeV2Api = AccountApi<'V2'> & AccountIterators<'V2'>;

/** The node client: `v1` (deprecated), `v2` and the underlying openapi-fetch client. */
export type NodeClient = {
  /** @deprecated The v1 API is deprecated; use `v2`. */
  readonly v1: NodeV1Api;
  readonly v2: NodeV2Api;
  /** The underlying openapi-fetch client; add middleware with `raw.use()`. */
  readonly raw: Client<paths>;
  /** The node base URLs as the client uses them (normalised, no trailing slash), in order of preference, e.g. for cache keys. */
  readonly baseUrls: readonly string[];
};

