import { checkInteger, HistoryPrunedError, redactUrl, type NodeAffinity, type OperationSpec, InvalidArgumentError, ResponseShapeError, show, type CallOptions } from '@x/client-core';
import { advances, paramValue, startParam, Flights, type Flight as RequestFlight, itemKey, nextPointer, pointerText, readPage, Recent, type PageRead, type PageStart } from '@x/client-core/internal';
import { readU64, type PagingRule } from '@x/common';
import type { Caller } from './types.js';
import { lowestKey, repeated, windowItems, windowStart } from './newest-first.js';
import { pageInfo, prunedAbove, untilWhole } from './page-info.js';
import { ordered } from './checks.js';
import { positionOf, resumeToken, type WalkMode } from './resume.js';

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
  /**
   * What the walk does where a node has pruned the history it needs (its `x-supra-oldest-block` is
   * above the walk's range). `'complete'` (default): that part comes from another node that keeps it
   * (an archive node, with several nodes), and where none does the walk ends with `HistoryPrunedError`
   * naming `oldestBlock`, after every item it could give: a partial history never looks complete.
   * `'kept'`: the walk takes what the node keeps and ends there (the pages mode still says
   * `oldestBlock`).
   */
  history?: 'complete' | 'kept' | undefined;
  /**
   * Where to go on from: the `resume` of a page of an earlier walk of the same listing, the same filters
   * and order (see `Walk.pages`). The walk then yields exactly what that walk had left, with no item
   * again and none skipped. Not with `start`.
   */
  resume?: string | undefined;
};

/**
 * One page of a walk in pages mode (`walk.pages()`): its items, in the walk's order, and what a crash-safe
 * consumer stores with them.
 */
export type WalkPage<Item> = {
  readonly items: Item[];
  /**
   * Pass as `resume` to a new walk of the same listing (same filters and order) to go on after this
   * page. At the end of an ascending walk it is where new items will come (one past the last sequence
   * number, the next height, or the last page's start past the items it gave), so a walk resumed from it
   * yields only what is new; `undefined` there only when the walk gave nothing from the listing's first
   * page. Newest first, `undefined` at the end.
   */
  readonly resume: string | undefined;
  /** The lowest block height the node that sent the page keeps (`x-supra-oldest-block`), when it said. */
  readonly oldestBlock: bigint | undefined;
  /** The chain of the node that sent the page (`x-supra-chain-id`), when it said. */
  readonly chainId: number | undefined;
};

/**
 * A walk: an async iterable of items, and its `pages()`, the same walk a page at a time with each page's
 * resume point (a walk of its own: use one or the other).
 *
 * @example
 * ```ts
 * for await (const page of node.v3.coinTransactions('0x1').pages()) await store(page.items, page.resume);
 * ```
 */
export type Walk<Item> = AsyncGenerator<Item, void, undefined> & {
  /** The same walk, a page at a time, each with the `resume` to go on after it. */
  pages(): AsyncGenerator<WalkPage<Item>, void, undefined>;
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
  /** The lowest block height the walk's range needs: 0 for an account's whole history, an events walk's `start_height`. */
  readonly floor: bigint;
  /**
   * Leaves the node that sent the last page out of the walk's later calls, for a page it could not
   * give whole; answers the error to end the walk with when no node is left to ask.
   */
  leaveNode(oldestBlock: bigint | undefined): HistoryPrunedError | undefined;
  /** Checks the walk's arguments beyond each parameter's own, before any request. */
  check?(): void;
};

/** A page requested: where it starts, how many items it asked for, and its request (its own abort). */
type Flight = RequestFlight<unknown> & { start: PageStart | undefined; count: number; end?: bigint };

/** Requests the page at `start` of `count` items, in the walk's flights. */
const launch = (w: WalkState, start: PageStart | undefined, count: number): Flight => ({
  ...w.flights.launch((signal) => w.listing.fetchPage(start, count, signal)),
  start,
  count,
});

