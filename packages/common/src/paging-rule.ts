/**
 * What may end a walk, as a listing's `x-pagination.ends` names it: a page shorter than `count`, an empty
 * page, a `null` body, a cursor that is zero, `null` or empty, a next start that does not advance, a
 * cursor seen before. `pnpm gen` refuses any other name.
 *
 * @example
 * ```ts
 * PAGING_ENDS.includes('short-page'); // true
 * ```
 */
export const PAGING_ENDS = ['short-page', 'empty-page', 'null-body', 'zero-cursor', 'null-cursor', 'empty-cursor', 'not-advancing', 'repeated-cursor'] as const;

/** One of {@link PAGING_ENDS}. */
export type PagingEnd = (typeof PAGING_ENDS)[number];

/**
 * How a response's cursor is read and sent back as `start`: a u64, an opaque string, or u8 bytes (an
 * array, or its hex) sent as lowercase hex. `pnpm gen` refuses any other encoding.
 *
 * @example
 * ```ts
 * PAGING_ENCODINGS.includes('u8-bytes-or-hex'); // true
 * ```
 */
export const PAGING_ENCODINGS = ['u64', 'string', 'u8-bytes-or-hex'] as const;

/** One of {@link PAGING_ENCODINGS}. */
export type PagingEncoding = (typeof PAGING_ENCODINGS)[number];

/**
 * The paging contract of one listing operation: an entry of the `paging` table that `pnpm gen` emits
 * from the spec's `x-pagination` extensions (the generated table is checked against this type).
 * Pointers are JSON Pointer segments.
 *
 * @example
 * ```ts
 * import { paging, type PagingRule } from '@x/common';
 * const rule: PagingRule = paging.listTransactionsV2; // next start: the last item's header.sequence_number + 1
 * ```
 */
export type PagingRule = {
  /** Where the page's items are. */
  readonly items: readonly string[];
  /**
   * Where the next `start` comes from: a field of the last item plus `add`, a cursor of the response body,
   * or a response header (`name`; v3's `x-supra-cursor`).
   */
  readonly next:
    | { readonly from: 'last-item'; readonly pointer: readonly string[]; readonly encoding: 'u64'; readonly add: number }
    | { readonly from: 'response'; readonly pointer: readonly string[]; readonly encoding: PagingEncoding }
    | { readonly from: 'header'; readonly name: string; readonly encoding: 'u64' | 'string' };
  /** What ends a walk. */
  readonly ends: readonly PagingEnd[];
  /** Page k starts at `start + k * count` while sequence numbers are contiguous. */
  readonly predictable: boolean;
  /** Without `start` the page is the most recent `count` items, newest first. */
  readonly newestFirstWithoutStart: boolean;
  /**
   * The boolean query parameter that orders the pages (v3's `ascending`: true ascending, false or absent
   * descending); none: the order is the listing's own.
   */
  readonly order?: string;
  /** The query parameter a page starts at, when it is not `start` (v3 automated transactions: `cursor`). */
  readonly start?: string;
  /** The query parameter of a page's size, when it is not `count` (v3 events: `limit`). */
  readonly size?: string;
  /**
   * The query parameters a walk takes from its caller and sends on every page (v3's `type`, the events'
   * heights): those that are not the page's own (start, size, order, or a parameter the start excludes).
   */
  readonly filters?: readonly string[];
};

