/**
 * The node RPC stub: account operations v1 and v2 over the synthetic chain, with the document's paging
 * semantics and the choices README.md lists where the document is silent.
 */
import { StubEngine } from '../engine.ts';
import { StubArgumentError } from '../errors.ts';
import type { StubFetchOptions } from '../fetch.ts';
import { canonicalAddress, matchRoute, paging, readU64, type PagedOperationId } from '@x/common';
import { fetchOf, type NodeOperationId, type StubFetch, type StubHandle } from '../handles.ts';
import {
  errorResponse,
  handlerOf,
  methodNotAllowed,
  headerValue,
  jsonResponse,
  notImplemented,
  pathSegments,
  queryParam,
  rawJsonResponse,
  type Router,
  type StubRequest,
  type StubResponse,
} from '../router.ts';
import { hexToByteList, seedToU32 } from '../random.ts';
import { STUB_ACCOUNTS } from './accounts.ts';
import { chainFor } from './chain.ts';
import { IDENTIFIER, RESOURCE_TYPE, parseTypeTag, structTagToString } from './move.ts';
import {
  SHAPES,
  SHAPES_HEADER,
  liveCursorV1,
  liveErrorBody,
  liveModuleAbi,
  liveModuleBytecode,
  liveTransaction,
  type Shapes,
} from './live.ts';
import { moduleKeyHex, resourceKeyHex } from './resources.ts';
import { buildUserAccounts, userAddress, type AccountSpec } from './user-accounts.ts';
import { seededViews, type AccountView, type TxView, type Version } from './views.ts';

/** The node stub's data, on either transport. */
export interface NodeStubOptions {
  /** Seed of the synthetic chain (number or string). Default 1. */
  seed?: number | string;
  /**
   * The forms of the answers: `documented` (default, the node document) or `live` (what real nodes
   * send). A request's `x-stub-shapes` header overrides it.
   */
  shapes?: Shapes;
  /** Accounts of your own, by name, next to the seeded ones (see `AccountSpec`). */
  accounts?: Readonly<Record<string, AccountSpec>>;
  /** How many requests `requests` keeps, the newest: default 1,000 (`DEFAULT_REQUEST_LOG_SIZE`); 0 keeps none. */
  requestLogSize?: number;
}

/** What a node stub has on either transport, beyond the common controls. */
export interface NodeStubInfo {
  /** The seed as the unsigned 32-bit integer the chain was built from. */
  readonly seed: number;
  /** The seeded accounts by name. */
  readonly accounts: typeof STUB_ACCOUNTS & Readonly<Record<string, string>>;
  /** The default shapes (a request's `x-stub-shapes` overrides it). */
  readonly shapes: Shapes;
}

/** The node stub on loopback: `startNodeStub()`. */
export interface NodeStubHandle extends StubHandle<NodeOperationId>, NodeStubInfo {}

/** The node stub in memory: `createNodeStubFetch()`, a `fetch` to pass to `createNodeClient`. */
export type NodeStubFetch = StubFetch<NodeOperationId> & NodeStubInfo;

/** The node stub's default origin in memory: the local network node of the document. */
export const NODE_STUB_URL = 'http://127.0.0.1:27000';

/** Default and maximum `count` of the transaction listings (the document's limits). */
export const DEFAULT_COUNT = 20;
export const MAX_TRANSACTION_COUNT = 100;

type Parsed<T> = { ok: true; value: T } | { ok: false; response: StubResponse };

const bad = (code: string, message: string): { ok: false; response: StubResponse } => ({
  ok: false,
  response: errorResponse(400, code, message),
});

function parseCount(query: URLSearchParams, max: number | undefined): Parsed<number> {
  const raw = queryParam(query, 'count');
  if (raw === undefined) return { ok: true, value: DEFAULT_COUNT };
  if (typeof raw !== 'string') return bad('invalid_count', 'count given more than once');
  if (!/^[0-9]+$/.test(raw)) return bad('invalid_count', `count must be a non-negative integer, got '${raw}'`);
  const n = Number(raw);
  if (max !== undefined && n > max) {
    return bad('count_out_of_range', `count must be at most ${max} for this listing, got ${raw}`);
  }
  return { ok: true, value: n };
}