type WalkState = { flights: Flights<unknown>; listing: Listing; pageSize: number; limit: number; concurrency: number; signal: AbortSignal | undefined; fresh: Fresh; complete: boolean; order: 'asc' | 'desc' };

/** A page as the walk's algorithms hand it out: its items (within the limit), where to go on, and what its node said. */
type Step = { items: readonly unknown[]; resume: WalkMode | undefined; info: { oldestBlock: bigint | undefined; chainId: number | undefined } };

/** What the node that answered `body` said of its history and chain. */
const infoOf = (body: unknown): Step['info'] => {
  const info = pageInfo(body);
  return { oldestBlock: info?.oldestBlock, chainId: info?.chainId };
};

/**
 * Every item of a listing, page after page, as its paging rule says: ascending from `start`, or newest
 * first (`order: 'desc'`). Options are checked on the first `next()`, before any request, so a bad one is
 * a rejection of the loop. No walk loops forever: it ends where the rule says (a short or empty page, a
 * zero, null, empty, repeated or non-advancing cursor), and stops with `ResponseShapeError` where a node
 * lies: a page larger than asked, an item it has yielded comes again (out of sequence, or, on a cursor
 * walk, among the last 10,000), or a newest-first walk finds nothing in {@link MAX_EMPTY_WINDOWS} windows
 * in a row. Pruned history is never a silent end: see `IterateOptions.history`.
 *
 * @example
 * ```ts
 * for await (const tx of walk(listing, () => 0n, { concurrency: 8 })) console.log(tx);
 * ```
 */
export function walk(listing: Listing, first: () => PageStart | undefined, options: IterateOptions & { order?: unknown; start?: unknown }): Walk<unknown> {
  async function* items(): AsyncGenerator<unknown, void, undefined> {
    for await (const step of steps(listing, first, options)) {
      for (const item of step.items) {
        options.signal?.throwIfAborted();
        yield item;
      }
    }
  }
  async function* pages(): AsyncGenerator<WalkPage<unknown>, void, undefined> {
    for await (const { items, resume, info } of steps(listing, first, options)) {
      options.signal?.throwIfAborted();
      yield { items: [...items], resume: resume && resumeToken(resume), ...info };
    }
  }
  return Object.assign(items(), { pages });
}

