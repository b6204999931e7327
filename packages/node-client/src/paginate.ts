import { InvalidArgumentError, bytesToHex, checkInteger, type CallOptions } from '@x/client-core';

/** Options of the iterators (`node.v2.transactions(...)` and friends). */
export type IterateOptions = CallOptions & {
  /** Items per request; at most the operation's maximum (100 on transaction listings). */
  pageSize?: number;
  /** Stop after this many items. */
  limit?: number;
};

/** One page as an iterator sees it: its items and where the next page starts, if anywhere. */
export type Page<T, C> = { items: readonly T[]; next: C | undefined };

/**
 * Walks pages until one is empty, a page has no next cursor, or the cursor fails to advance, so no
 * iteration can loop forever: a cursor seen before (a cycle of any length) ends the walk, and so does
 * one `advanced(next, previous)` rejects. `fetchPage(start, count)` returns one page; `first()` gives
 * the first start. Both it and the options are read on the first `next()`, so that an iterator's bad
 * argument is a rejection of the loop, as from an `async *` method, and the iterators can return this
 * generator itself instead of delegating to it with `yield*` (one generator level per item, not two).
 *
 * @example
 * ```ts
 * const items = paginate(async (start = 0, count) => ({ items: rows.slice(start, start + count), next: start + count }), () => 0, { pageSize: 10 }, 100);
 * for await (const row of items) console.log(row);
 * ```
 */
export async function* paginate<T, C>(
  fetchPage: (start: C | undefined, count: number) => Promise<Page<T, C>>,
  first: () => C | undefined,
  options: IterateOptions,
  maxPageSize: number,
  advanced: (next: C, previous: C) => boolean = () => true,
): AsyncGenerator<T, void, undefined> {
  let start = first();
  const pageSize = checkInteger('pageSize', options.pageSize ?? maxPageSize, 1, maxPageSize);
  const limit = options.limit === undefined ? Infinity : checkInteger('limit', options.limit, 0, Number.MAX_SAFE_INTEGER);
  const seen = new Set<C>();
  let yielded = 0;
  while (yielded < limit) {
    options.signal?.throwIfAborted();
    if (start !== undefined) seen.add(start);
    const count = Math.min(pageSize, limit - yielded);
    const page = await fetchPage(start, count);
    for (const item of page.items) {
      options.signal?.throwIfAborted();
      yield item;
      if (++yielded >= limit) return;
    }
    if (page.items.length === 0 || page.next === undefined || seen.has(page.next)) return;
    if (start !== undefined && !advanced(page.next, start)) return;
    start = page.next;
  }
}

/** A v1 u8-array cursor as the lowercase hex the server takes back; other values go to the spec check. */
export function listStart(v: 'V1' | 'V2', start: unknown): unknown {
  if (v !== 'V1' || !Array.isArray(start)) return start;
  if (!start.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    throw new InvalidArgumentError('start', 'a v1 cursor array must hold u8 integers (0 to 255)');
  }
  return bytesToHex(start as number[]);
}