/** A u64 `start` (sequence number or coin cursor). */
function parseU64Start(query: URLSearchParams): Parsed<bigint | undefined> {
  const raw = queryParam(query, 'start');
  if (raw === undefined) return { ok: true, value: undefined };
  if (typeof raw !== 'string') return bad('invalid_start', 'start given more than once');
  const start = readU64(raw);
  if (start === undefined) return bad('invalid_start', `start must be an unsigned 64-bit integer, got '${raw}'`);
  return { ok: true, value: start };
}

/** A module/resource listing cursor: hex bytes (v1: the lowercase hex of the cursor array; v2: as returned). */
function parseHexStart(query: URLSearchParams): Parsed<string | undefined> {
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

type Body = Record<string, unknown>;
/** The rule of one of the node's listings, exactly as generated (its literal types drive `parseStart`). */
type ListingRule = (typeof paging)[PagedOperationId];

/** What a `start` of each encoding parses to; a branch's rule types its `start`, so the parser cannot drift from the rule. */
type StartOf<E> = E extends 'u64' ? bigint : string;

/** `start` as the rule encodes it: a u64, or the hex of a key cursor (v1 bytes, v2 text). */
function parseStart<R extends ListingRule>(rule: R, query: URLSearchParams): Parsed<StartOf<R['next']['encoding']> | undefined> {
  return (rule.next.encoding === 'u64' ? parseU64Start(query) : parseHexStart(query)) as Parsed<StartOf<R['next']['encoding']> | undefined>;
}

/** A key cursor as the rule encodes it: `u8-bytes-or-hex` is the bytes in the documented shapes, their hex in the live ones. */
function keyCursor(rule: ListingRule, key: string | null, live: boolean): number[] | string | null {
  if (key === null || rule.next.encoding !== 'u8-bytes-or-hex') return key;
  return live ? liveCursorV1(hexToByteList(key)) : hexToByteList(key);
}

/** Sets `value` at the JSON Pointer `segments` below `body`, making the objects on the way. */
function setAt(body: Body, segments: readonly string[], value: unknown): void {
  let cur = body;
  for (const s of segments.slice(0, -1)) cur = (cur[s] ??= {}) as Body;
  cur[segments[segments.length - 1] as string] = value;
}

/** A listing's body: the items where its rule says, then the cursor when the response carries one (the documented key order). */
function listing(rule: ListingRule, items: unknown[], cursor?: unknown): Body {
  const body: Body = {};
  setAt(body, rule.items, items);
  if (rule.next.from === 'response') setAt(body, rule.next.pointer, cursor);
  return body;
}

/**
 * JSON with bigints as exact u64 numbers: `JSON.stringify` refuses bigints, and a Number rounds above 2^53.
 * A NUL-led string stands in for each while stringifying, so a body's own strings must not start with NUL.
 */
const exactU64Json = (body: Body): string =>
  JSON.stringify(body, (_, value: unknown) => (typeof value === 'bigint' ? `\u0000${value}` : value)).replace(/"\\u0000([0-9]+)"/g, '$1');

/** Index of the first transaction whose cursor is >= start (binary search over an ascending list). */
function lowerBound(list: readonly TxView[], start: bigint): number {
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

/** `count` most recent, descending (no start), or `count` from index `from`, ascending. */
function page<T>(list: readonly T[], count: number, from: number | undefined): T[] {
  if (from === undefined) return count === 0 ? [] : list.slice(Math.max(0, list.length - count)).reverse();
  return list.slice(from, from + count);
}

function keyPage<T>(entries: readonly T[], keyOf: (e: T) => string, count: number, start: string | undefined) {
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

/**
 * The node router: answers in the request's `x-stub-shapes` (`documented` or `live`), else in
 * `shapes`. A bad header value is a 400.
 */
function createNodeRouter(seed: number, shapes: Shapes = 'documented', accounts: Readonly<Record<string, AccountSpec>> = {}): Router {
  if (!SHAPES.includes(shapes)) throw new StubArgumentError('shapes', `must be documented or live, got '${String(shapes)}'`);
  const route = createShapedRouter(seed, buildUserAccounts(chainFor(seed), accounts));
  return (req) => {
    const asked = headerValue(req.headers, SHAPES_HEADER);
    const known = asked === undefined || SHAPES.includes(asked as Shapes);
    const live = known && (asked ?? shapes) === 'live';
    let res: StubResponse;
    // The method first: a 405 whatever the headers (in the shape asked for, when that one is known).
    if (req.method !== 'GET') res = methodNotAllowed();
    else if (!known) return errorResponse(400, 'invalid_shapes', `${SHAPES_HEADER} must be documented or live, got '${asked}'`);
    else res = route(req, live);
    // Node errors in the live shape are `{ message }` (S3).
    if (live && res.status >= 400 && res.contentType === 'application/json') {
      return { ...res, body: JSON.stringify(liveErrorBody(JSON.parse(res.body) as Record<string, unknown>)) };
    }
    return res;
  };
}

/** What a handler gets: the request, the shapes asked for, the address (canonical), its account and the path's other parameters. */
interface NodeCall {
  readonly req: StubRequest;
  readonly live: boolean;
  readonly address: string;
  readonly account: AccountView | undefined;
  readonly params: Readonly<Record<string, string>>;
}

/** Answers one operation. */
type Handler = (call: NodeCall) => StubResponse;

function createShapedRouter(seed: number, users: Map<string, AccountView>): (req: StubRequest, live: boolean) => StubResponse {
  const seeded = seededViews(chainFor(seed));
  const viewOf = (address: string): AccountView | undefined => users.get(address) ?? seeded(address);
  const notFound = (what: string): StubResponse => errorResponse(404, 'not_found', `no such path: ${what}`);
  const accountNotFound = (address: string): StubResponse =>
    errorResponse(404, 'account_not_found', `account ${address} not found`);

  /** A body in the shape the request asked for. */
  const shaped = <T extends Body>(live: boolean, body: T, toLive: (b: T) => Body): Body => (live ? toLive(body) : body);
  const rendered = (v: Version, live: boolean) => (tx: TxView): Body => shaped(live, tx.render(v), liveTransaction);

  const getAccount = (v: Version): Handler => ({ address, account }) => {
    if (account === undefined) return v === 'v1' ? jsonResponse(200, null) : accountNotFound(address);
    return jsonResponse(200, { sequence_number: account.sequenceNumber, authentication_key: account.authenticationKey });
  };

  // --- transactions (sent, by sequence number) ----------------------------------------------------------
  const listTransactions = (v: Version, rule: (typeof paging)['listTransactionsV1' | 'listTransactionsV2']): Handler => ({ req, live, address, account }) => {
    const count = parseCount(req.query, MAX_TRANSACTION_COUNT);
    if (!count.ok) return count.response;
    const start = parseStart(rule, req.query);
    if (!start.ok) return start.response;
    if (account === undefined) return v === 'v1' ? jsonResponse(200, listing(rule, [])) : accountNotFound(address);
    const list = account.sent;
    const from = start.value === undefined ? undefined : start.value >= BigInt(list.length) ? list.length : Number(start.value);
    return jsonResponse(200, listing(rule, page(list, count.value, from).map(rendered(v, live))));
  };

  // --- coin transactions (sent and received, by coin cursor) --------------------------------------------
  const listCoinTransactions = (v: Version, rule: (typeof paging)['listCoinTransactionsV1' | 'listCoinTransactionsV2']): Handler => ({ req, live, address, account }) => {
    const count = parseCount(req.query, MAX_TRANSACTION_COUNT);
    if (!count.ok) return count.response;
    const start = parseStart(rule, req.query);
    if (!start.ok) return start.response;
    if (account === undefined && v === 'v2') return accountNotFound(address);
    const list = account?.coin ?? [];
    const from = start.value === undefined ? undefined : lowerBound(list, start.value);
    const items = page(list, count.value, from);
    if (items.length > 0) {
      // Next page starts right after the newest transaction returned (ascending or descending page).
      const cursor = Math.max(...items.map((tx) => tx.cursor)) + 1;
      return jsonResponse(200, listing(rule, items.map(rendered(v, live)), cursor));
    }
    // Nothing returned: the cursor stays where the client asked (exact u64 text, even above 2^53).
    return rawJsonResponse(200, exactU64Json(listing(rule, [], start.value ?? 0n)));
  };

  // --- modules --------------------------------------------------------------------------------------------
  const getModule = (v: Version): Handler => ({ live, address, account, params }) => {
    const name = params.module_name as string;
    if (!IDENTIFIER.test(name)) {
      return errorResponse(400, 'invalid_module_name', `module_name must be a Move identifier, got '${name}'`);
    }
    const entry = account?.modules.find((m) => m.name === name);
    if (v === 'v1') return jsonResponse(200, entry === undefined ? null : shaped(live, entry.abi() as Body, liveModuleAbi));
    if (account === undefined) return accountNotFound(address);
    if (entry === undefined) return errorResponse(404, 'module_not_found', `module ${address}::${name} not found`);
    return jsonResponse(200, shaped(live, entry.bytecode() as Body, liveModuleBytecode));
  };

  const listModules = (v: Version, rule: (typeof paging)['listModulesV1' | 'listModulesV2']): Handler => ({ req, live, address, account }) => {
    const count = parseCount(req.query, undefined);
    if (!count.ok) return count.response;
    const start = parseStart(rule, req.query);
    if (!start.ok) return start.response;
    if (account === undefined && v === 'v2') return accountNotFound(address);
    const p = keyPage(account?.modules ?? [], (m) => moduleKeyHex(address, m.name), count.value, start.value);
    const items =
      v === 'v1'
        ? p.items.map((m) => [m.name, { address, name: m.name }])
        : p.items.map((m) => shaped(live, m.bytecode() as Body, liveModuleBytecode));
    return jsonResponse(200, listing(rule, items, keyCursor(rule, p.more ? p.lastKey : null, live)));
  };

  // --- resources ------------------------------------------------------------------------------------------
  const getResource = (v: Version): Handler => ({ live, address, account, params }) => {
    const name = params.resource_type as string;
    if (!RESOURCE_TYPE.test(name)) {
      return errorResponse(400, 'invalid_resource_type', `resource_type must match ^0x[0-9a-zA-Z:_<>]+$, got '${name}'`);
    }
    const parsed = parseTypeTag(name);
    if (parsed === undefined || typeof parsed === 'string' || !('struct' in parsed)) {
      return errorResponse(400, 'invalid_resource_type', `resource_type is not a Move struct type: '${name}'`);
    }
    const type = structTagToString(parsed.struct);
    const entry = account?.resources.find((r) => r.type === type);
    if (v === 'v1') {
      if (entry === undefined) return jsonResponse(200, null);
      // Live nodes answer the resource's struct JSON itself, without the one-key MoveValue wrapper.
      return jsonResponse(200, { result: live ? [entry.data()] : entry.v1Result() });
    }
    if (account === undefined) return accountNotFound(address);
    if (entry === undefined) return errorResponse(404, 'resource_not_found', `resource ${type} not found at ${address}`);
    return jsonResponse(200, { type: entry.type, data: entry.data() });
  };

  const listResources = (v: Version, rule: (typeof paging)['listResourcesV1' | 'listResourcesV2']): Handler => ({ req, live, address, account }) => {
    const count = parseCount(req.query, undefined);
    if (!count.ok) return count.response;
    const start = parseStart(rule, req.query);
    if (!start.ok) return start.response;
    if (account === undefined && v === 'v2') return accountNotFound(address);
    const p = keyPage(account?.resources ?? [], (r) => resourceKeyHex(address, r.type), count.value, start.value);
    const items = v === 'v1' ? p.items.map((r) => [r.type, r.tag]) : p.items.map((r) => ({ type: r.type, data: r.data() }));
    // v2 carries the last key even when nothing follows, as documented (README: v2 resource cursor).
    return jsonResponse(200, listing(rule, items, keyCursor(rule, p.more || v === 'v2' ? p.lastKey : null, live)));
  };

  /**
   * The answers of the node's operations, by operation id: the data model, written by hand. Routing comes
   * from the route table; an operation of the table missing here is answered 501, naming it (the routes
   * test asks every operation of the table for a 200). Listings read their own paging rule.
   */
  const handlers: { readonly [Id in NodeOperationId]?: Handler } = {
    getAccountV1: getAccount('v1'),
    getAccountV2: getAccount('v2'),
    listTransactionsV1: listTransactions('v1', paging.listTransactionsV1),
    listTransactionsV2: listTransactions('v2', paging.listTransactionsV2),
    listCoinTransactionsV1: listCoinTransactions('v1', paging.listCoinTransactionsV1),
    listCoinTransactionsV2: listCoinTransactions('v2', paging.listCoinTransactionsV2),
    getModuleV1: getModule('v1'),
    getModuleV2: getModule('v2'),
    listModulesV1: listModules('v1', paging.listModulesV1),
    listModulesV2: listModules('v2', paging.listModulesV2),
    getResourceV1: getResource('v1'),
    getResourceV2: getResource('v2'),
    listResourcesV1: listResources('v1', paging.listResourcesV1),
    listResourcesV2: listResources('v2', paging.listResourcesV2),
  };

  return (req, live) => {
    if (pathSegments(req.path) === undefined) return errorResponse(400, 'invalid_path', 'path is not valid percent-encoding');
    // The generated route table's matcher, as the engine's; an empty address is matched, to be answered as a bad address below.
    const match = matchRoute(req.path, { service: 'node-rpc', emptyParams: true });
    // Only the address may be empty (to be answered 400 below): an empty segment for any other parameter is no path.
    if (match === undefined || Object.entries(match.params).some(([name, value]) => name !== 'address' && value === '')) return notFound(req.path);
    const handler = handlerOf(handlers, match.route.operationId);
    if (handler === undefined) return notImplemented(match.route.operationId);
    const addressRaw = match.params.address as string;
    const address = canonicalAddress(addressRaw);
    if (address === undefined) {
      return errorResponse(400, 'invalid_address', `address must be 1 to 64 hex digits with or without 0x, got '${addressRaw}'`);
    }
    return handler({ req, live, address, account: viewOf(address), params: match.params });
  };
}

export function nodeEngine(options: NodeStubOptions): { engine: StubEngine; info: NodeStubInfo } {
  const seed = seedToU32(options.seed ?? 1);
  const shapes = options.shapes ?? 'documented';
  const users = options.accounts ?? {};
  const route = createNodeRouter(seed, shapes, users);
  // Names of user accounts next to the seeded ones; the router has checked them.
  const accounts = { ...STUB_ACCOUNTS, ...Object.fromEntries(Object.keys(users).map((n) => [n, userAddress(n, users[n] as AccountSpec) as string])) };
  return { engine: new StubEngine('node-rpc', route, options.requestLogSize), info: { seed, accounts, shapes } };
}

/**
 * The node RPC stub as an in-memory `fetch`: no socket, the same router, bodies, headers, faults and
 * CORS headers as `startNodeStub`, in Node and in browsers.
 *
 * @example
 * ```ts
 * const stub = createNodeStubFetch({ shapes: 'live' });
 * const node = createNodeClient({ baseUrl: stub.url, fetch: stub });
 * stub.failNext('getAccountV2', 503);
 * await node.v2.getAccount(stub.accounts.alice); // retried once, then answered
 * ```
 */
export function createNodeStubFetch(options: NodeStubOptions & StubFetchOptions = {}): NodeStubFetch {
  const { engine, info } = nodeEngine(options);
  return fetchOf(engine, NODE_STUB_URL, options, info);
}
