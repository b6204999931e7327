import {
  advances,
  checkInteger,
  checkParam,
  startParam,
  U64_FORMATS,
  type NodeAffinity,
  type OperationSpec,
  Flights,
  InvalidArgumentError,
  type Flight as RequestFlight,
  itemKey,
  nextPointer,
  pointerText,
  readPage,
  Recent,
  ResponseShapeError,
  show,
  type CallOptions,
  type PageRead,
  type PageStart,
  type PagingRule,
} from '@x/client-core';
import type { Caller } from './types.js';
import { lowestKey, repeated, windowItems, windowStart } from './newest-first.js';

/** Options of the iterators (`node.v2.transactions(...)` and friends). */
export type IterateOptions = CallOptions & {
  /** Items per request; at most the operation's maximum (100 on transaction listings). */
  pageSize?: number | undefined;
  /** Stop after this many items. */
  limit?: number | undefined;
  /**
   * Requests in flight at once, 1 to 32 (default 1). Where page starts are predictable (transactions by
   * sequence number) up to this many pages are fetched ahead at their predicted starts; cursor walks
   * (coin transactions, modules, resources) fetch the next page as soon as a page arrives. Items come in
   * the same order either way. Each page fetched ahead costs a request that an early `break`, or the end
   * of the listing, can waste (at most `concurrency - 1`), so the default asks for one page at a time.
   */
  concurrency?: number | undefined;
};

/** The most requests one walk keeps in flight. */
export const MAX_CONCURRENCY = 32;
/**
 * Windows in a row a newest-first walk takes with nothing in them before it stops: account sequence
 * numbers have no gaps, so one empty window is already odd, and a node claiming a sequence number near
 * 2^53 over an empty history would otherwise be walked 100 numbers at a time for ever. Below windows that
 * held items the walk then ends (a node that pruned its older history); below the newest page alone it
 * stops with a `ResponseShapeError`.
 */
export const MAX_EMPTY_WINDOWS = 32;
/** Cursors, and items of a cursor walk, a walk remembers (as digests) to notice a node repeating itself. */
const REMEMBERED = 10_000;

/** What a walk needs of its listing: the operation, its paging rule, and how to fetch one page. */
export type Listing = {
  readonly operationId: string;
  readonly rule: PagingRule;
  /** The operation's largest `count`. */
  readonly maxPageSize: number;
  /** Fetches the page at `start` (none: the listing's default page) of `count` items. */
  fetchPage(start: PageStart | undefined, count: number, signal: AbortSignal): Promise<unknown>;
};

/** A page requested: where it starts, how many items it asked for, and its request (its own abort). */
type Flight = RequestFlight<unknown> & { start: PageStart | undefined; count: number; end?: bigint };

/** Requests the page at `start` of `count` items, in the walk's flights. */
const launch = (w: Walk, start: PageStart | undefined, count: number): Flight => ({
  ...w.flights.launch((signal) => w.listing.fetchPage(start, count, signal)),
  start,
  count,
});

type Walk = { flights: Flights<unknown>; listing: Listing; pageSize: number; limit: number; concurrency: number; signal: AbortSignal | undefined; fresh: Fresh };

/**
 * Every item of a listing, page after page, as its paging rule says: ascending from `start`, or newest
 * first (`order: 'desc'`, where the rule's starts are predictable). Options are checked on the first
 * `next()`, before any request, so a bad one is a rejection of the loop. No walk loops forever: it ends
 * where the rule says (a short or empty page, a zero, null, empty, repeated or non-advancing cursor),
 * and stops with `ResponseShapeError` where a node lies: an item it has yielded comes again (out of
 * sequence, or, on a cursor walk, among the last 10,000), or a newest-first walk finds nothing in
 * {@link MAX_EMPTY_WINDOWS} windows in a row.
 *
 * @example
 * ```ts
 * for await (const tx of walk(listing, () => 0n, { concurrency: 8 })) console.log(tx);
 * ```
 */
