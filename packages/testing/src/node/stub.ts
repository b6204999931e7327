/**
 * The node RPC stub: account operations v1, v2 and v3, and the reads of the whole chain (blocks,
 * transactions by hash, events, views, tables, the node's facts), over the synthetic chain, with the
 * document's paging semantics and the choices README.md lists where the document is silent.
 */
import { StubEngine } from '../engine.ts';
import { StubArgumentError } from '../errors.ts';
import type { StubFetchOptions } from '../fetch.ts';
import { canonicalAddress, matchRoute, paging, type PagedOperationId } from '@x/common';
import { fetchOf, type NodeOperationId, type StubFetch, type StubHandle } from '../handles.ts';
import {
  errorResponse,
  handlerOf,
  methodNotAllowed,
  headerValue,
  jsonResponse,
  pathSegments,
  rawJsonResponse,
  type Router,
  type StubRequest,
  type StubResponse,
  unhandled,
} from '../router.ts';
import { nodeRpcSamples } from '../generated/samples.ts';
import { clockHeader } from '../clock.ts';
import { createBlockFeed, type NodeStream } from './ws-feed.ts';
import { hexToByteList, seedToU32 } from '../random.ts';
import { CHAIN_ACCOUNTS, STUB_ACCOUNTS } from './accounts.ts';
import { CHAIN_ID, chainFor } from './chain.ts';
import {
  DEFAULT_COUNT,
  MAX_TRANSACTION_COUNT,
  keyPage,
  lowerBound,
  parseCount,
  parseHexStart,
  parseU64Param,
  type ChainHandler,
  type Handler,
  type Parsed,
} from './handling.ts';
import { blockReads } from './blocks.ts';
import { createFaucet } from './faucet.ts';
import { eventReads } from './events.ts';
import { createLedger } from './ledger.ts';
import { nodeInfoReads } from './node-info.ts';
import { seededTables, tableReads } from './tables.ts';
import { viewReads } from './view-functions.ts';
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
import { fungibleStoreAddress } from './stores.ts';
import { buildUserAccounts, userAddress, type AccountSpec } from './user-accounts.ts';
import { CHAIN_ID_HEADER, v3Listings } from './v3.ts';
import { seededTxViews, seededViews, type AccountView, type TxView, type Version } from './views.ts';

export { DEFAULT_COUNT, MAX_TRANSACTION_COUNT };

/**
 * The chain id of the stub's chain unless its `chainId` option says otherwise: 6, the id its transactions
 * have always carried (testnet's; mainnet is 8). Answers but v1's account reads send it as `x-supra-chain-id`.
 */
export const DEFAULT_CHAIN_ID = CHAIN_ID;

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
  /**
   * The chain id (0 to 255): the `x-supra-chain-id` header (of every answer but v1's account reads), and the `chain_id` of every transaction's
   * header and block header and of `0x1::chain_id::ChainId`, in every version. Default 6 (`DEFAULT_CHAIN_ID`).
   */
  chainId?: number;
  /**
   * The lowest block height whose history the stub keeps: v3 history listings (transactions, coin and
   * automated transactions) that start below it answer 410 with `x-supra-oldest-block`, and pages that run
   * into it end there. Default 0: nothing is pruned. v1 and v2 are not pruned.
   */
  oldestBlock?: number;
  /**
   * The stub's clock in Unix ms, read at each request that needs it. Default: the wall clock (`Date.now()`),
   * as the price stub's. Blocks go on after the chain's last transaction block as it advances: the latest
   * block is the last one made at or before it (`getLatestBlockV3`, `0x1::block::get_current_block_height`),
   * and `0x1::timestamp::now_microseconds` reads it. Answers that read it say its reading in `x-stub-clock`.
   * Fix it for tests that must see the same latest block every run: `now: () => Date.UTC(2024, 10, 20)`.
   */
  now?: () => number;
}

