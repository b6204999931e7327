import { checkInteger, checkU64, HistoryPrunedError, InvalidArgumentError, readU64, ResponseShapeError, show, type NodeAffinity, type OperationSpec } from '@x/client-core';
import { Flights, paramValue, pointerValue, type Flight } from '@x/client-core/internal';
import type { Caller, U64Input } from './types.js';
import { MAX_CONCURRENCY, type IterateOptions, type Walk, type WalkPage } from './walk.js';
import { pageInfo } from './page-info.js';
import { positionOf, resumeToken } from './resume.js';

/**
 * Options of a walk over a range of heights (`walkBlocksV3`, `node.v3.blocks`): the range, its order, and
 * how many requests at once. Heights are predictable, so up to `concurrency` blocks are fetched ahead in
 * either order, and they come in order.
 */
export type RangeWalkOptions = Omit<IterateOptions, 'pageSize'> & {
  /**
   * The lowest height, inclusive. Default: 0. Below the oldest block a node keeps, the blocks come from a
   * node that keeps them; where none does, the walk ends with `HistoryPrunedError`, unless `history:
   * 'kept'`: then a walk from the default starts at the oldest block kept (once: a node whose history
   * keeps moving up is the error), and a newest-first walk ends there.
   */
  start_height?: U64Input | undefined;
  /** The height the range ends before, exclusive. Default: one above the latest block, read when the walk starts. */
  end_height?: U64Input | undefined;
  /** `asc` (default) from the lowest height up, or `desc` from the highest down. */
  order?: 'asc' | 'desc' | undefined;
};

/** What a range walk reads: the operation of one height, and the one that answers the latest item. */
export type RangeSpec = {
  readonly operationId: string;
  readonly op: OperationSpec;
  /** The u64 path parameter the walk steps through. */
  readonly parameter: string;
  readonly latestId: string;
  readonly latest: OperationSpec;
  /** Where an answer holds its own height (JSON Pointer segments): checked against the height asked. */
  readonly pointer: readonly string[];
};

/** A u64 option as a bigint, checked as the operation's u64 parameters are. */
function u64(name: string, value: U64Input): bigint {
  return BigInt(checkU64(name, value));
}

/** The height an answer holds at `pointer` (a u64), or a `ResponseShapeError`. */
function heightOf(spec: { operationId: string; pointer: readonly string[] }, body: unknown): bigint {
  const height = readU64(pointerValue(body, spec.pointer, spec.operationId));
  if (height === undefined) throw new ResponseShapeError({ operationId: spec.operationId, path: `/${spec.pointer.join('/')}`, expected: 'a height (u64)' });
  return height;
}

/**
 * Every item of a range of heights, one call per height (blocks), in order, `concurrency` calls ahead.
 * Same guarantees as the listing walks: options checked before any request, bounded memory (at most
 * `concurrency` answers held), a `break` or the caller's abort cancels what is in flight, every call
 * goes to one node while it answers, and pruned history is never a silent end (see `history`). An answer
 * for another height than asked is a `ResponseShapeError`. Its pages (`pages()`) are one item each, with
 * the `resume` to go on after it.
 *
 * @example
 * ```ts
 * for await (const block of walkRange(http(), spec, {}, { start_height: 100, end_height: 110 })) console.log(block);
 * ```
 */
export function walkRange(client: Caller, spec: RangeSpec, fixed: Readonly<Record<string, unknown>>, options: RangeWalkOptions & Record<string, unknown> = {}): Walk<unknown> {
  async function* items(): AsyncGenerator<unknown, void, undefined> {
    for await (const page of heights(client, spec, fixed, options)) yield page.items[0];
  }
  return Object.assign(items(), { pages: () => heights(client, spec, fixed, options) });
}

/**
 * How many times a walk from the default start (`history: 'kept'`) moves up to a node's oldest block: once,
 * and once more for a node that pruned further while asked. A node whose every 410 names a block just
 * above the height asked would otherwise lead the walk up one height per request.
 */
const MAX_MOVES_UP = 2;