export async function* walk(
  listing: Listing,
  first: () => PageStart | undefined,
  options: IterateOptions & { order?: unknown; start?: unknown },
): AsyncGenerator<unknown, void, undefined> {
  const { rule, maxPageSize } = listing;
  const order = options.order ?? 'asc';
  checkOrder(listing.operationId, rule, order, options.start);
  // Newest first over predictable starts is windows below the newest page; a listing that orders its own
  // pages (v3's `ascending`) follows its cursor down from `start` as up.
  const windows = order === 'desc' && rule.predictable;
  const start = windows ? undefined : first();
  const pageSize = checkInteger('pageSize', options.pageSize ?? maxPageSize, 1, maxPageSize);
  const limit = options.limit === undefined ? Infinity : checkInteger('limit', options.limit, 0, Number.MAX_SAFE_INTEGER);
  const concurrency = checkInteger('concurrency', options.concurrency ?? 1, 1, MAX_CONCURRENCY);
  if (limit === 0) return;
  options.signal?.throwIfAborted();
  // Made only now, inside the walk's try: its listener on the caller's signal is removed at the end.
  const w: Walk = { pageSize, limit, concurrency, signal: options.signal, flights: new Flights(options.signal), listing, fresh: fresh(listing) };
  try {
    if (windows) yield* newestFirst(w);
    else if (rule.predictable && w.concurrency > 1) yield* predicted(w, start as bigint);
    else yield* followed(w, start);
  } finally {
    w.flights.close();
  }
}

/**
 * Checks a walk's `order` (and `start` with it) against the listing's rule: newest first only where page
 * starts are predictable, and never from a `start`. The iterators and the infinite queries share it.
 *
 * @example
 * ```ts
 * checkOrder('listCoinTransactionsV2', paging.listCoinTransactionsV2, 'desc', undefined); // throws InvalidArgumentError naming 'order'
 * ```
 */
export function checkOrder(operationId: string, rule: PagingRule, order: unknown, start: unknown): void {
  if (order !== 'asc' && order !== 'desc') throw new InvalidArgumentError('order', `must be 'asc' or 'desc', got ${show(order)}`);
  if (order !== 'desc') return;
  // A listing with an order parameter pages down by its cursor as it pages up.
  if (rule.order !== undefined && !rule.predictable) return;
  if (!(rule.predictable && rule.newestFirstWithoutStart)) {
    throw new InvalidArgumentError('order', `${operationId} has no documented way back past its newest page; walk it ascending`);
  }
  if (start !== undefined) throw new InvalidArgumentError('start', "cannot be combined with order: 'desc', which starts at the newest item");
}

/**
 * The query parameters of one page beyond the listing's own: its size and start, under the names the
 * rule gives, and the rule's order parameter. Pages over predictable starts (ascending from a start, or a
 * newest-first window) ask ascending whenever they have a start, the newest page without one takes the
 * node's default (descending); a cursor listing asks ascending for an ascending walk.
 *
 * @example
 * ```ts
 * pageParams(paging.listCoinTransactionsV3, 'asc', 12n, 50); // { count: 50, start: 12n, ascending: true }
 * ```
 */
export function pageParams(rule: PagingRule, order: unknown, start: PageStart | undefined, count: number): Record<string, unknown> {
  const params: Record<string, unknown> = { [rule.size ?? 'count']: count, [rule.start ?? 'start']: start };
  if (rule.order !== undefined && (rule.predictable ? start !== undefined : order === 'asc')) params[rule.order] = true;
  return params;
}

/** The operation's largest page (the spec's maximum of its size parameter; 100 where it states none). */
export function maxCount(op: OperationSpec & { readonly paging?: PagingRule }): number {
  const size = op.paging?.size ?? 'count';
  return op.params.find((p) => p.name === size)?.schema.maximum ?? 100;
}

/** A listing's entry of the generated operation table: its paging rule with it. */
export type ListingSpec = OperationSpec & { readonly paging: PagingRule };

/**
 * The walk of one listing over `client`, as a generated walk (`walkTransactionsV2`) starts it: `fixed`
 * holds the path parameters, the pages add `count` and `start`, and all of them come from one node while
 * it answers (a transport with several nodes).
 *
 * @example
 * ```ts
 * for await (const tx of walkListing(http(), 'listTransactionsV2', op.listTransactionsV2, { address: '0x1' }, { limit: 10 })) console.log(tx);
 * ```
 */
export function walkListing(client: Caller, operationId: string, op: ListingSpec, fixed: Readonly<Record<string, unknown>>, options: IterateOptions & { order?: unknown; start?: unknown } = {}): AsyncGenerator<unknown, void, undefined> {
  const affinity: NodeAffinity = {};
  const order = options.order ?? 'asc';
  const filters = walkFilters(op, options);
  const listing: Listing = {
    operationId,
    rule: op.paging,
    maxPageSize: maxCount(op),
    fetchPage: (start, count, signal) => client.call(operationId, op, { ...fixed, ...filters, ...pageParams(op.paging, order, start, count) }, { signal }, affinity),
  };
  return walk(listing, () => firstStart(op, options.start), options);
}