/** What a node stub has on either transport, beyond the common controls. */
export interface NodeStubInfo {
  /** The seed as the unsigned 32-bit integer the chain was built from. */
  readonly seed: number;
  /** The seeded accounts by name. */
  readonly accounts: typeof STUB_ACCOUNTS & Readonly<Record<string, string>>;
  /** The default shapes (a request's `x-stub-shapes` overrides it). */
  readonly shapes: Shapes;
  /** The chain id (`x-supra-chain-id` of v3, `chain_id` of the records). */
  readonly chainId: number;
  /** The lowest block height whose history the stub keeps (`x-supra-oldest-block` of v3; 0: nothing pruned). */
  readonly oldestBlock: number;
  /** The stub's clock (Unix ms), which the latest block follows. */
  now(): number;
}

/** The node stub on loopback: `startNodeStub()`. */
export interface NodeStubHandle extends StubHandle<NodeOperationId>, NodeStubInfo {
  /** Its WebSocket, `/rpc/v4/ws` (`ws://` + the stub's host): blocks pushed as its clock makes them, and the faults a test drives. */
  readonly stream: NodeStream;
}

/**
 * The node stub in memory: `createNodeStubFetch()`, a `fetch` to pass to `createNodeClient`. Its `stream`
 * is the block stream's controls; `nodeStreamHandlers(stub)` of `@x/testing/msw` serves that stream as
 * `ws://<stub origin>/rpc/v4/ws` in a page (MSW's WebSocket API), on the stub's clock.
 */
export type NodeStubFetch = StubFetch<NodeOperationId> & NodeStubInfo & { readonly stream: NodeStream };

/** The node stub's default origin in memory: the local network node of the document. */
export const NODE_STUB_URL = 'http://127.0.0.1:27000';

type Body = Record<string, unknown>;
/** The rule of one of the node's listings, exactly as generated (its literal types drive `parseStart`). */
type ListingRule = (typeof paging)[PagedOperationId];

/** What a `start` of each encoding parses to; a branch's rule types its `start`, so the parser cannot drift from the rule. */
type StartOf<E> = E extends 'u64' ? bigint : string;

