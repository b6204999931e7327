/**
 * The paging of the infinite queries: one page per query function call, and the next page's start
 * from the generated paging table, as the iterators walk it (`walk.ts`). Page params are text (a u64 in
 * decimal, a cursor as sent back, `undefined` for a listing's default page), so that pages, keys and
 * dehydrated caches stay JSON: TanStack hashes keys with `JSON.stringify`, which throws on a bigint.
 */
import type { PagingRule } from '@x/common';
import { checkInteger, type HistoryPrunedError, type NodeAffinity } from '@x/client-core';
import { advances, readPage, startParam, type PageStart } from '@x/client-core/internal';
import { lowestKey, windowItems, windowStart } from './newest-first.js';
import { prunedAbove, untilWhole } from './page-info.js';
import { checkOrder, floorOf, maxCount, nodeLeaver, pageParams, walkFilters, type ListingSpec } from './walk.js';
import { NODE_QUERY_SCOPE, type PageOptions, type PageParam } from './query-types.js';
import { u64Text, type NodeQueryClient } from './query-options.js';
import type { Caller } from './types.js';

export type { PageParam } from './query-types.js';

/** What one infinite query walks: its operation and rule, the page size, the order, and how to fetch one page. */
export type PagedListing = {
  readonly operationId: string;
  readonly rule: PagingRule;
  /** The operation's largest `count`. */
  readonly maxPageSize: number;
  readonly pageSize: number;
  readonly order: unknown;
  readonly start: unknown;
  /** The lowest block height the walk's range needs (see the iterators' `history`). */
  readonly floor: bigint;
  /** One page; the calls of one page pass one `affinity`, so that a node left is not asked again. */
  fetch(start: PageParam | bigint, count: number, signal: AbortSignal, affinity: NodeAffinity): Promise<unknown>;
  /** Leaves the node that answered last (see `nodeLeaver`): the error when none is left. */
  leaver(affinity: NodeAffinity): (oldestBlock: bigint | undefined, floor: bigint) => HistoryPrunedError | undefined;
};

/**
 * A page as the walk needs it: asked again of another node while `partial` finds it cut short by the
 * history its node has pruned (as the iterators do); with none left, the query's `HistoryPrunedError`.
 */
async function whole(l: PagedListing, start: PageParam | bigint, count: number, signal: AbortSignal, partial: (body: unknown) => boolean): Promise<unknown> {
  const affinity: NodeAffinity = {};
  const leave = l.leaver(affinity);
  const again = (): Promise<unknown> => l.fetch(start, count, signal, affinity);
  const { body, pruned } = await untilWhole(await again(), partial, (oldest) => leave(oldest, l.floor), again);
  if (pruned) throw pruned;
  return body;
}

/** Whether the node that sent `body` keeps less history than the walk needs. */
const pastFloor = (l: PagedListing, body: unknown): boolean => prunedAbove(body, l.floor);

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
  // From the listing's default page ascending, a node starts where its history does; newest first, it ends there.
  const body = await whole(l, param, l.pageSize, signal, (b) => {
    const page = readPage(l.operationId, l.rule, b, l.pageSize);
    return (l.order === 'desc' ? page.next === undefined : param === undefined) && pastFloor(l, b);
  });
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
    // Sequence numbers start at 0: a short newest page above it is history the node no longer keeps.
    return whole(l, undefined, l.pageSize, signal, (b) => {
      const items = readPage(l.operationId, l.rule, b, l.pageSize).items;
      const lowest = lowestKey(l.operationId, l.rule, items);
      return items.length < l.pageSize && lowest !== 0n && (lowest !== undefined || pastFloor(l, b));
    });
  }
  const top = BigInt(end);
  const from = windowStart(top, l.pageSize);
  const inside = (b: unknown): unknown[] => windowItems(l.operationId, l.rule, readPage(l.operationId, l.rule, b, Number(top - from)).items, from, top);
  const body = await whole(l, from, Number(top - from), signal, (b) => inside(b).length < Number(top - from) && pastFloor(l, b));
  return withItems(body, l.rule.items, inside(body));
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

/** A walk's filters as a key holds them: a u64 (the events' heights) in decimal. */
function keyedFilters(op: ListingSpec, filters: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of op.params) if (p.name in filters) out[p.name] = p.schema.format === 'uint64' ? u64Text(filters[p.name]) : filters[p.name];
  return out;
}

/**
 * The parameters of one page as an infinite query passes them to its listing's action: the listing's
 * filters, `start` and `count` (and an order parameter). Typed `never` per name so that the generated
 * call spreads them into the action's options, whose query parameters they are.
 */
export type PageArgs = Readonly<Record<string, never>>;

/**
 * The option object of one infinite query (a generated `list…InfiniteQueryOptions`): pages as the walks
 * read them, each fetched by `page`, the listing's own action (so a page is read as a call of it is).
 * `keyed` holds the path parameters as the key holds them.
 */
export function infiniteQueryOptions<Options>(
  client: NodeQueryClient,
  id: string,
  op: ListingSpec,
  keyed: Readonly<Record<string, unknown>>,
  options: (PageOptions & { order?: unknown; start?: unknown }) | undefined,
  page: (caller: Caller, args: PageArgs, signal: AbortSignal) => Promise<unknown>,
): Options {
  const o = options ?? {};
  const caller = 'call' in client ? client : client.transport;
  const rule = op.paging;
  const order = o.order ?? 'asc';
  // The listing's filters (v3's `type`) go with every page, and into the key.
  const filters = walkFilters(op, o);
  const listing: PagedListing = {
    operationId: id,
    rule,
    maxPageSize: maxCount(op),
    pageSize: o.pageSize ?? maxCount(op),
    order,
    start: o.start,
    floor: floorOf(op, o),
    // The calls of one page carry its affinity (the nodes it left), through the action, to the transport.
    fetch: (start, count, signal, affinity) =>
      page({ baseUrls: caller.baseUrls, call: (i, spec, args, callOptions) => caller.call(i, spec, args, callOptions, affinity) }, { ...filters, ...pageParams(rule, order, start, count) } as PageArgs, signal),
    leaver: (affinity) => nodeLeaver(caller, op, affinity),
  };
  const initialPageParam = order === 'desc' && rule.predictable ? undefined : firstParam(rule, o.start);
  // The key's data tag exists in types only: `Options` is the generated function's declared return type.
  return {
    queryKey: [NODE_QUERY_SCOPE, client.baseUrls, id, 'infinite', { ...keyed, ...keyedFilters(op, filters), pageSize: listing.pageSize, order, start: initialPageParam }],
    queryFn: ({ signal, pageParam }: { signal: AbortSignal; pageParam: PageParam }) => fetchPage(listing, pageParam, signal),
    initialPageParam,
    getNextPageParam: (page: unknown, _pages: unknown[], param: PageParam, params: PageParam[]) => nextParam(listing, page, param, params),
    retry: false,
  } as never;
}
