/**
 * What the `@x` packages share, with no dependencies: the operation table of each service generated
 * from its spec (one entry per operation: method, path, parameters and their locations, request body,
 * paging rule, deprecation), the route table and paging rules read from it, the one u64 reader and address
 * normaliser, and the validation issue and validator types. The clients, the validators and the stubs
 * import these from here; most users never import this package themselves.
 *
 * @example
 * ```ts
 * import { canonicalAddress, getAccountV3, matchRoute, paging, readU64 } from '@x/common';
 * getAccountV3.path;                                                   // '/rpc/v3/accounts/{address}'
 * matchRoute('/rpc/v2/accounts/0x1/transactions')?.route.operationId; // 'listTransactionsV2'
 * paging.listTransactionsV2.predictable;                               // true
 * canonicalAddress('0x0001');                                          // '0x1'
 * readU64('007');                                                      // 7n
 * ```
 * @packageDocumentation
 * @module @x/common
 */
export { canonicalAddress } from './address.js';
export * from './generated/node-rpc.js';
export * from './generated/price-history.js';
export { operationTables, paging, routes, type OperationTable, type PagedOperationId, type PagingTable, type Route, type RouteOperationId, type RouteService } from './operations.js';
export { matchRoute, pathSegments, type MatchRouteOptions, type RouteMatch } from './match-route.js';
export { PAGING_ENCODINGS, PAGING_ENDS, type PagingEncoding, type PagingEnd, type PagingRule } from './paging-rule.js';
export { readU64, U64_MAX } from './u64.js';
export { boolean, integer, isWellFormed, list, oneOf, show, text, u64, type Bad, type ParamCheck } from './param-checks.js';
export type { ResponseValidator, ValidationIssue } from './validation.js';