/** The walk's pages, each with the items it adds, where to go on after it, and what its node said. */
async function* steps(listing: Listing, first: () => PageStart | undefined, options: IterateOptions & { order?: unknown; start?: unknown }): AsyncGenerator<Step, void, undefined> {
  const { rule, maxPageSize } = listing;
  const order = options.order ?? 'asc';
  checkOrder(listing.operationId, rule, order, options.start);
  listing.check?.();
  // Newest first over predictable starts is windows below the newest page; a listing that orders its own
  // pages (v3's `ascending`) follows its cursor down from `start` as up.
  const windows = order === 'desc' && rule.predictable;
  const history = options.history ?? 'complete';
  if (history !== 'complete' && history !== 'kept') throw new InvalidArgumentError('history', `must be 'complete' or 'kept', got ${show(history)}`);
  let resume: WalkMode | undefined;
  if (options.resume !== undefined) {
    if (options.start !== undefined) throw new InvalidArgumentError('resume', 'cannot be combined with start: it says where the walk goes on');
    resume = positionOf(options.resume, windows ? ['below'] : ['next'], order as 'asc' | 'desc');
    if (resume.skip !== undefined && rule.next.from === 'last-item') throw new InvalidArgumentError('resume', 'is the resume point of another walk (a cursor walk): resume a walk of the same listing, filters and order');
  }
  const start = windows || resume ? undefined : first();
  const pageSize = checkInteger('pageSize', options.pageSize ?? maxPageSize, 1, maxPageSize);
  const limit = options.limit === undefined ? Infinity : checkInteger('limit', options.limit, 0, Number.MAX_SAFE_INTEGER);
  const concurrency = checkInteger('concurrency', options.concurrency ?? 1, 1, MAX_CONCURRENCY);
  if (limit === 0) return;
  options.signal?.throwIfAborted();
  // Made only now, inside the walk's try: its listener on the caller's signal is removed at the end.
  const w: WalkState = {
    pageSize, limit, concurrency, signal: options.signal, flights: new Flights(options.signal), listing, fresh: fresh(listing),
    complete: history === 'complete', order: order as 'asc' | 'desc',
  };
  try {
    if (windows) yield* newestFirst(w, resume?.at as bigint | undefined);
    // A u64 start is explicit (0 by default): a node without it answers 410. A cursor walk from the
    // listing's default page is not: its first page must come from a node that keeps the whole range.
    else if (rule.predictable && w.concurrency > 1) yield* predicted(w, (resume?.at ?? start) as bigint);
    else {
      const from = resume ? resume.at : start;
      yield* followed(w, from, from !== undefined, resume?.skip ?? 0);
    }
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
export type ListingSpec = OperationSpec & { readonly paging: PagingRule; readonly ordered?: readonly [string, string] };

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
export function walkListing(client: Caller, operationId: string, op: ListingSpec, fixed: Readonly<Record<string, unknown>>, options: IterateOptions & { order?: unknown; start?: unknown } = {}): Walk<unknown> {
  const affinity: NodeAffinity = {};
  const order = options.order ?? 'asc';
  const filters = walkFilters(op, options);
  const leave = nodeLeaver(client, op, affinity);
  const listing: Listing = {
    operationId,
    rule: op.paging,
    maxPageSize: maxCount(op),
    fetchPage: (start, count, signal) => client.call(operationId, op, { ...fixed, ...filters, ...pageParams(op.paging, order, start, count) }, { signal }, affinity),
    floor: floorOf(op, options),
    leaveNode: (oldestBlock) => leave(oldestBlock, listing.floor),
    // A height range whose end is below its start would walk nothing, as if there were nothing.
    check: () => {
      const bad = op.ordered && ordered({ ...fixed, ...filters }, ...op.ordered);
      if (bad) throw bad;
    },
  };
  return walk(listing, () => firstStart(op, options.start), options);
}

/**
 * Leaves, for the calls that pass `affinity`, the node that answered last (a node whose kept history
 * starts above what they need), and answers the `HistoryPrunedError` to end with when no node is left:
 * what a walk and an infinite query do with a page a pruned node could not give whole.
 *
 * @example
 * ```ts
 * const leave = nodeLeaver(client, op.listCoinTransactionsV3, affinity);
 * const err = leave(5800n, 0n); // undefined while another node is left to ask
 * ```
 */
export function nodeLeaver(client: Caller, op: OperationSpec, affinity: NodeAffinity): (oldestBlock: bigint | undefined, floor: bigint) => HistoryPrunedError | undefined {
  // The lowest oldest block of the nodes left, for the error when none keeps what is needed.
  let oldest: bigint | undefined;
  return (oldestBlock, floor) => {
    const node = affinity.node ?? client.baseUrls[0]!;
    const skip = (affinity.skip ??= new Set());
    skip.add(node);
    delete affinity.node;
    if (oldestBlock !== undefined && (oldest === undefined || oldestBlock < oldest)) oldest = oldestBlock;
    if (client.baseUrls.some((url) => !skip.has(url))) return undefined;
    const url = redactUrl(node).replace(/\/+$/, '') + op.path;
    const err = new HistoryPrunedError({ status: 200, body: undefined, method: op.method, url, oldestBlock: oldest });
    // A walk's own finding, from answers that succeeded: no status failed, so the message says what did.
    err.message = `${op.method} ${url}: no node keeps the history needed, from block ${floor} (a walk's history: 'kept' takes what a node keeps)${oldest === undefined ? '' : ` (oldest block ${oldest})`}`;
    return err;
  };
}

/** The lowest height a walk's range reaches: the first of its ordered height filters (events' `start_height`), else 0. */
export function floorOf(op: ListingSpec, options: object): bigint {
  const low = (op as { ordered?: readonly [string, string] }).ordered?.[0];
  const value = low === undefined ? undefined : readU64((options as Record<string, unknown>)[low]);
  return value ?? 0n;
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
  if (op.paging.next.encoding === 'u64') return BigInt(paramValue(spec, value ?? 0) as string | number);
  const start = startParam(op.paging, value);
  return start === undefined ? undefined : (paramValue(spec, start) as string);
}

/**
 * Where an ascending walk that has ended goes on once the listing grows, so that an indexer that runs
 * again gets only what is new: one past the last sequence number of its last page; else (an empty page,
 * or a cursor listing's last page, which gives no cursor to go on from) that page's start, past the items
 * at its head the walk gave (`head`, from a resumed page, and the page's own). `undefined` only where the
 * walk gave nothing from the listing's default first page: a new walk is the same.
 */
function endOf(listing: Listing, start: PageStart | undefined, items: readonly unknown[], head: number): WalkMode | undefined {
  const { rule, operationId } = listing;
  if (rule.next.from === 'last-item' && items.length > 0) {
    return { kind: 'next', order: 'asc', at: itemKey(operationId, rule, items.at(-1), `${pointerText(rule.items)}/${items.length - 1}`) + BigInt(rule.next.add) };
  }
  const skip = Math.max(head, items.length);
  if (skip === 0) return start === undefined ? undefined : { kind: 'next', order: 'asc', at: start };
  return { kind: 'next', order: 'asc', at: start, skip };
}

/** Whether the node that answered `body` keeps less history than the walk needs (its oldest block is above the walk's floor). */
const pastFloor = (w: WalkState, body: unknown): boolean => prunedAbove(body, w.listing.floor);

/**
 * Newest first, a node's refusal of history it has pruned (410) ends a walk that takes what a node keeps
 * (`history: 'kept'`) where it is; anything else is the walk's error.
 */
function keptEnd(w: WalkState, err: unknown): boolean {
  return !w.complete && w.order === 'desc' && err instanceof HistoryPrunedError;
}

/**
 * A walk that follows each page's next start. With `concurrency > 1` the next page is requested as soon
 * as a page arrives, before its items are consumed: one page ahead, since each start comes from the page
 * before. Two pages must come from a node that keeps the walk's whole range: the first, from the
 * listing's default page (`explicit` false), ascending, since a node starts it where its history starts;
 * and the last newest first, since a node ends there too. Such a page of a node that has pruned below
 * the walk's floor is asked again of another node; with none left, the walk ends with the error (newest
 * first, after the page's items).
 */
async function* followed(w: WalkState, start: PageStart | undefined, explicit: boolean, skip: number): AsyncGenerator<Step, void, undefined> {
  const { rule, operationId } = w.listing;
  const seen = new Recent(REMEMBERED);
  let yielded = 0;
  let first = true;
  // Resumed past the head of a page (see `endOf`): that page again, with room for what came after it.
  let flight: Flight | undefined = launch(w, start, Math.min(w.listing.maxPageSize, skip + Math.min(w.pageSize, w.limit)));
  while (flight) {
    if (flight.start !== undefined) seen.add(flight.start);
    let body: unknown;
    try {
      body = await w.flights.result(flight);
    } catch (err) {
      if (keptEnd(w, err)) return;
      throw err;
    }
    const asked: Flight = flight;
    const read = (b: unknown): { page: PageRead; ends: boolean } => {
      const p = readPage(operationId, rule, b, asked.count);
      return { page: p, ends: p.next === undefined || !advances(rule, p.next, asked.start, seen) };
    };
    const whole = await untilWhole(
      body,
      (b) => w.complete && pastFloor(w, b) && ((first && w.order === 'asc' && (!explicit || startsAbove(w, b, asked))) || (w.order === 'desc' && read(b).ends)),
      w.listing.leaveNode,
      () => w.flights.result(launch(w, asked.start, asked.count)),
    );
    body = whole.body;
    const { pruned } = whole;
    const { page, ends } = read(body);
    // Ascending, nothing of the range is there to give before the part the node no longer keeps.
    if (pruned && w.order === 'asc') throw pruned;
    // The head of a resumed page was given before: not again.
    const head = first ? skip : 0;
    first = false;
    const items = w.fresh(page.items.slice(head), flight.start, ends);
    yielded += items.length;
    const left = w.limit - yielded;
    const next: PageStart | undefined = !ends && !pruned ? page.next : undefined;
    flight = next !== undefined && left > 0 && w.concurrency > 1 ? launch(w, next, Math.min(w.pageSize, left)) : undefined;
    const resume: WalkMode | undefined = next !== undefined ? { kind: 'next', order: w.order, at: next } : w.order === 'asc' ? endOf(w.listing, asked.start, page.items, head) : undefined;
    yield { items, resume, info: infoOf(body) };
    if (pruned) throw pruned;
    if (next !== undefined && left > 0 && !flight) flight = launch(w, next, Math.min(w.pageSize, left));
  }
}

/**
 * An ascending walk whose page starts are predictable: up to `concurrency` pages in flight at
 * `start + k * count`, read in order. A page whose next start is not the one predicted for the page
 * after it (a gap in the sequence numbers) drops the pages fetched ahead, and the walk goes on from the
 * real next start, so the items are exactly those of a page-by-page walk. At most `concurrency` pages
 * are held: the one being read and those in flight.
 */
async function* predicted(w: WalkState, start: bigint): AsyncGenerator<Step, void, undefined> {
  const { rule, operationId } = w.listing;
  const seen = new Recent(REMEMBERED);
  let queue: Flight[] = [];
  let next: bigint | undefined = start;
  let yielded = 0;
  let first = true;
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
    let body = await w.flights.result(flight);
    if (first) {
      // A node that answers the start with its kept history only (200, not 410): asked of another node.
      const whole = await untilWhole(body, (b) => w.complete && pastFloor(w, b) && startsAbove(w, b, flight), w.listing.leaveNode, () =>
        w.flights.result(launch(w, flight.start, flight.count)),
      );
      if (whole.pruned) throw whole.pruned;
      if (whole.body !== body) {
        // The pages in flight went to the node just left: asked again, of the next.
        w.flights.drop(queue);
        queue = [];
      }
      body = whole.body;
      first = false;
    }
    const page: PageRead = readPage(operationId, rule, body, flight.count);
    next = page.next !== undefined && advances(rule, page.next, flight.start, seen) ? (page.next as bigint) : undefined;
    const items = w.fresh(page.items, flight.start, next === undefined);
    if (queue.length > 0 && queue[0]!.start !== next) {
      w.flights.drop(queue);
      queue = [];
    }
    yielded += items.length;
    const resume: WalkMode | undefined = next !== undefined ? { kind: 'next', order: 'asc', at: next } : endOf(w.listing, flight.start, page.items, 0);
    yield { items, resume, info: infoOf(body) };
  }
}

/**
 * Whether a page of a listing over sequence numbers (which have no gaps) starts above the start it was
 * asked at: with its node's oldest block above the walk's floor, the head of the range is history that
 * node no longer keeps.
 */
function startsAbove(w: WalkState, body: unknown, asked: Flight): boolean {
  const { rule, operationId } = w.listing;
  if (rule.next.from !== 'last-item' || typeof asked.start !== 'bigint') return false;
  const items = readPage(operationId, rule, body, asked.count).items;
  return items.length > 0 && itemKey(operationId, rule, items[0], `${pointerText(rule.items)}/0`) > asked.start;
}

/**
 * Newest first: the listing's newest page (no `start`), then the sequence numbers below it in windows of
 * `count`, each fetched ascending from its first number and read backwards (from `below`, a resumed walk's
 * windows alone). A window keeps only the items inside it, so a gap in the sequence numbers neither
 * repeats nor loses an item. Windows below the newest page are predictable, so up to `concurrency` are
 * in flight. Sequence numbers start at 0, so a short newest page whose lowest number is above 0, or a
 * window short of items from a node that has pruned below the walk's floor, is missing history: asked
 * again of another node, or, with none left, the walk's error after the items it has.
 */
async function* newestFirst(w: WalkState, below: bigint | undefined): AsyncGenerator<Step, void, undefined> {
  const { rule, operationId } = w.listing;
  let end: bigint | undefined = below;
  let yielded = 0;
  let found = false;
  if (end === undefined) {
    const count = Math.min(w.pageSize, w.limit);
    // Sequence numbers start at 0: a short newest page above it is history the node no longer keeps.
    const shortOfZero = (b: unknown): boolean => {
      const items = readPage(operationId, rule, b, count).items;
      const low = lowestKey(operationId, rule, items);
      return items.length < count && low !== 0n && (low !== undefined || pastFloor(w, b));
    };
    const again = (): Promise<unknown> => w.flights.result(launch(w, undefined, count));
    const { body, pruned } = await untilWhole(await again(), (b) => w.complete && shortOfZero(b), w.listing.leaveNode, again);
    const page = readPage(operationId, rule, body, count);
    const lowest = lowestKey(operationId, rule, page.items);
    // A short newest page holds every item the node has.
    const last = pruned !== undefined || page.items.length < count || lowest === undefined || lowest === 0n;
    yield { items: page.items, resume: last ? undefined : { kind: 'below', order: 'desc', at: lowest! }, info: infoOf(body) };
    if (pruned) throw pruned;
    if (last) return;
    yielded = page.items.length;
    found = yielded > 0;
    end = lowest;
  }
  const queue: Flight[] = [];
  let empty = 0;
  while (true) {
    let asked = queue.reduce((n, f) => n + f.count, 0);
    while (queue.length < w.concurrency && end! > 0n && w.limit - yielded - asked > 0) {
      const from = windowStart(end!, Math.min(w.pageSize, w.limit - yielded - asked));
      queue.push({ ...launch(w, from, Number(end! - from)), end });
      asked += Number(end! - from);
      end = from;
    }
    const flight = queue.shift();
    if (!flight) return;
    let body: unknown;
    try {
      body = await w.flights.result(flight);
    } catch (err) {
      if (keptEnd(w, err)) return;
      throw err;
    }
    const within = (b: unknown): unknown[] => windowItems(operationId, rule, readPage(operationId, rule, b, flight.count).items, flight.start as bigint, flight.end!);
    const whole = await untilWhole(body, (b) => w.complete && pastFloor(w, b) && within(b).length < flight.count, w.listing.leaveNode, () =>
      w.flights.result(launch(w, flight.start, flight.count)),
    );
    const { pruned } = whole;
    const inside = within(whole.body);
    body = whole.body;
    found ||= inside.length > 0;
    empty = inside.length === 0 ? empty + 1 : 0;
    if (empty >= MAX_EMPTY_WINDOWS) {
      // Below items it did find, a node that has lost its older history without saying so; below the
      // newest page alone, one that claims a history it does not have. Either way not the whole history.
      if (found && !w.complete) return;
      throw new ResponseShapeError({ operationId, path: pointerText(rule.items), expected: `items below sequence number ${flight.end!}: ${empty} windows in a row held none` });
    }
    const more = !pruned && (flight.start as bigint) > 0n;
    yielded += inside.length;
    yield { items: inside, resume: more ? { kind: 'below', order: 'desc', at: flight.start as bigint } : undefined, info: infoOf(body) };
    if (pruned) throw pruned;
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
