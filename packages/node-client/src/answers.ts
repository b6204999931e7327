/**
 * What an operation does with its answer, generated into its action (`answering(...)` in the generated
 * actions): a listing's page metadata, a header cursor's page, an answer checked against the request.
 * Each reading is its own function, so an action bundles only the one it uses.
 */
import { type OperationSpec } from '@x/client-core';
import { checkEcho } from '@x/client-core/internal';
import { withInfo } from './page-info.js';

/** How an operation reads its parsed answer: with its headers and the path parameters sent. */
type Reading = (id: string, op: OperationSpec, body: unknown, headers: Headers, path: Readonly<Record<string, unknown>> | undefined) => unknown;

/**
 * The operation `op` (a table entry) with its own reading of its answer, which the transport runs inside
 * the attempt. Made once per operation, at module level.
 *
 * @example
 * ```ts
 * const listCoinTransactionsV3Op = answering('listCoinTransactionsV3', op.listCoinTransactionsV3, headerPage);
 * ```
 */
export const answering = (id: string, op: OperationSpec, read: Reading): OperationSpec => ({ ...op, answer: (body, headers, path) => read(id, op, body, headers, path) });

/** A listing's page as the node sent it, with its metadata (`pageInfo`): the oldest block, the chain id. */
export const listingPage: Reading = (_id, _op, body, headers) => withInfo(body, headers);

/**
 * The page of a listing whose next cursor is a response header (v3's `x-supra-cursor`): its items (at the
 * paging rule's pointer) with that header, `undefined` when empty or absent (no next page), and the page
 * metadata. A body without the items answers `undefined` items, which a walk reports as a shape error.
 */
export const headerPage: Reading = (_id, op, body, headers) => {
  const paging = op.paging!;
  let items = body;
  for (const key of paging.items) items = typeof items === 'object' && items !== null ? (items as Record<string, unknown>)[key] : undefined;
  return withInfo({ items, cursor: headers.get((paging.next as { name: string }).name) || undefined }, headers);
};

/** An answer that must repeat what was asked (the spec's `x-echo`: a transaction's hash, a block's height). */
export const echoed: Reading = (id, op, body, _headers, path) => {
  checkEcho(id, op.echo!, body, path);
  return body;
};