/**
 * The listing's filters a walk (or an infinite query) sends with every page, from its caller's options:
 * the query parameters its paging rule names (`filters`: v3's `type`, the events' height range).
 *
 * @example
 * ```ts
 * walkFilters(op.listCoinTransactionsV3, { type: 'user', pageSize: 10 }); // { type: 'user' }
 * ```
 */
export function walkFilters(op: ListingSpec, options: object): Record<string, unknown> {
  const filters: Record<string, unknown> = {};
  for (const name of op.paging.filters ?? []) filters[name] = (options as Record<string, unknown>)[name];
  return filters;
}

/** The caller's `start` as the walk carries it: a u64 as a bigint, a cursor as the text sent back, both checked as the operation checks them. */
function firstStart(op: ListingSpec, value: unknown): PageStart | undefined {
  const spec = op.params.find((p) => p.name === (op.paging.start ?? 'start'))!;
  // A header cursor has no first value of its own: without one the node starts at the newest (or oldest) item.
  if (op.paging.next.from === 'header' && value === undefined) return undefined;
  if (op.paging.next.encoding === 'u64') return BigInt(checkParam(spec, value ?? 0, U64_FORMATS) as string | number);
  const start = startParam(op.paging, value);
  return start === undefined ? undefined : (checkParam(spec, start, U64_FORMATS) as string);
}

/** Yields a page's items up to the limit; returns the count yielded so far. */
async function* emit(w: Walk, items: readonly unknown[], yielded: number): AsyncGenerator<unknown, number, undefined> {
  for (const item of items) {
    if (yielded >= w.limit) break;
    w.signal?.throwIfAborted();
    yield item;
    yielded++;
  }
  return yielded;
}

/**
 * A walk that follows each page's next start. With `concurrency > 1` the next page is requested as soon
 * as a page arrives, before its items are consumed: one page ahead, since each start comes from the page
 * before.
 */
async function* followed(w: Walk, start: PageStart | undefined): AsyncGenerator<unknown, void, undefined> {
  const { rule, operationId } = w.listing;
  const seen = new Recent(REMEMBERED);
  let yielded = 0;
  let flight: Flight | undefined = launch(w, start, Math.min(w.pageSize, w.limit));
  while (flight) {
    if (flight.start !== undefined) seen.add(flight.start);
    const page: PageRead = readPage(operationId, rule, await w.flights.result(flight), flight.count);
    const ends: boolean = page.next === undefined || !advances(rule, page.next, flight.start, seen);
    const items = w.fresh(page.items, flight.start, ends);
    const left = w.limit - yielded - Math.min(items.length, w.limit - yielded);
    const next: PageStart | undefined = !ends && left > 0 ? page.next : undefined;
    flight = next !== undefined && w.concurrency > 1 ? launch(w, next, Math.min(w.pageSize, left)) : undefined;
    yielded = yield* emit(w, items, yielded);
    if (next !== undefined && !flight) flight = launch(w, next, Math.min(w.pageSize, w.limit - yielded));
  }
}

/**
 * An ascending walk whose page starts are predictable: up to `concurrency` pages in flight at
 * `start + k * count`, read in order. A page whose next start is not the one predicted for the page
 * after it (a gap in the sequence numbers) drops the pages fetched ahead, and the walk goes on from the
 * real next start, so the items are exactly those of a page-by-page walk. At most `concurrency` pages
 * are held: the one being read and those in flight.
 */
async function* predicted(w: Walk, start: bigint): AsyncGenerator<unknown, void, undefined> {
  const { rule, operationId } = w.listing;
  const seen = new Recent(REMEMBERED);
  let queue: Flight[] = [];
  let next: bigint | undefined = start;
  let yielded = 0;
  while (true) {
    // Fill the window from the real next start, or on from the last page in flight.
    let asked = queue.reduce((n, f) => n + f.count, 0);
    while (queue.length < w.concurrency && next !== undefined && w.limit - yielded - asked > 0) {
      const last = queue.at(-1);
      const count = Math.min(w.pageSize, w.limit - yielded - asked);
      queue.push(launch(w, last ? (last.start as bigint) + BigInt(last.count) : next, count));
      asked += count;
    }
    const flight = queue.shift();
    if (!flight) return;
    seen.add(flight.start as bigint);
    const page: PageRead = readPage(operationId, rule, await w.flights.result(flight), flight.count);
    next = page.next !== undefined && advances(rule, page.next, flight.start, seen) ? (page.next as bigint) : undefined;
    const items = w.fresh(page.items, flight.start, next === undefined);
    if (queue.length > 0 && queue[0]!.start !== next) {
      w.flights.drop(queue);
      queue = [];
    }
    yielded = yield* emit(w, items, yielded);
  }
}