/** `start` as the rule encodes it: a u64, or the hex of a key cursor (v1 bytes, v2 text). */
function parseStart<R extends ListingRule>(rule: R, query: URLSearchParams): Parsed<StartOf<R['next']['encoding']> | undefined> {
  return (rule.next.encoding === 'u64' ? parseU64Param(query) : parseHexStart(query)) as Parsed<StartOf<R['next']['encoding']> | undefined>;
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

/** `count` most recent, descending (no start), or `count` from index `from`, ascending. */
function page<T>(list: readonly T[], count: number, from: number | undefined): T[] {
  if (from === undefined) return count === 0 ? [] : list.slice(Math.max(0, list.length - count)).reverse();
  return list.slice(from, from + count);
}

/**
 * The node router: answers in the request's `x-stub-shapes` (`documented` or `live`), else in
 * `shapes`. A bad header value is a 400.
 */
function createNodeRouter(seed: number, shapes: Shapes, accounts: Readonly<Record<string, AccountSpec>>, chain: ChainOptions): Router {
  if (!SHAPES.includes(shapes)) throw new StubArgumentError('shapes', `must be documented or live, got '${String(shapes)}'`);
  const route = createShapedRouter(seed, buildUserAccounts(chainFor(seed), accounts, chain.chainId), chain);
  return (req) => {
    const asked = headerValue(req.headers, SHAPES_HEADER);
    const known = asked === undefined || SHAPES.includes(asked as Shapes);
    const live = known && (asked ?? shapes) === 'live';
    let res: StubResponse;
    // The method first: a 405 whatever the headers (in the shape asked for, when that one is known). A
    // path's method is its operation's: GET for the reads, POST for the view and table reads.
    const allowed = matchRoute(req.path, { service: 'node-rpc', emptyParams: true })?.route.method;
    if (allowed !== undefined && req.method !== allowed) res = methodNotAllowed(allowed);
    else if (!known) return errorResponse(400, 'invalid_shapes', `${SHAPES_HEADER} must be documented or live, got '${asked}'`);
    else res = route(req, live);
    // Node errors in the live shape are `{ message }` (S3).
    if (live && res.status >= 400 && res.contentType === 'application/json') {
      return { ...res, body: JSON.stringify(liveErrorBody(JSON.parse(res.body) as Record<string, unknown>)) };
    }
    return res;
  };
}

/** What a stub's options make of its chain beyond the seed. */
interface ChainOptions {
  readonly chainId: number;
  readonly oldestBlock: number;
  readonly clock: () => number;
}

/**
 * Account reads of v1: their answers never carry `x-supra-chain-id` (every other operation's do, v2's as the
 * node's served document declares; the spec's `ChainId` header says why).
 */
const ACCOUNT_READ_V1 = /^\/rpc\/v1\/accounts\//;

function createShapedRouter(seed: number, users: Map<string, AccountView>, { chainId, oldestBlock, clock }: ChainOptions): (req: StubRequest, live: boolean) => StubResponse {
  const chain = chainFor(seed);
  const txView = seededTxViews(chain, chainId);
  const seeded = seededViews(chain, chainId, txView);
  // The faucet's credits show in every read of an account (its CoinStore), the views included.
  const faucet = createFaucet(chainId, clock);
  const viewOf = (address: string): AccountView | undefined => faucet.view(address, users.get(address) ?? seeded(address));
  // Each account's primary fungible store, by the store's address (built on first use).
  let stores: Map<string, string> | undefined;
  const storeOwner = (address: string): AccountView | undefined => {
    stores ??= new Map([...CHAIN_ACCOUNTS.map((n) => STUB_ACCOUNTS[n] as string), ...users.keys()].map((owner) => [fungibleStoreAddress(owner), owner]));
    const owner = stores.get(address);
    return owner === undefined ? undefined : viewOf(owner);
  };
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
   * from the route table; an operation of the table missing here is answered with the generated sample of
   * its 200 schema, marked `x-stub-sample` (the routes test reports it). Listings read their own paging rule.
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
    // v3: the single reads answer as v2's; the listings are bare arrays (v3.ts).
    getAccountV3: getAccount('v2'),
    getModuleV3: getModule('v2'),
    getResourceV3: getResource('v2'),
    ...v3Listings({ oldestBlock, storeOwner }),
    ...faucet.handlers,
  };
  // The reads of the whole chain, over the ledger: every height a block, the test's accounts' transactions included.
  const ledger = createLedger(chain, txView, users);
  const chainHandlers: { readonly [Id in NodeOperationId]?: ChainHandler } = {
    ...blockReads({ ledger, chainId, oldestBlock }),
    ...eventReads(ledger, oldestBlock),
    ...viewReads({ account: viewOf, ledger, chainId }),
    ...tableReads(seededTables(seed)),
    ...nodeInfoReads(ledger, chainId),
    getFaucetTransactionV2: faucet.transaction((hash, live) => {
      const found = ledger.transaction(hash);
      return found !== undefined && 'tx' in found ? rendered('v2', live)(found.tx) : undefined;
    }),
  };
  const chainIdHeader = { [CHAIN_ID_HEADER]: String(chainId) };

  /** Answers a matched operation: an account's read, with its address checked, or a read of the whole chain. */
  const answer = (req: StubRequest, live: boolean, operationId: string, params: Readonly<Record<string, string>>, now: () => number): StubResponse => {
    if (!Object.hasOwn(params, 'address')) {
      const handler = handlerOf(chainHandlers, operationId);
      return handler === undefined ? unhandled(operationId, nodeRpcSamples) : handler({ req, live, params, now });
    }
    const handler = handlerOf(handlers, operationId);
    if (handler === undefined) return unhandled(operationId, nodeRpcSamples);
    const addressRaw = params.address as string;
    const address = canonicalAddress(addressRaw);
    if (address === undefined) return errorResponse(400, 'invalid_address', `address must be 1 to 64 hex digits with or without 0x, got '${addressRaw}'`);
    return handler({ req, live, address, account: viewOf(address), params });
  };

  return (req, live) => {
    if (pathSegments(req.path) === undefined) return errorResponse(400, 'invalid_path', 'path is not valid percent-encoding');
    // The generated route table's matcher, as the engine's; an empty address is matched, to be answered as a bad address below.
    const match = matchRoute(req.path, { service: 'node-rpc', emptyParams: true });
    // Only the address may be empty (to be answered 400 below): an empty segment for any other parameter is no path.
    if (match === undefined || Object.entries(match.params).some(([name, value]) => name !== 'address' && value === '')) return notFound(req.path);
    // The clock is read once per request, when an answer needs it, and that answer says its reading.
    let reading: number | undefined;
    const res = answer(req, live, match.route.operationId, match.params, () => (reading ??= clock()));
    const clocked = reading === undefined ? res : { ...res, headers: { ...clockHeader(reading), ...res.headers } };
    if (ACCOUNT_READ_V1.test(match.route.path)) return clocked;
    // Every v3 answer names its chain; but a resource read's 404 comes from the provider's proxy on live nodes, without it.
    if (live && res.status === 404 && match.route.operationId === 'getResourceV3') return clocked;
    return { ...clocked, headers: { ...chainIdHeader, ...clocked.headers } };
  };
}

