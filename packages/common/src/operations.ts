// What is read from the generated operation tables, rather than generated again: the route table
// (`matchRoute`'s, the stubs' and x-validate's) and the paging table (the stubs', x-validate's). Each
// fact of an operation is written once, in its service's table (src/generated/<service>.ts).
import { nodeRpcOperations } from './generated/node-rpc.js';
import { priceHistoryOperations } from './generated/price-history.js';
import type { PagingRule } from './paging-rule.js';

/**
 * The operation table of each service, by the service's name (its spec's file name): the generated
 * `nodeRpcOperations` and `priceHistoryOperations`.
 *
 * @example
 * ```ts
 * import { operationTables } from '@x/common';
 * operationTables['price-history'].getLatest.path; // '/latest'
 * ```
 */
export const operationTables: { readonly 'node-rpc': typeof nodeRpcOperations; readonly 'price-history': typeof priceHistoryOperations } = { 'node-rpc': nodeRpcOperations, 'price-history': priceHistoryOperations };

/**
 * Every operation of both services by id, as one type: an operationId names one operation of the two
 * specs (`pnpm gen` refuses an id both have).
 *
 * @example
 * ```ts
 * import type { OperationTable } from '@x/common';
 * type Method = OperationTable['getHistory']['method']; // 'GET'
 * ```
 */
export type OperationTable = (typeof operationTables)['node-rpc'] & (typeof operationTables)['price-history'];

/**
 * One operation of either spec as requests are matched to it (`matchRoute`): its id, its service, its
 * method and its path template, read from its service's operation table.
 *
 * @example
 * ```ts
 * import { routes, type Route } from '@x/common';
 * const route: Route | undefined = routes.find((r) => r.operationId === 'getLatest'); // { service: 'price-history', method: 'GET', path: '/latest', ... }
 * ```
 */
export type Route = {
  [S in keyof typeof operationTables]: {
    [Id in keyof (typeof operationTables)[S] & string]: (typeof operationTables)[S][Id] extends { readonly method: infer M; readonly path: infer P }
      ? { readonly operationId: Id; readonly service: S; readonly method: M; readonly path: P }
      : never;
  }[keyof (typeof operationTables)[S] & string];
}[keyof typeof operationTables];

/**
 * A service of the route table: `node-rpc` or `price-history`.
 *
 * @example
 * ```ts
 * import type { RouteService } from '@x/common';
 * const service: RouteService = 'price-history';
 * ```
 */
export type RouteService = Route['service'];

/**
 * The id of an operation of either spec.
 *
 * @example
 * ```ts
 * import type { RouteOperationId } from '@x/common';
 * const id: RouteOperationId = 'listTransactionsV2';
 * ```
 */
export type RouteOperationId = Route['operationId'];

/**
 * Every operation of both specs, in spec order (the node RPC's, then the price service's): the path
 * templates requests are matched against (`matchRoute`), read from the operation tables.
 *
 * @example
 * ```ts
 * import { routes } from '@x/common';
 * routes.filter((r) => r.service === 'price-history').map((r) => r.path); // ['/history', '/latest']
 * ```
 */
export const routes: readonly Route[] = Object.entries(operationTables).flatMap(([service, table]) =>
  Object.entries(table).map(([operationId, op]) => ({ operationId, service, method: op.method, path: op.path }) as Route),
);

/**
 * The paging rule of every listing by id: the `paging` of each table entry that has one.
 *
 * @example
 * ```ts
 * import type { PagingTable } from '@x/common';
 * type Next = PagingTable['listTransactionsV2']['next']['from']; // 'last-item'
 * ```
 */
export type PagingTable = {
  readonly [Id in keyof OperationTable as OperationTable[Id] extends { readonly paging: PagingRule } ? Id : never]: OperationTable[Id] extends { readonly paging: infer R } ? R : never;
};

/**
 * The id of a listing: an operation whose table entry has a paging rule.
 *
 * @example
 * ```ts
 * import type { PagedOperationId } from '@x/common';
 * const id: PagedOperationId = 'listTransactionsV2';
 * ```
 */
export type PagedOperationId = keyof PagingTable;

/**
 * The paging contract of every listing operation, read from the operation tables (each entry's
 * `paging`, from its operation's `x-pagination` extension): `items` and `next.pointer` are JSON Pointer
 * segments; `ends` lists what ends a walk; `predictable` says page k starts at `start + k * count` while
 * sequence numbers are contiguous.
 *
 * @example
 * ```ts
 * import { paging } from '@x/common';
 * paging.listTransactionsV2.predictable; // true
 * ```
 */
export const paging: PagingTable = Object.fromEntries(
  Object.values(operationTables).flatMap((table) => Object.entries(table).flatMap(([id, op]) => ('paging' in op ? [[id, op.paging]] : []))),
) as PagingTable;
