/**
 * What the node stub's handlers share, whatever the version: the call a handler gets, the parsing of the
 * query parameters (a 400 naming the parameter, never a guess) and the page arithmetic over the data
 * model's ascending lists.
 */
import { readU64 } from '@x/common';
import { errorResponse, queryParam, type StubRequest, type StubResponse } from '../router.ts';
import type { AccountView, TxView } from './views.ts';

/** Default and maximum `count` of the transaction listings (the document's limits). */
export const DEFAULT_COUNT = 20;
export const MAX_TRANSACTION_COUNT = 100;

/** What a handler gets: the request, the shapes asked for, the address (canonical), its account and the path's other parameters. */
export interface NodeCall {
  readonly req: StubRequest;
  readonly live: boolean;
  readonly address: string;
  readonly account: AccountView | undefined;
  readonly params: Readonly<Record<string, string>>;
}

/** Answers one operation. */
export type Handler = (call: NodeCall) => StubResponse;

/** What a handler of an operation of the whole chain (no account in its path) gets. */
export interface ChainCall {
  readonly req: StubRequest;
  readonly live: boolean;
  readonly params: Readonly<Record<string, string>>;
  /** The stub's clock (Unix ms), read once per request: an answer that reads it says so in `x-stub-clock`. */
  now(): number;
}

/** Answers an operation of the whole chain: blocks, transactions by hash, events, views, tables, the node's facts. */
export type ChainHandler = (call: ChainCall) => StubResponse;

export type Parsed<T> = { ok: true; value: T } | { ok: false; response: StubResponse };

export const bad = (code: string, message: string): { ok: false; response: StubResponse } => ({
  ok: false,
  response: errorResponse(400, code, message),
});

/** A page size: `count` (v3's events: `limit`), default 20, at most `max`; 400 `invalid_<name>` or `<name>_out_of_range`. */
export function parseCount(query: URLSearchParams, max: number | undefined, name = 'count'): Parsed<number> {
  const raw = queryParam(query, name);
  if (raw === undefined) return { ok: true, value: DEFAULT_COUNT };
  if (typeof raw !== 'string') return bad(`invalid_${name}`, `${name} given more than once`);
  if (!/^[0-9]+$/.test(raw)) return bad(`invalid_${name}`, `${name} must be a non-negative integer, got '${raw}'`);
  const n = Number(raw);
  if (max !== undefined && n > max) {
    return bad(`${name}_out_of_range`, `${name} must be at most ${max} for this listing, got ${raw}`);
  }
  return { ok: true, value: n };
}

/** A boolean query parameter: `true` or `false` (absent: `fallback`); 400 `invalid_<name>` for anything else. */
export function parseFlag(query: URLSearchParams, name: string, fallback = false): Parsed<boolean> {
  const raw = queryParam(query, name);
  if (raw === undefined) return { ok: true, value: fallback };
  if (typeof raw !== 'string') return bad(`invalid_${name}`, `${name} given more than once`);
  if (raw !== 'true' && raw !== 'false') return bad(`invalid_${name}`, `${name} must be true or false, got '${raw}'`);
  return { ok: true, value: raw === 'true' };
}

/** A u64 query parameter (`start`: a sequence number or coin cursor; v3's `block_height`); 400 `invalid_<name>`. */
export function parseU64Param(query: URLSearchParams, name = 'start'): Parsed<bigint | undefined> {
  const raw = queryParam(query, name);
  if (raw === undefined) return { ok: true, value: undefined };
  if (typeof raw !== 'string') return bad(`invalid_${name}`, `${name} given more than once`);
  const value = readU64(raw);
  if (value === undefined) return bad(`invalid_${name}`, `${name} must be an unsigned 64-bit integer, got '${raw}'`);
  return { ok: true, value };
}

/** A module/resource listing cursor: hex bytes (v1: the lowercase hex of the cursor array; v2, v3: as returned). */
export function parseHexStart(query: URLSearchParams): Parsed<string | undefined> {
  const raw = queryParam(query, 'start');
  if (raw === undefined) return { ok: true, value: undefined };
  if (typeof raw !== 'string') return bad('invalid_start', 'start given more than once');
  const hex = raw.startsWith('0x') ? raw.slice(2) : raw;
  // Not `^([0-9a-fA-F]{2})*$`: V8 keeps a backtrack entry per repetition of a group, and a start of
  // megabytes (in memory, where no header limit applies) overflowed its stack (a 500).
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    return bad('invalid_start', `start must be the hex-encoded bytes of a cursor, got '${raw}'`);
  }
  return { ok: true, value: hex.toLowerCase() };
}

/** Index of the first transaction whose cursor is >= start (binary search over an ascending list). */
export function lowerBound(list: readonly TxView[], start: bigint): number {
  if (start > BigInt(Number.MAX_SAFE_INTEGER)) return list.length;
  const s = Number(start);
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as TxView).cursor < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A page of a list sorted by key: `count` items after the key `start` (exclusive), and whether more follow. */
export function keyPage<T>(entries: readonly T[], keyOf: (e: T) => string, count: number, start: string | undefined) {
  let from = 0;
  if (start !== undefined) {
    while (from < entries.length && keyOf(entries[from] as T) <= start) from++;
  }
  const items = entries.slice(from, from + count);
  const last = items[items.length - 1];
  return {
    items,
    /** Key of the last returned item, else the start given, else '' (nothing seen yet). */
    lastKey: last === undefined ? (start ?? '') : keyOf(last),
    more: from + items.length < entries.length,
  };
}