export function nodeEngine(options: NodeStubOptions): { engine: StubEngine; info: NodeStubInfo; stream: ReturnType<typeof createBlockFeed> } {
  const seed = seedToU32(options.seed ?? 1);
  const shapes = options.shapes ?? 'documented';
  const users = options.accounts ?? {};
  const chainId = options.chainId ?? DEFAULT_CHAIN_ID;
  if (!Number.isInteger(chainId) || chainId < 0 || chainId > 255) throw new StubArgumentError('chainId', `must be an integer from 0 to 255 (a u8), got ${String(chainId)}`);
  const oldestBlock = options.oldestBlock ?? 0;
  if (!Number.isSafeInteger(oldestBlock) || oldestBlock < 0) throw new StubArgumentError('oldestBlock', `must be a non-negative integer (a block height), got ${String(oldestBlock)}`);
  if (options.now !== undefined && typeof options.now !== 'function') throw new StubArgumentError('now', `must be a function returning Unix ms, got ${typeof options.now}`);
  // Read when asked, so that the default follows fake timers that replace Date; `shift` is how far the
  // stream's `produce` moved it on.
  const base = options.now ?? (() => Date.now());
  let shift = 0;
  const clock = (): number => base() + shift;
  const route = createNodeRouter(seed, shapes, users, { chainId, oldestBlock, clock });
  const stream = createBlockFeed(route, clock, (ms) => (shift += ms));
  // Names of user accounts next to the seeded ones; the router has checked them.
  const accounts = { ...STUB_ACCOUNTS, ...Object.fromEntries(Object.keys(users).map((n) => [n, userAddress(n, users[n] as AccountSpec) as string])) };
  return { engine: new StubEngine('node-rpc', route, options.requestLogSize), info: { seed, accounts, shapes, chainId, oldestBlock, now: () => clock() }, stream };
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
  const { engine, info, stream } = nodeEngine(options);
  const stub = fetchOf<NodeOperationId, NodeStubInfo & { readonly stream: NodeStream }>(engine, NODE_STUB_URL, options, { ...info, stream });
  feeds.set(stub, stream);
  return stub;
}

/** The block feed behind each in-memory stub, for a transport to carry (`nodeStreamHandlers` of `@x/testing/msw`). */
const feeds = new WeakMap<NodeStubFetch, ReturnType<typeof createBlockFeed>>();

/** The block feed of a stub made by `createNodeStubFetch`, or `undefined` for anything else. */
export const blockFeedOf = (stub: NodeStubFetch): ReturnType<typeof createBlockFeed> | undefined => feeds.get(stub);
