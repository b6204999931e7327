/**
 * The paging of the infinite queries: one page per query function call, and the next page's start
 * from the generated paging table, as the iterators walk it (`walk.ts`). Page params are text (a u64 in
 * decimal, a cursor as sent back, `undefined` for a listing's default page), so that pages, keys and
 * dehydrated caches stay JSON: TanStack hashes keys with `JSON.stringify`, which throws on a bigint.
 */
import { advances, checkInteger, readPage, startParam, type PageStart, type PagingRule } from '@x/client-core';
import { lowestKey, windowItems, windowStart } from './newest-first.js';
import { checkOrder } from './walk.js';

/** A page param: a u64 start in decimal, a cursor as the listing takes it back, or `undefined` for the listing's default page. */
export type PageParam = string | undefined;

/** What one infinite query walks: its operation and rule, the page size, the order, and how to fetch one page. */
export type PagedListing = {
  readonly operationId: string;
  readonly rule: PagingRule;
  /** The operation's largest `count`. */
  readonly maxPageSize: number;
  readonly pageSize: number;
  readonly order: unknown;
  readonly start: unknown;
  fetch(start: PageParam | bigint, count: number, signal: AbortSignal): Promise<unknown>;
};

/**
 * The first page param of an ascending walk: a u64 start (default 0) in decimal, a v1 byte cursor as
 * the hex the listing takes. A value the client refuses is kept as it is, so that the first page's
 * request rejects with the client's own `InvalidArgumentError` (building options never throws).
 */
export function firstParam(rule: PagingRule, start: unknown): PageParam {
  // A header cursor has no first value: without one the node starts at the newest (or oldest) item.
  if (rule.next.from === 'header' && start === undefined) return undefined;
  if (rule.next.encoding === 'u64') return u64Text(start ?? 0) as PageParam;
  try {
    return startParam(rule, start) as PageParam;
  } catch {
    return start as PageParam;
  }
}

/** A u64 as decimal text (bigint and safe integers), so `10`, `10n` and `'10'` are one key; anything else unchanged. */
export function u64Text(value: unknown): unknown {
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value)) ? String(value) : value;
}

/** Checks what the iterators check of their options, for the first page's request to reject with (never at build time). */
function checkListing(l: PagedListing): void {
  checkInteger('pageSize', l.pageSize, 1, l.maxPageSize);
  checkOrder(l.operationId, l.rule, l.order, l.start);
}

/**
 * One page. Ascending: the listing's body at `param`, read once here so that a page the walk cannot
 * follow is this query's `ResponseShapeError` rather than a throw from `getNextPageParam` (which
 * TanStack calls while rendering). Newest first: see {@link newestFirstPage}.
 */
export async function fetchPage(l: PagedListing, param: PageParam, signal: AbortSignal): Promise<unknown> {
  checkListing(l);
  if (l.order === 'desc' && l.rule.predictable) return newestFirstPage(l, param, signal);
  const body = await l.fetch(param, l.pageSize, signal);
  readPage(l.operationId, l.rule, body, l.pageSize);
  return body;
}

/** The walk's next start after `param`, or `undefined` at the end; `seen` holds the params of the pages so far. */
export function nextParam(l: PagedListing, page: unknown, param: PageParam, seen: readonly PageParam[]): PageParam {
  try {
    if (l.order === 'desc' && l.rule.predictable) return nextWindow(l, page, param);
    const { next } = readPage(l.operationId, l.rule, page, l.pageSize);
    if (next === undefined) return undefined;
    // A cursor that repeats one of the pages so far, or a u64 that does not grow, ends the walk as it ends an iterator's.
    const asStart = (p: PageParam): PageStart | undefined => (p == null ? undefined : l.rule.next.encoding === 'u64' ? BigInt(p) : p);
    return advances(l.rule, next, asStart(param), new Set(seen.map(asStart).filter((s) => s !== undefined))) ? String(next) : undefined;
  } catch {
    // The page was read by fetchPage already; a page TanStack holds from elsewhere (another page size, a
    // persisted cache) that cannot be read has no next page rather than an exception during render.
    return undefined;
  }
}

/**
 * Newest first, as `transactions(address, { order: 'desc' })` walks: the first page is the listing's
 * newest page (no `start`), as the node sends it (newest first); each param after it is the exclusive
 * upper end of a window of sequence numbers below, fetched ascending from its first number, kept to
 * the window (a gap neither repeats nor loses an item) and reversed, so every page reads newest first.
 */
async function newestFirstPage(l: PagedListing, end: PageParam, signal: AbortSignal): Promise<unknown> {
  if (end == null) {
    const body = await l.fetch(undefined, l.pageSize, signal);
    lowestKey(l.operationId, l.rule, readPage(l.operationId, l.rule, body, l.pageSize).items);
    return body;
  }
  const top = BigInt(end);
  const from = windowStart(top, l.pageSize);
  const body = await l.fetch(from, Number(top - from), signal);
  const items = readPage(l.operationId, l.rule, body, Number(top - from)).items;
  return withItems(body, l.rule.items, windowItems(l.operationId, l.rule, items, from, top));
}

/** After the newest page: the lowest sequence number on it, unless the page was short (it held every item); after a window: its first number. */
function nextWindow(l: PagedListing, page: unknown, end: PageParam): PageParam {
  let below: bigint;
  // null too: a cache that went through JSON (dehydrated, persisted) holds the newest page's param as null.
  if (end == null) {
    const items = readPage(l.operationId, l.rule, page, l.pageSize).items;
    if (items.length < l.pageSize) return undefined;
    below = lowestKey(l.operationId, l.rule, items)!;
  } else {
    below = windowStart(BigInt(end), l.pageSize);
  }
  return below > 0n ? String(below) : undefined;
}

/** `body` with `items` at `pointer` (copied along the pointer; readPage has checked every step is an object). */
function withItems(body: unknown, pointer: readonly string[], items: readonly unknown[]): unknown {
  const [head, ...rest] = pointer;
  if (head === undefined) return items;
  const object = body as Record<string, unknown>;
  return { ...object, [head]: withItems(object[head], rest, items) };
}
