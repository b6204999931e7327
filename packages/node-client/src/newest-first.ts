/**
 * Newest first over a listing whose page starts are predictable (transactions by sequence number): the
 * newest page (no `start`), then windows of sequence numbers below it, each fetched ascending from its
 * first number and read backwards. One rule, for the iterators (`walk.ts`) and the infinite queries
 * (`query-pages.ts`): where a window starts, what of its page is inside it, and what a node that repeats
 * itself gets.
 */
import type { PagingRule } from '@x/common';
import { ResponseShapeError } from '@x/client-core';
import { itemKey, nextPointer, pointerText } from '@x/client-core/internal';

/**
 * The first sequence number of the window of at most `size` numbers below `end` (exclusive).
 *
 * @example
 * ```ts
 * windowStart(250n, 100); // 150n
 * windowStart(40n, 100);  // 0n
 * ```
 */
export const windowStart = (end: bigint, size: number): bigint => (end > BigInt(size) ? end - BigInt(size) : 0n);

/**
 * The lowest sequence number of the newest page, where the first window below it ends; `undefined` for
 * an empty page. A number on the page twice is a `ResponseShapeError`.
 *
 * @example
 * ```ts
 * lowestKey('listTransactionsV2', paging.listTransactionsV2, page.record); // 1200n
 * ```
 */
export function lowestKey(operationId: string, rule: PagingRule, items: readonly unknown[]): bigint | undefined {
  const keys = new Set<bigint>();
  let lowest: bigint | undefined;
  items.forEach((item, i) => {
    const key = itemKey(operationId, rule, item, at(rule, i));
    if (keys.has(key)) throw repeated(operationId, at(rule, i) + pointerText(nextPointer(rule)), 'a sequence number not already on the page');
    keys.add(key);
    if (lowest === undefined || key < lowest) lowest = key;
  });
  return lowest;
}

/**
 * The items of a window's page inside `[from, end)`, newest first: a gap in the sequence numbers neither
 * repeats nor loses an item. A page out of order, or holding a number twice, is a `ResponseShapeError`
 * (read backwards, it would yield an item again).
 *
 * @example
 * ```ts
 * windowItems('listTransactionsV2', paging.listTransactionsV2, page.record, 100n, 200n); // 199 ... 100
 * ```
 */
export function windowItems(operationId: string, rule: PagingRule, items: readonly unknown[], from: bigint, end: bigint): unknown[] {
  const inside: unknown[] = [];
  let last = -1n;
  items.forEach((item, i) => {
    const key = itemKey(operationId, rule, item, at(rule, i));
    if (key < from || key >= end) return;
    if (key <= last) throw repeated(operationId, at(rule, i) + pointerText(nextPointer(rule)), `a sequence number above ${last}`);
    last = key;
    inside.push(item);
  });
  return inside.reverse();
}

/**
 * A node that sent an item a walk has already yielded, or out of order (which would repeat one).
 *
 * @example
 * ```ts
 * throw repeated('listTransactionsV2', '/record/3/header/sequence_number', 'a sequence number from 12');
 * ```
 */
export const repeated = (operationId: string, path: string, expected: string): ResponseShapeError =>
  new ResponseShapeError({ operationId, path, expected: `${expected}: the node sent an item the walk has already yielded, or out of order` });

const at = (rule: PagingRule, i: number): string => `${pointerText(rule.items)}/${i}`;
