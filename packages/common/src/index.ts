/**
 * What the `@x` packages share, with no dependencies: the route table and the paging rules generated
 * from the specs, the one u64 reader and address normaliser, and the validation issue and validator
 * types. The clients, the validators and the stubs import these from here; most users never import
 * this package themselves.
 *
 * @example
 * ```ts
 * import { canonicalAddress, matchRoute, paging, readU64 } from '@x/common';
 * matchRoute('/rpc/v2/accounts/0x1/transactions')?.route.operationId; // 'listTransactionsV2'
 * paging.listTransactionsV2.predictable;                               // true
 * canonicalAddress('0x0001');                                          // '0x1'
 * readU64('007');                                                      // 7n
 * ```
 * @packageDocumentation
 * @module @x/common
 */
export { canonicalAddress } from './address.js';
export { paging, type PagedOperationId } from './generated/paging.js';
export { routes, type Route, type RouteOperationId, type RouteService } from './generated/routes.js';
export { matchRoute, pathSegments, type MatchRouteOptions, type RouteMatch } from './match-route.js';
export { PAGING_ENCODINGS, PAGING_ENDS, type PagingEncoding, type PagingEnd, type PagingRule } from './paging-rule.js';
export { readU64, U64_MAX } from './u64.js';
export type { ResponseValidator, ValidationIssue } from './validation.js';