/**
 * Newest first: the listing's newest page (no `start`), then the sequence numbers below it in windows of
 * `count`, each fetched ascending from its first number and read backwards. A window keeps only the
 * items inside it, so a gap in the sequence numbers neither repeats nor loses an item. Windows below the
 * newest page are predictable, so up to `concurrency` are in flight.
 */
async function* newestFirst(w: Walk): AsyncGenerator<unknown, void, undefined> {
  const { rule, operationId } = w.listing;
  const newest = launch(w, undefined, Math.min(w.pageSize, w.limit));
  const page = readPage(operationId, rule, await w.flights.result(newest), newest.count);
  let end = lowestKey(operationId, rule, page.items);
  let yielded = yield* emit(w, page.items, 0);
  // A short newest page holds every item there is.
  if (page.items.length < newest.count || end === undefined) return;
  const queue: Flight[] = [];
  let empty = 0;
  let found = false;
  while (true) {
    let asked = queue.reduce((n, f) => n + f.count, 0);
    while (queue.length < w.concurrency && end > 0n && w.limit - yielded - asked > 0) {
      const from = windowStart(end, Math.min(w.pageSize, w.limit - yielded - asked));
      queue.push({ ...launch(w, from, Number(end - from)), end });
      asked += Number(end - from);
      end = from;
    }
    const flight = queue.shift();
    if (!flight) return;
    const window = readPage(operationId, rule, await w.flights.result(flight), flight.count);
    const inside = windowItems(operationId, rule, window.items, flight.start as bigint, flight.end!);
    found ||= inside.length > 0;
    empty = inside.length === 0 ? empty + 1 : 0;
    if (empty >= MAX_EMPTY_WINDOWS) {
      // Below items it did find, the node has pruned its history: the walk has all there is. Below the
      // newest page alone, nothing at all: a node that claims a history it does not have.
      if (found) return;
      throw new ResponseShapeError({ operationId, path: pointerText(rule.items), expected: `items below sequence number ${flight.end!}: ${empty} windows in a row held none` });
    }
    yielded = yield* emit(w, inside, yielded);
  }
}

/**
 * The items of a page new to the walk. A page that would lead on must bring only new ones (else a
 * `ResponseShapeError`); the page that ends the walk by its cursor (`last`: repeated, not advancing,
 * null, ...) may repeat what came before, as a node may answer past the end, and only its new items
 * are yielded.
 */
type Fresh = (items: readonly unknown[], start: PageStart | undefined, last: boolean) => readonly unknown[];

/**
 * The repeat check of a listing's ascending walks. Where the next start is the last item's sequence
 * number plus one, items come in sequence: each must be above the one before and not below the page's
 * start, which needs one number of memory, and a page out of sequence is an error even at the end. Elsewhere
 * (cursor listings) an item is new when its JSON is not among the last {@link REMEMBERED} items' digests.
 */
function fresh(listing: Listing): Fresh {
  const { rule, operationId } = listing;
  const at = (i: number): string => `${pointerText(rule.items)}/${i}`;
  if (rule.next.from === 'last-item') {
    let last: bigint | undefined;
    return (items, start) => {
      items.forEach((item, i) => {
        const key = itemKey(operationId, rule, item, at(i));
        const floor = last === undefined ? (typeof start === 'bigint' ? start : 0n) : last + 1n;
        if (key < floor) throw repeated(operationId, at(i) + pointerText(nextPointer(rule)), `a sequence number from ${floor}`);
        last = key;
      });
      return items;
    };
  }
  const recent = new Recent(REMEMBERED);
  return (items, _start, lastPage) =>
    items.filter((item, i) => {
      let text: string;
      try {
        text = JSON.stringify(item);
      } catch {
        throw new ResponseShapeError({ operationId, path: at(i), expected: 'an item nested less deeply' });
      }
      if (!recent.add(text)) return true;
      if (lastPage) return false;
      throw repeated(operationId, at(i), 'an item not yielded before');
    });
}