async function* heights(client: Caller, spec: RangeSpec, fixed: Readonly<Record<string, unknown>>, options: RangeWalkOptions & Record<string, unknown>): AsyncGenerator<WalkPage<unknown>, void, undefined> {
  const order = options.order ?? 'asc';
  if (order !== 'asc' && order !== 'desc') throw new InvalidArgumentError('order', `must be 'asc' or 'desc', got ${show(order)}`);
  if ((options as IterateOptions).pageSize !== undefined) throw new InvalidArgumentError('pageSize', 'is not an option of a walk over heights: each height is one request');
  const history = options.history ?? 'complete';
  if (history !== 'complete' && history !== 'kept') throw new InvalidArgumentError('history', `must be 'complete' or 'kept', got ${show(history)}`);
  const limit = options.limit === undefined ? Infinity : checkInteger('limit', options.limit, 0, Number.MAX_SAFE_INTEGER);
  const concurrency = checkInteger('concurrency', options.concurrency ?? 1, 1, MAX_CONCURRENCY);
  const floorGiven = options.start_height !== undefined;
  let low = floorGiven ? u64('start_height', options.start_height!) : 0n;
  let high = options.end_height === undefined ? undefined : u64('end_height', options.end_height);
  if (high !== undefined && high < low) throw new InvalidArgumentError('end_height', `must not be below start_height (${low}), got ${high}`);
  if (options.resume !== undefined) {
    // Ascending, the next height to ask; newest first, the height the rest ends below.
    const at = positionOf(options.resume, ['height'], order).at as bigint;
    if (order === 'asc') low = at > low ? at : low;
    else high = high === undefined || at < high ? at : high;
  }
  // The operation's query parameters (a block's transactions, their kind) go with every call, checked
  // here, before the latest block is asked for.
  const filters: Record<string, unknown> = {};
  for (const p of spec.op.params) if (p.in === 'query') filters[p.name] = paramValue(p, options[p.name]);
  if (limit === 0) return;
  options.signal?.throwIfAborted();
  const affinity: NodeAffinity = {};
  const flights = new Flights<unknown>(options.signal);
  const queue: { height: bigint; flight: Flight<unknown> }[] = [];
  try {
    if (high === undefined) {
      const latest = await flights.result(flights.launch((signal) => client.call(spec.latestId, spec.latest, {}, { signal }, affinity)));
      high = heightOf({ operationId: spec.latestId, pointer: spec.pointer }, latest) + 1n;
    }
    const step = order === 'asc' ? 1n : -1n;
    let next = order === 'asc' ? low : high - 1n;
    const inRange = (h: bigint): boolean => h >= low && h < high!;
    let yielded = 0;
    let moves = 0;
    while (true) {
      while (queue.length < concurrency && inRange(next) && yielded + queue.length < limit) {
        const height = next;
        queue.push({ height, flight: flights.launch((signal) => client.call(spec.operationId, spec.op, { ...fixed, ...filters, [spec.parameter]: height }, { signal }, affinity)) });
        next += step;
      }
      const head = queue.shift();
      if (!head) return;
      let item: unknown;
      try {
        item = await flights.result(head.flight);
      } catch (err) {
        // Every node has pruned the height (with several, the call has asked each). The whole range, or an
        // explicit start, is the error; with history: 'kept', newest first ends there, and ascending from
        // the default start moves up to the oldest block kept, only at its very first height (a node that
        // prunes what the walk was in the middle of would make it skip heights) and a bounded number of times.
        if (!(err instanceof HistoryPrunedError) || history === 'complete' || floorGiven) throw err;
        if (order === 'desc') return;
        const oldest = err.oldestBlock;
        if (yielded > 0 || head.height !== low || oldest === undefined || oldest <= head.height || ++moves > MAX_MOVES_UP) throw err;
        flights.drop(queue.splice(0).map((q) => q.flight));
        low = next = oldest;
        continue;
      }
      if (heightOf(spec, item) !== head.height) throw new ResponseShapeError({ operationId: spec.operationId, path: `/${spec.pointer.join('/')}`, expected: `the height asked for, ${head.height}` });
      // An answer that arrived before the caller's abort is not handed out after it.
      options.signal?.throwIfAborted();
      yielded++;
      // Ascending, the next height even at the end, where new blocks will come (a walk resumed past
      // `end_height` is empty); newest first, nothing is left below the range's start.
      const after = order === 'asc' ? head.height + 1n : head.height;
      const more = order === 'asc' || after > low;
      const info = pageInfo(item);
      yield { items: [item], resume: more ? resumeToken({ kind: 'height', order, at: after }) : undefined, oldestBlock: info?.oldestBlock, chainId: info?.chainId };
    }
  } finally {
    flights.close();
  }
}
